//! Every limit of [`crate::limits`] that spaces enforce: past it a
//! LimitError, at it everything (sampling, membership, JSON, protocol
//! messages, clone, equality, printing, drop) works, natively and in wasm.

use super::*;
use crate::limits::{MAX_BYTES, MAX_DIMS, MAX_SPACE_DEPTH, MAX_VALUE_DEPTH};
use crate::service::{space_from_message, space_to_message, value_from_event, value_to_event};
use crate::value::DType;
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

fn limit_error<T: fmt::Debug>(r: Result<T>, needle: &str) {
    let e = r.unwrap_err();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert!(e.message().contains(needle), "{e} lacks {needle:?}");
}

fn discrete() -> Space {
    Discrete::new("d", 3, 0).unwrap().into()
}

/// Tuples around a Discrete, `depth` levels in all.
fn nested_tuples(depth: usize) -> Result<Space> {
    let mut s = discrete();
    for _ in 1..depth {
        s = TupleSpace::new("t", vec![s, discrete()])?.into();
    }
    Ok(s)
}

fn nested_description(depth: usize) -> Json {
    let mut j = json!({"type": "Discrete", "name": "d", "n": 3});
    for _ in 1..depth {
        j = json!({"type": "SpaceSequence", "name": "s", "space": j, "size_range": [0, 1]});
    }
    j
}

#[wasm_bindgen_test(unsupported = test)]
fn a_box_too_large_is_refused_before_anything_is_allocated() {
    // 50 million float32 elements: 800 MB of bounds.
    let j =
        json!({"type": "Box", "name": "b", "low": 0, "high": 1, "shape": [50_000_000], "dtype": "float32"});
    limit_error(space_from_json(&j), "50000000");
    limit_error(BoxSpace::uniform("b", 0.0, 1.0, Some(vec![usize::MAX, 2]), DType::F64), "Box");
    let j =
        json!({"type": "Box", "name": "b", "low": 0, "high": 1, "shape": vec![1; 65], "dtype": "float32"});
    limit_error(space_from_json(&j), "65 dimensions");
    // A large box within the budget still samples.
    let mut s: Space = BoxSpace::uniform("b", 0.0, 1.0, Some(vec![1 << 16]), DType::F32).unwrap().into();
    let x = s.sample();
    assert!(s.contains(&x));
}

#[wasm_bindgen_test(unsupported = test)]
fn every_sized_kind_checks_its_budget() {
    let huge = usize::MAX / 4;
    limit_error(TextSpace::new("t", 0, huge, None), "Text");
    limit_error(Sequence::new("s", (0, Some(huge)), SequenceDType::Bytes, None, None), "Sequence");
    limit_error(Sequence::new("s", (huge, None), SequenceDType::Str, None, None), "Sequence");
    limit_error(SpaceSequence::new("s", discrete(), (0, Some(MAX_BYTES as usize))), "SpaceSequence");
    limit_error(MultiBinary::new("m", vec![1 << 20, 1 << 20]), "MultiBinary");
    limit_error(BinarySpace::new("m", vec![huge]), "Binary");
    limit_error(MultiDiscrete::new("m", vec![2; 4], vec![], vec![1 << 30], DType::I64), "MultiDiscrete");
    limit_error(DynamicBoxSpace::new("d", 0.0, 1.0, vec![0], vec![1 << 30], DType::F64, 0.0), "DynamicBox");
    let range = Scalar::new("r", Some(0.0), Some(1e15), DType::I64).unwrap();
    limit_error(Permutation::new("p", range), "Permutation");
    let node = BoxSpace::uniform("n", 0.0, 1.0, Some(vec![4]), DType::F32).unwrap();
    limit_error(GraphSpace::new("g", node.clone(), None, (0, Some(1 << 30)), (0, None), vec![]), "Graph");
    // Featureless nodes and no edges still count.
    let none = BoxSpace::uniform("n", 0.0, 1.0, Some(vec![0]), DType::F32).unwrap();
    limit_error(GraphSpace::new("g", none, None, (usize::MAX, None), (0, Some(0)), vec![]), "Graph");
    limit_error(GraphSpace::new("g", node, None, (1, Some(4)), (0, None), vec![1 << 30]), "Graph");
    limit_error(BatchedSpace::new("b", discrete(), vec![usize::MAX / 3]), "Batched");
    // Composites add their children up: three sequences of up to 100 MB.
    let bytes = || -> Space {
        Sequence::new("s", (0, Some(100 << 20)), SequenceDType::Bytes, None, None).unwrap().into()
    };
    limit_error(TupleSpace::new("t", vec![bytes(), bytes(), bytes()]), "Tuple");
    let entries = vec![("a".to_string(), bytes()), ("b".to_string(), bytes()), ("c".to_string(), bytes())];
    limit_error(DictSpace::new("d", entries, true), "Dict");
    // Batches and flattening.
    let mut d = discrete();
    limit_error(d.sample_batch(usize::MAX), "sample_batch");
    limit_error(d.sample_batch((MAX_BYTES / 8 + 1) as usize), "sample_batch");
    assert_eq!(d.sample_batch(1000).unwrap().len(), 1000);
    let wide: Space = Discrete::new("w", 1 << 40, 0).unwrap().into();
    // (on wasm32 2^40 does not even fit a usize: still a LimitError)
    limit_error(flatdim(&wide), "flat size");
    limit_error(flatten_space(&wide), "flat size");
}

#[wasm_bindgen_test(unsupported = test)]
fn a_large_charset_is_cheap() {
    let charset: String = (0x100u32..0x100 + 100_000).filter_map(char::from_u32).collect();
    let t = TextSpace::new("t", 0, 8, Some(&charset)).unwrap();
    assert_eq!(t.charset().len(), charset.chars().count());
}

#[wasm_bindgen_test(unsupported = test)]
fn spaces_nest_to_the_limit_and_no_further() {
    limit_error(nested_tuples(MAX_SPACE_DEPTH + 1), "32 levels");
    let deep = nested_description(200);
    limit_error(space_from_json(&deep), "32 levels");
    // A description one level too deep fails at the reader.
    limit_error(space_from_json(&nested_description(MAX_SPACE_DEPTH + 1)), "32 levels");
    let gym =
        (1..200).fold(json!({"type": "Discrete", "n": 2}), |j, _| json!({"type": "Tuple", "spaces": [j]}));
    limit_error(from_gym_space(&gym), "32 levels");
    let message = (1..200).fold(json!({"discrete": {"n": 2}}), |j, _| json!({"spaceList": {"space": [j]}}));
    limit_error(space_from_message("m", &message), "32 levels");
    // Every other kind of composite is checked as it is built.
    let deepest = nested_tuples(MAX_SPACE_DEPTH).unwrap();
    limit_error(SpaceSequence::new("s", deepest.clone(), (0, Some(1))), "SpaceSequence");
    limit_error(UnionSpace::new("u", vec![deepest.clone()]), "Union");
    limit_error(DictSpace::new("d", vec![("a".into(), deepest.clone())], true), "Dict");
    limit_error(BatchedSpace::new("b", deepest, vec![2]), "Batched");
    // The service goes on: the guards of the failed readers were released.
    assert_eq!(space_from_json(&nested_description(MAX_SPACE_DEPTH)).unwrap().depth(), MAX_SPACE_DEPTH);
}

#[wasm_bindgen_test(unsupported = test)]
fn everything_works_at_the_deepest_nesting() {
    // The deepest space of every composite kind, a Graph at the bottom.
    let node = BoxSpace::uniform("n", 0.0, 1.0, Some(vec![2]), DType::F32).unwrap();
    let mut s: Space = GraphSpace::new("g", node, None, (1, Some(3)), (0, Some(3)), vec![]).unwrap().into();
    for level in 1..MAX_SPACE_DEPTH {
        s = match level % 5 {
            0 => TupleSpace::new("t", vec![s, discrete()]).unwrap().into(),
            1 => DictSpace::new("d", vec![("k".into(), s)], true).unwrap().into(),
            2 => UnionSpace::new("u", vec![s]).unwrap().into(),
            3 => SpaceSequence::new("q", s, (1, Some(1))).unwrap().into(),
            _ => BatchedSpace::new("b", s, vec![1]).unwrap().into(),
        };
    }
    assert_eq!(s.depth(), MAX_SPACE_DEPTH);
    s.seed(1);
    let v = s.sample();
    assert!(s.contains(&v));
    let copy = v.clone();
    assert_eq!(copy, v);
    assert!(!format!("{v:?}").is_empty() && !s.to_string().is_empty());
    assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
    assert_eq!(space_from_message(s.name(), &space_to_message(&s)).unwrap().depth(), MAX_SPACE_DEPTH);
    assert_eq!(value_from_json(&value_to_json(&v)).unwrap(), v);
    assert_eq!(value_from_event(&value_to_event(&v)).unwrap(), v);
    // The JSON of each form fits serde_json's own limit for text.
    for j in [s.to_json(), space_to_message(&s), value_to_json(&v), value_to_event(&v)] {
        let text = serde_json::to_string(&j).unwrap();
        assert_eq!(serde_json::from_str::<Json>(&text).unwrap(), j);
    }
    let empty = s.create_empty();
    drop((s.clone(), empty, copy));
    let flat = nested_tuples(MAX_SPACE_DEPTH).unwrap();
    let x = flat.sample_with(Rng::seed_from_u64(2)).1;
    assert_eq!(unflatten(&flat, &flatten(&flat, &x).unwrap()).unwrap(), x);
}

#[wasm_bindgen_test(unsupported = test)]
fn values_nest_to_the_limit_and_no_further() {
    let nest = |depth: usize| (1..depth).fold(json!(1), |j, _| json!([j]));
    assert!(value_from_json(&nest(MAX_VALUE_DEPTH)).is_ok());
    limit_error(value_from_json(&nest(MAX_VALUE_DEPTH + 1)), "40 levels");
    limit_error(value_from_json(&nest(200)), "40 levels");
    let dicts = (1..200).fold(json!(1), |j, _| json!({"dict": [["k", j]]}));
    limit_error(value_from_json(&dicts), "40 levels");
    let events = (1..200).fold(json!({"int64Value": 1}), |j, _| json!({"eventDict": {"event": {"k": j}}}));
    limit_error(value_from_event(&events), "40 levels");
    // Nested number lists in a description are bounded by the most dimensions.
    let low = (0..=MAX_DIMS).fold(json!(0), |j, _| json!([j]));
    let j = json!({"type": "Box", "name": "b", "low": low, "high": 1, "shape": [1], "dtype": "float32"});
    limit_error(space_from_json(&j), "64 levels");
    assert!(value_from_json(&nest(MAX_VALUE_DEPTH)).is_ok());
}
