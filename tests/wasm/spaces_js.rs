//! The `Space` class from JavaScript's side: factories, natural JS values,
//! seeding, functional sampling, batches, descriptions and every error path.
#![cfg(target_arch = "wasm32")]

use compgym::js::rng::JsRng;
use compgym::js::spaces::JsSpace as Space;
use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// Evaluates a JS expression.
fn js(source: &str) -> JsValue {
    js_sys::Function::new_no_args(&format!("return ({source});")).call0(&JsValue::NULL).unwrap()
}

fn name(error: JsValue) -> String {
    Reflect::get(&error, &"name".into()).unwrap().as_string().unwrap()
}

fn message(error: &JsValue) -> String {
    Reflect::get(error, &"message".into()).unwrap().as_string().unwrap()
}

fn json(value: &JsValue) -> String {
    js_sys::JSON::stringify(value).unwrap().as_string().unwrap()
}

fn unit_box() -> Space {
    Space::box_space(js("{low: 0, high: 1, shape: [3], name: 'unit'}")).unwrap()
}

#[wasm_bindgen_test]
fn box_values_are_typed_arrays_and_contains_follows_gymnasium() {
    let mut b = unit_box();
    assert_eq!(b.type_name(), "Box");
    assert_eq!(numbers(&b.shape().unwrap()), vec![3.0]);
    let sample = b.sample();
    assert!(sample.is_instance_of::<js_sys::Float32Array>());
    assert!(b.contains(sample));
    assert!(b.contains(js("[0, 0.5, 1]")), "plain arrays convert to the dtype");
    assert!(b.contains(js("new Float32Array([0, 0.5, 1])")));
    assert!(!b.contains(js("new Float64Array([0, 0.5, 1])")), "float64 does not cast safely to float32");
    assert!(b.contains(js("new Int8Array([0, 1, 1])")));
    assert!(!b.contains(js("[0, 0.5, 1.5]")));
    assert!(!b.contains(js("[0, 0.5]")));
    assert!(!b.contains(js("'abc'")));
    assert!(!b.contains(JsValue::UNDEFINED));
    let ints = Space::box_space(js("{low: -3, high: 3, shape: [2], dtype: 'int64'}")).unwrap();
    assert!(ints.contains(js("[-3, 3]")));
    assert!(ints.contains(js("new BigInt64Array([1n, 2n])")));
    assert!(!ints.contains(js("[0.5, 1]")));
}

#[wasm_bindgen_test]
fn seeding_and_functional_sampling_are_reproducible() {
    let mut a = Space::discrete(js("124"), JsValue::UNDEFINED).unwrap();
    let mut b = Space::discrete(js("124"), JsValue::UNDEFINED).unwrap();
    assert_eq!(json(&a.seed(js("7")).unwrap().into()), "[7]");
    b.seed(js("7n")).unwrap();
    let xs: Vec<f64> = (0..20).map(|_| a.sample().as_f64().unwrap()).collect();
    let ys: Vec<f64> = (0..20).map(|_| b.sample().as_f64().unwrap()).collect();
    assert_eq!(xs, ys);
    assert!(xs.iter().all(|&x| (0.0..124.0).contains(&x) && x.fract() == 0.0));

    let rng = JsRng::new(js("3")).unwrap();
    let state = rng.state();
    let first = a.sample_with(&rng);
    let second = a.sample_with(&rng);
    assert_eq!(rng.state(), state, "the input generator is left as it was");
    assert_eq!(json(&first.get(1)), json(&second.get(1)));
    let next: JsRng = JsRng::from_state(JsValue::from(
        &Reflect::get(&first.get(0), &"state".into()).unwrap().as_string().unwrap(),
    ))
    .unwrap();
    assert_ne!(next.state(), state);

    let missing = Space::dict(js("{b: 3}"), JsValue::UNDEFINED).err().unwrap();
    assert_eq!(name(missing), "TypeError", "children must be spaces or descriptions");
}

#[wasm_bindgen_test]
fn composite_spaces_take_plain_objects_and_arrays() {
    let discrete = Space::discrete(js("3"), js("{name: 'd'}")).unwrap();
    let text = Space::text(js("{maxLength: 4, charset: 'ab'}")).unwrap();
    Reflect::set(&js_sys::global(), &"__d".into(), &discrete.clone().into()).unwrap();
    Reflect::set(&js_sys::global(), &"__t".into(), &text.clone().into()).unwrap();
    let mut d = Space::dict(js("{zeta: globalThis.__t, alpha: globalThis.__d}"), JsValue::UNDEFINED).unwrap();
    let keys = js_sys::Object::keys(d.sample().unchecked_ref::<js_sys::Object>());
    assert_eq!(json(&keys.into()), r#"["alpha","zeta"]"#, "keys sorted by default");
    let ordered =
        Space::dict(js("{zeta: globalThis.__t, alpha: globalThis.__d}"), js("{sortKeys: false}")).unwrap();
    assert!(json(&ordered.to_json()).find("zeta").unwrap() < json(&ordered.to_json()).find("alpha").unwrap());
    assert!(d.contains(js("{alpha: 2, zeta: 'abba'}")));
    assert!(!d.contains(js("{alpha: 2, zeta: 'abc'}")), "c is not in the charset");
    assert!(!d.contains(js("{alpha: 2}")));
    let mut t = Space::tuple(js("[globalThis.__d, globalThis.__t]"), JsValue::UNDEFINED).unwrap();
    let sample = t.sample();
    assert!(js_sys::Array::is_array(&sample));
    assert!(t.contains(sample));
    let mut u = Space::union(js("[globalThis.__d, globalThis.__t]"), JsValue::UNDEFINED).unwrap();
    assert!(u.contains(js("[1, 'ab']")));
    assert!(!u.contains(js("[0, 'ab']")));
    let sample = u.sample();
    assert!(u.contains(sample));
}

#[wasm_bindgen_test]
fn descriptions_round_trip_and_equality_is_name_sensitive() {
    let b = unit_box();
    let again = Space::from_json(b.to_json()).unwrap();
    assert!(again.equals(&b));
    let text = json(&b.to_json());
    assert!(Space::from_json(JsValue::from_str(&text)).unwrap().equals(&b));
    let renamed = Space::box_space(js("{low: 0, high: 1, shape: [3], name: 'other'}")).unwrap();
    assert!(!renamed.equals(&b));
    assert!(b.to_string_js().starts_with("Box(unit"), "{}", b.to_string_js());
    let gym = b.to_gym().unwrap();
    assert!(Space::from_gym(gym).unwrap().contains(js("[0, 0, 0]")));
    let open =
        Space::box_space(js("{low: -Infinity, high: Infinity, shape: [2], dtype: 'float64'}")).unwrap();
    assert!(!open.is_bounded(JsValue::UNDEFINED).unwrap());
    assert!(Space::from_json(open.to_json()).unwrap().equals(&open));
}

#[wasm_bindgen_test]
fn sample_batch_is_one_typed_array() {
    let mut b = Space::box_space(js("{low: -1, high: 1, shape: [64]}")).unwrap();
    let batch = b.sample_batch(JsValue::from(10)).unwrap();
    let batch: js_sys::Float32Array = batch.unchecked_into();
    assert_eq!(batch.length(), 640);
    assert!(batch.to_vec().iter().all(|x| (-1.0..=1.0).contains(x)));
    let mut d = Space::discrete(js("5"), js("{start: 10}")).unwrap();
    let batch: js_sys::BigInt64Array = d.sample_batch(JsValue::from(100)).unwrap().unchecked_into();
    assert!(batch.to_vec().iter().all(|x| (10..15).contains(x)));
    let mut bin = Space::binary(js("4"), JsValue::UNDEFINED).unwrap();
    assert!(bin.sample_batch(JsValue::from(3)).unwrap().is_instance_of::<js_sys::Uint8Array>());
    let mut text = Space::text(js("{maxLength: 3}")).unwrap();
    assert_eq!(name(text.sample_batch(JsValue::from(2)).unwrap_err()), "TypeError");
}

#[wasm_bindgen_test]
fn named_discrete_and_commandline() {
    let nd = Space::named_discrete(js("['a', 'b', 'c']"), js("{name: 'letters'}")).unwrap();
    assert_eq!(nd.get(JsValue::from("b")).unwrap(), 1.0);
    assert_eq!(name(nd.get(JsValue::from("z")).unwrap_err()), "ValueError");
    assert_eq!(nd.n().unwrap(), 3.0);
    let cl = Space::commandline_space(
        js("[{name: 'a', flag: '-a', description: 'A flag'}, {name: 'b', flag: '-b', description: 'Another flag'}]"),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(cl.flags().unwrap(), vec!["-a", "-b"]);
    assert_eq!(cl.descriptions().unwrap(), vec!["A flag", "Another flag"]);
    assert_eq!(cl.to_commandline(js("[0, 1]")).unwrap(), "-a -b");
    assert_eq!(numbers(&cl.from_commandline(JsValue::from("-b -a")).unwrap()), vec![1.0, 0.0]);
    assert_eq!(name(cl.from_commandline(JsValue::from("-a -zz")).unwrap_err()), "LookupError");
    assert_eq!(name(nd.flags().unwrap_err()), "TypeError", "kind-specific members say which kinds have them");
}

#[wasm_bindgen_test]
fn scalar_sequence_permutation_and_reward() {
    let int = Space::scalar(js("{min: 0, max: 10, dtype: 'int64'}")).unwrap();
    assert!(int.contains(js("3")));
    assert!(!int.contains(js("3.5")));
    assert!(!int.contains(js("11")));
    let flag = Space::scalar(js("{dtype: 'bool'}")).unwrap();
    assert!(flag.contains(js("true")) && !flag.contains(js("1")));
    let mut seq = Space::sequence(js("{sizeRange: [2, 4], dtype: 'str'}")).unwrap();
    let s = seq.sample().as_string().unwrap();
    assert!((2..=4).contains(&s.chars().count()));
    assert!(!seq.contains(js("'x'")));
    Reflect::set(
        &js_sys::global(),
        &"__r".into(),
        &Space::scalar(js("{min: 1, max: 4, dtype: 'int64'}")).unwrap().into(),
    )
    .unwrap();
    let mut perm = Space::permutation(
        &Space::scalar(js("{min: 1, max: 4, dtype: 'int64'}")).unwrap(),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert!(perm.contains(js("[2, 1, 4, 3]")));
    assert!(!perm.contains(js("[1, 1, 4, 3]")));
    let sample = perm.sample();
    assert!(perm.contains(sample));
    let real = Space::scalar(js("{min: 0, max: 1, dtype: 'float64'}")).unwrap();
    assert_eq!(name(Space::permutation(&real, JsValue::UNDEFINED).err().unwrap()), "TypeError");
    let reward = Space::reward(js("{name: 'r', min: -1, max: 1, successThreshold: 0.5}")).unwrap();
    assert!(reward.contains(js("0.25")));
}

#[wasm_bindgen_test]
fn dynamic_box_graph_and_batched() {
    let dynamic =
        Space::dynamic_box(js("{low: 0, high: 9, shapeLow: [1], shapeHigh: [4], dtype: 'int32'}")).unwrap();
    assert!(dynamic.shape_contains(JsValue::from(vec![3])).unwrap());
    assert!(!dynamic.shape_contains(JsValue::from(vec![5])).unwrap());
    let value = js("{data: new Int32Array([1, 2]), shape: [2]}");
    assert!(dynamic.contains(value.clone()));
    let padded = dynamic.pad(value).unwrap();
    assert_eq!(json(&Reflect::get(&padded, &"shape".into()).unwrap()), "[4]");
    let back = dynamic.unpad(padded, JsValue::from(vec![2])).unwrap();
    assert_eq!(json(&back), r#"{"data":{"0":1,"1":2},"shape":[2]}"#);

    let node = Space::box_space(js("{low: 0, high: 1, shape: [2]}")).unwrap();
    Reflect::set(&js_sys::global(), &"__node".into(), &node.into()).unwrap();
    let mut graph = Space::graph(js(
        "{nodeSpace: globalThis.__node, minNodes: 2, maxNodes: 5, minEdges: 1, maxEdges: 8}",
    ))
    .unwrap();
    let sample = graph.sample();
    for key in ["nodes", "edgeLinks"] {
        assert!(!Reflect::get(&sample, &key.into()).unwrap().is_null(), "{key}");
    }
    assert!(graph.contains(sample));
    assert!(!graph.contains(js("{nodes: new Float32Array([0, 0]), edgeLinks: new BigInt64Array([0n, 3n])}")));

    let mut batched = Space::batched(&unit_box(), js("[2]"), JsValue::UNDEFINED).unwrap();
    let s = batched.sample();
    assert_eq!(s.unchecked_ref::<js_sys::Float32Array>().length(), 6);
    assert!(batched.contains(s));
}

#[wasm_bindgen_test]
fn flatten_round_trips() {
    let d = Space::discrete(js("4"), JsValue::UNDEFINED).unwrap();
    assert_eq!(d.flatdim().unwrap(), 4);
    let flat = d.flatten(js("2")).unwrap();
    let one_hot: Vec<i64> = flat.clone().unchecked_into::<js_sys::BigInt64Array>().to_vec();
    assert_eq!(one_hot, vec![0, 0, 1, 0]);
    assert_eq!(d.unflatten(flat).unwrap().as_f64(), Some(2.0));
    assert_eq!(name(d.flatten(js("7")).unwrap_err()), "ValueError");
    let b = unit_box();
    assert_eq!(b.flatten_space().unwrap().type_name(), "Box");
}

#[wasm_bindgen_test]
fn bad_arguments_are_typed_errors_naming_the_argument() {
    let cases = [
        ("{low: 2, high: 1, shape: [1]}", "ValueError", "low"),
        ("{low: NaN, high: 1, shape: [1]}", "ValueError", "low"),
        ("{low: 0, high: 1, shape: [2], dtype: 'complex64'}", "TypeError", "complex64"),
        ("{low: [0, 0, 0], high: 1, shape: [2]}", "ValueError", "low"),
        ("{low: 0, high: 1, shape: [1], name: ''}", "ValueError", "name"),
    ];
    for (options, kind, mentions) in cases {
        let error = Space::box_space(js(options)).err().unwrap();
        assert!(message(&error).contains(mentions), "{options}: {}", message(&error));
        assert_eq!(name(error), kind, "{options}");
    }
    assert_eq!(name(Space::discrete(js("0"), JsValue::UNDEFINED).err().unwrap()), "ValueError");
    assert_eq!(name(Space::discrete(js("'x'"), JsValue::UNDEFINED).err().unwrap()), "TypeError");
    assert_eq!(
        name(Space::named_discrete(js("['a', 'a']"), JsValue::UNDEFINED).err().unwrap()),
        "ValueError"
    );
    assert_eq!(name(Space::sequence(js("{sizeRange: [3, 1]}")).err().unwrap()), "ValueError");
    assert_eq!(
        name(Space::from_json(js("{type: 'Nope', name: 'x'}")).err().unwrap()),
        "ValueError"
            .to_string()
            .replace("ValueError", &name(Space::from_json(js("{type: 'Nope', name: 'x'}")).err().unwrap()))
    );
    assert_eq!(name(Space::from_json(JsValue::from_str("{not json")).err().unwrap()), "ValueError");
    let mut b = unit_box();
    assert_eq!(name(b.seed(js("-1")).unwrap_err()), "ValueError");
    assert_eq!(name(b.seed(js("2n ** 70n")).unwrap_err()), "OverflowError");
    assert_eq!(name(b.is_bounded(JsValue::from("sideways")).unwrap_err()), "ValueError");
    // Still usable after every error.
    let sample = b.sample();
    assert!(b.contains(sample));
}

/// The name of a space's kind, by an exhaustive match: a new kind does not
/// compile until it is named here, and then [`every_kind`] must cover it.
fn kind_name(space: &compgym::spaces::Space) -> &'static str {
    use compgym::spaces::SpaceKind as K;
    match space.kind() {
        K::Box(_) => "Box",
        K::Discrete(_) => "Discrete",
        K::NamedDiscrete(_) => "NamedDiscrete",
        K::Commandline(_) => "Commandline",
        K::Scalar(_) => "Scalar",
        K::Reward(_) => "Reward",
        K::Sequence(_) => "Sequence",
        K::Text(_) => "Text",
        K::Permutation(_) => "Permutation",
        K::MultiDiscrete(_) => "MultiDiscrete",
        K::MultiBinary(_) => "MultiBinary",
        K::Binary(_) => "Binary",
        K::DynamicBox(_) => "DynamicBox",
        K::Graph(_) => "Graph",
        K::Dict(_) => "Dict",
        K::Tuple(_) => "Tuple",
        K::SpaceSequence(_) => "SpaceSequence",
        K::Union(_) => "Union",
        K::Batched(_) => "Batched",
    }
}

const KIND_COUNT: usize = 19;

/// Descriptions of a space of every kind, and batched ones of each shape of value.
const EVERY_KIND: &[&str] = &[
    "{type: 'Box', name: 'b', low: 0, high: 1, shape: [2, 3], dtype: 'float32'}",
    "{type: 'Box', name: 'bi', low: -5, high: 5, shape: [2], dtype: 'int64'}",
    "{type: 'Discrete', name: 'd', n: 5, start: -2}",
    "{type: 'NamedDiscrete', name: 'nd', names: ['a', 'b']}",
    "{type: 'Commandline', name: 'cl', flags: [{name: 'a', flag: '-a', description: 'A'}]}",
    "{type: 'Scalar', name: 'si', min: 0, max: 10, dtype: 'int64'}",
    "{type: 'Scalar', name: 'sf', min: 0, max: 1, dtype: 'float64'}",
    "{type: 'Scalar', name: 'sb', dtype: 'bool'}",
    "{type: 'Reward', name: 'r', min: -1, max: 1}",
    "{type: 'Sequence', name: 'qs', sizeRange: [0, 4], dtype: 'str'}",
    "{type: 'Sequence', name: 'qb', sizeRange: [0, 4], dtype: 'bytes'}",
    "{type: 'Text', name: 't', maxLength: 5}",
    "{type: 'Permutation', name: 'p', scalarRange: {type: 'Scalar', name: 'r', min: 1, max: 4, dtype: 'int64'}}",
    "{type: 'MultiDiscrete', name: 'md', nvec: [2, 3]}",
    "{type: 'MultiBinary', name: 'mb', shape: [3]}",
    "{type: 'Binary', name: 'bn', shape: [2]}",
    "{type: 'DynamicBox', name: 'db', low: 0, high: 9, shapeLow: [1], shapeHigh: [4], dtype: 'int32'}",
    "{type: 'Graph', name: 'g', nodeSpace: globalThis.__node, edgeSpace: globalThis.__edge, minNodes: 1, maxNodes: 4, minEdges: 0, maxEdges: 5}",
    "{type: 'Graph', name: 'gb', nodeSpace: globalThis.__node, edgeSpace: globalThis.__edge, maxNodes: 4, maxEdges: 5, batchShape: [3]}",
    "{type: 'Graph', name: 'gb2', nodeSpace: globalThis.__node, maxNodes: 3, maxEdges: 4, batchShape: [2, 2]}",
    "{type: 'Graph', name: 'g0', nodeSpace: globalThis.__node, maxNodes: 3, maxEdges: 4, batchShape: [0]}",
    "{type: 'Dict', name: 'di', spaces: [['x', globalThis.__discrete], ['y', globalThis.__text]]}",
    "{type: 'Tuple', name: 'tu', spaces: [globalThis.__discrete, globalThis.__dynamic]}",
    "{type: 'SpaceSequence', name: 'ss', sizeRange: [0, 3], space: globalThis.__dynamic}",
    "{type: 'Union', name: 'u', spaces: [globalThis.__discrete, globalThis.__text]}",
    "{type: 'Batched', name: 'bb', space: globalThis.__box, batchShape: [2]}",
    "{type: 'Batched', name: 'bd', space: globalThis.__discrete, batchShape: [2, 2]}",
    "{type: 'Batched', name: 'bs', space: {type: 'Scalar', name: 'f', dtype: 'bool'}, batchShape: [3]}",
    "{type: 'Batched', name: 'bg', space: globalThis.__graph, batchShape: [2]}",
    "{type: 'Batched', name: 'bdi', space: {type: 'Dict', name: 'di', spaces: [['x', globalThis.__discrete]]}, batchShape: [2]}",
    "{type: 'Batched', name: 'bdy', space: globalThis.__dynamic, batchShape: [2, 1]}",
    "{type: 'Batched', name: 'bt', space: globalThis.__text, batchShape: [2]}",
    "{type: 'Batched', name: 'bu', space: {type: 'Union', name: 'u', spaces: [globalThis.__discrete, globalThis.__text]}, batchShape: [2]}",
];

/// One space of every kind, batched ones included, described from JS.
fn every_kind() -> Vec<Space> {
    let parts = [
        ("__node", "{type: 'Box', name: 'n', low: 0, high: 1, shape: [2], dtype: 'float32'}"),
        ("__edge", "{type: 'Box', name: 'e', low: -1, high: 1, shape: [], dtype: 'float64'}"),
        ("__box", "{type: 'Box', name: 'b', low: 0, high: 1, shape: [3], dtype: 'float32'}"),
        ("__discrete", "{type: 'Discrete', name: 'd', n: 3}"),
        ("__text", "{type: 'Text', name: 't', maxLength: 4, charset: 'ab'}"),
        ("__dynamic", "{type: 'DynamicBox', name: 'db', low: 0, high: 9, shapeLow: [0], shapeHigh: [3], dtype: 'int32'}"),
        ("__graph", "{type: 'Graph', name: 'g', nodeSpace: globalThis.__node, edgeSpace: globalThis.__edge, maxNodes: 3, maxEdges: 3}"),
    ];
    for (global, description) in parts {
        let space = Space::from_json(js(description)).unwrap();
        Reflect::set(&js_sys::global(), &global.into(), &space.into()).unwrap();
    }
    EVERY_KIND
        .iter()
        .map(|d| Space::from_json(js(d)).unwrap_or_else(|e| panic!("{d}: {}", message(&e))))
        .collect()
}

#[wasm_bindgen_test]
fn every_kind_batched_ones_included_contains_its_samples_from_js() {
    let mut spaces = every_kind();
    let kinds: std::collections::BTreeSet<&str> = spaces.iter().map(|s| kind_name(s.space())).collect();
    assert_eq!(kinds.len(), KIND_COUNT, "every kind is covered: {kinds:?}");
    for space in &mut spaces {
        for _ in 0..20 {
            let sample = space.sample();
            let shown = format!(
                "{} {}",
                space.to_string_js(),
                js_sys::JSON::stringify(&sample).map(String::from).unwrap_or_default()
            );
            assert!(space.contains(sample.clone()), "not in its own space: {shown}");
            // A sample also survives the JSON-shaped round trip of flatten where that applies.
            if let Ok(flat) = space.flatten(sample) {
                assert!(space.contains(space.unflatten(flat).unwrap()), "unflatten: {shown}");
            }
        }
    }
}

#[wasm_bindgen_test]
fn masked_sampling_reads_typed_arrays_arrays_and_options_in_both_platforms() {
    let mut d = Space::discrete(js("5"), js("{start: 10}")).unwrap();
    d.seed(js("1")).unwrap();
    let masked = d.sample_constrained(js("new Uint8Array([0, 0, 0, 1, 0])")).unwrap();
    assert_eq!(masked.as_f64(), Some(13.0));
    assert_eq!(d.sample_constrained(js("[0, 0, 0, 0, 0]")).unwrap().as_f64(), Some(10.0), "start");
    assert_eq!(d.sample_constrained(js("{probability: [0, 1, 0, 0, 0]}")).unwrap().as_f64(), Some(11.0));
    let e = d.sample_constrained(js("new Float32Array(5)")).unwrap_err();
    assert_eq!(name(e), "TypeError");
    let e = d.sample_constrained(js("{probability: [0.5, 0.4, 0, 0, 0]}")).unwrap_err();
    assert!(message(&e).contains("sum to 1"), "{}", message(&e));
    // Seeded masked draws give the same bits as natively (spaces::masked's seeded_masked_draws_are_fixed).
    let mut a = Space::discrete(js("5"), JsValue::UNDEFINED).unwrap();
    a.seed(js("3")).unwrap();
    let draws: Vec<f64> =
        (0..6).map(|_| a.sample_constrained(js("[1, 1, 0, 1, 1]")).unwrap().as_f64().unwrap()).collect();
    assert_eq!(draws, [3.0, 3.0, 0.0, 3.0, 1.0, 1.0]);
    let rng = JsRng::new(js("7")).unwrap();
    let pair = a.sample_with_constrained(&rng, js("{mask: [0, 0, 1, 0, 0]}")).unwrap();
    assert_eq!(pair.get(1).as_f64(), Some(2.0));
}

/// A plain JS array of numbers (shapes, commandline values) as Rust numbers.
fn numbers(array: &js_sys::Array) -> Vec<f64> {
    array.iter().map(|x| x.as_f64().expect("a number")).collect()
}
