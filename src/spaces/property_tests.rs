//! Properties checked over hundreds of randomly built spaces (nested ones
//! included), generated with the crate's own seeded [`Rng`].

use super::*;
use crate::value::DType;

/// A name like `s17`.
fn name(rng: &mut Rng) -> String {
    format!("s{}", rng.below(100))
}

fn small_shape(rng: &mut Rng) -> Vec<usize> {
    (0..rng.below(3)).map(|_| 1 + rng.index(3)).collect()
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.index(items.len())]
}

/// Float bounds of every form: bounded, half-bounded, unbounded.
fn float_bounds(rng: &mut Rng) -> (f64, f64) {
    let lo = rng.uniform(-10.0, 10.0).round();
    let hi = lo + rng.uniform(0.0, 5.0).round();
    match rng.below(4) {
        0 => (lo, hi),
        1 => (lo, f64::INFINITY),
        2 => (f64::NEG_INFINITY, hi),
        _ => (f64::NEG_INFINITY, f64::INFINITY),
    }
}

fn random_box(rng: &mut Rng) -> BoxSpace {
    let shape = small_shape(rng);
    let dtype = pick(rng, &DType::ALL);
    let n: usize = shape.iter().product();
    if dtype.is_float() {
        let (low, high): (Vec<f64>, Vec<f64>) = (0..n).map(|_| float_bounds(rng)).unzip();
        BoxSpace::new(&name(rng), low, high, shape, dtype).unwrap()
    } else {
        // Small integer bounds keep flattening exact when promoted to float64.
        let (dmin, dmax) = dtype.int_range().unwrap();
        let lo = (rng.int_inclusive(-20, 20) as i128).clamp(dmin, dmax);
        let hi = (lo + rng.int_inclusive(0, 20) as i128).min(dmax);
        BoxSpace::new_int(&name(rng), vec![lo], vec![hi], shape, dtype).unwrap()
    }
}

fn random_scalar(rng: &mut Rng) -> Scalar {
    let dtype = pick(rng, &[DType::F64, DType::F32, DType::I64, DType::I32, DType::Bool]);
    let (lo, hi) = if dtype.is_float() {
        float_bounds(rng)
    } else {
        let lo = rng.int_inclusive(-5, 5) as f64;
        (lo, lo + rng.below(5) as f64)
    };
    let lo = (lo.is_finite()).then_some(lo);
    let hi = (hi.is_finite()).then_some(hi);
    if dtype == DType::Bool {
        return Scalar::new(&name(rng), None, None, dtype).unwrap();
    }
    Scalar::new(&name(rng), lo, hi, dtype).unwrap()
}

fn random_leaf(rng: &mut Rng) -> Space {
    let n = name(rng);
    match rng.below(14) {
        0 | 1 => random_box(rng).into(),
        2 => Discrete::new(&n, 1 + rng.below(9), rng.int_inclusive(-5, 5)).unwrap().into(),
        3 => NamedDiscrete::new(&n, (0..1 + rng.below(4)).map(|i| format!("item{i}")).collect())
            .unwrap()
            .into(),
        4 => {
            let flags = (0..1 + rng.below(4))
                .map(|i| CommandlineFlag::new(&format!("f{i}"), &format!("-f{i}"), "a flag"))
                .collect();
            Commandline::new(&n, flags).unwrap().into()
        }
        5 => random_scalar(rng).into(),
        6 => {
            let lo = rng.index(3);
            let hi = if rng.next_bool() { Some(lo + rng.index(4)) } else { None };
            let (dtype, range) = match rng.below(4) {
                0 => (SequenceDType::Str, None),
                1 => (SequenceDType::Bytes, None),
                2 => (
                    SequenceDType::Array(DType::I32),
                    Some(Scalar::new("r", Some(-3.0), Some(3.0), DType::I64).unwrap()),
                ),
                _ => (SequenceDType::Array(DType::F64), None),
            };
            Sequence::new(&n, (lo, hi), dtype, None, range).unwrap().into()
        }
        7 => {
            let lo = rng.int_inclusive(-3, 3) as f64;
            let range = Scalar::new("r", Some(lo), Some(lo + rng.below(5) as f64), DType::I64).unwrap();
            Permutation::new(&n, range).unwrap().into()
        }
        8 => {
            let (lo, hi) = float_bounds(rng);
            RewardSpace::new(&n)
                .unwrap()
                .with_range(lo.is_finite().then_some(lo), hi.is_finite().then_some(hi))
                .unwrap()
                .into()
        }
        9 => {
            let shape = small_shape(rng);
            let k: usize = shape.iter().product();
            let nvec = (0..k).map(|_| 1 + rng.below(4) as i128).collect();
            let start = (0..k).map(|_| rng.int_inclusive(-2, 2) as i128).collect();
            MultiDiscrete::new(&n, nvec, start, shape, pick(rng, &[DType::I64, DType::I8, DType::I32]))
                .unwrap()
                .into()
        }
        10 => {
            if rng.next_bool() {
                MultiBinary::new(&n, small_shape(rng)).unwrap().into()
            } else {
                BinarySpace::new(&n, small_shape(rng)).unwrap().into()
            }
        }
        11 => {
            let rank = rng.index(3);
            let shape_low: Vec<usize> = (0..rank).map(|_| rng.index(3)).collect();
            let shape_high = shape_low.iter().map(|&d| d + rng.index(3)).collect();
            let (lo, hi) = float_bounds(rng);
            let dtype = pick(rng, &[DType::F32, DType::F64]);
            DynamicBoxSpace::new(&n, lo, hi, shape_low, shape_high, dtype, 0.0).unwrap().into()
        }
        12 => {
            let node = random_box(rng);
            let edge = rng.next_bool().then(|| random_box(rng));
            let min_nodes = rng.index(3);
            let max_nodes = rng.next_bool().then(|| min_nodes + rng.index(4));
            let min_edges = if min_nodes == 0 { 0 } else { rng.index(3) };
            let max_edges = rng.next_bool().then(|| min_edges + rng.index(4));
            let batch = if rng.below(3) == 0 { small_shape(rng) } else { vec![] };
            GraphSpace::new(&n, node, edge, (min_nodes, max_nodes), (min_edges, max_edges), batch)
                .unwrap()
                .into()
        }
        _ => {
            let min = rng.index(3);
            let charset = pick(rng, &[None, Some("ab"), Some("xyzé")]);
            TextSpace::new(&n, min, min + rng.index(5), charset).unwrap().into()
        }
    }
}

fn random_space(rng: &mut Rng, depth: u32) -> Space {
    if depth == 0 || rng.below(3) == 0 {
        return random_leaf(rng);
    }
    let n = name(rng);
    let children =
        |rng: &mut Rng| -> Vec<Space> { (0..rng.below(4)).map(|_| random_space(rng, depth - 1)).collect() };
    match rng.below(5) {
        0 => {
            let entries =
                children(rng).into_iter().enumerate().map(|(i, s)| (format!("k{}", 9 - i), s)).collect();
            DictSpace::new(&n, entries, rng.next_bool()).unwrap().into()
        }
        1 => TupleSpace::new(&n, children(rng)).unwrap().into(),
        2 => {
            let hi = rng.next_bool().then(|| rng.index(4));
            SpaceSequence::new(&n, random_space(rng, depth - 1), (0, hi)).unwrap().into()
        }
        3 => {
            let mut c = children(rng);
            c.push(random_space(rng, depth - 1));
            UnionSpace::new(&n, c).unwrap().into()
        }
        _ => BatchedSpace::new(&n, random_space(rng, depth - 1), small_shape(rng)).unwrap().into(),
    }
}

/// Runs `check` over `count` random spaces built from a fixed seed.
fn for_random_spaces(count: usize, mut check: impl FnMut(&mut Space, &mut Rng)) {
    let mut rng = Rng::seed_from_u64(2024);
    for _ in 0..count {
        let mut space = random_space(&mut rng, 3);
        check(&mut space, &mut rng);
    }
}

#[test]
fn samples_are_contained() {
    for_random_spaces(400, |space, rng| {
        space.seed(rng.next_u64());
        for _ in 0..3 {
            let v = space.sample();
            assert!(space.contains(&v), "{space}\n{v:?}");
            let (_, w) = space.sample_with(rng.split());
            assert!(space.contains(&w), "{space}\n{w:?}");
        }
    });
}

#[test]
fn seeding_is_reproducible() {
    for_random_spaces(300, |space, rng| {
        let seed = rng.next_u64();
        let mut other = space.clone();
        let seeds = space.seed(seed);
        assert_eq!(other.seed(seed), seeds);
        assert_eq!(seeds[0], seed);
        for _ in 0..3 {
            assert_eq!(space.sample(), other.sample());
        }
        let r = rng.split();
        assert_eq!(space.sample_with(r), other.sample_with(r));
    });
}

#[test]
fn descriptions_round_trip_through_text() {
    for_random_spaces(400, |space, _| {
        let text = serde_json::to_string(&space.to_json()).unwrap();
        let back =
            space_from_json(&serde_json::from_str(&text).unwrap()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, space, "{text}");
        assert_eq!(back.to_string(), space.to_string());
    });
}

#[test]
fn values_round_trip_through_json_text() {
    for_random_spaces(300, |space, _| {
        for v in [space.sample(), space.create_empty()] {
            let text = serde_json::to_string(&value_to_json(&v)).unwrap();
            assert_eq!(value_from_json(&serde_json::from_str(&text).unwrap()).unwrap(), v, "{text}");
        }
    });
}

#[test]
fn flatten_round_trips_or_is_a_type_error() {
    let mut flattened = 0;
    for_random_spaces(500, |space, _| {
        let v = space.sample();
        match flatdim(space) {
            Err(e) => {
                assert_eq!(e.name(), "TypeError", "{space}");
                assert_eq!(flatten(space, &v).unwrap_err().name(), "TypeError");
                assert_eq!(flatten_space(space).unwrap_err().name(), "TypeError");
            }
            Ok(n) => {
                flattened += 1;
                let f = flatten(space, &v).unwrap_or_else(|e| panic!("{e}: {space} {v:?}"));
                assert_eq!(f.shape(), [n]);
                assert_eq!(f.dtype(), flatten::flat_dtype(space).unwrap());
                assert_eq!(unflatten(space, &f).unwrap(), v, "{space}");
                let fs = flatten_space(space).unwrap();
                assert!(fs.contains(&Value::Array(f.clone())), "{fs} {f:?}");
                assert_eq!(fs.name(), space.name());
            }
        }
    });
    assert!(flattened > 100, "only {flattened} flattenable spaces");
}

#[test]
fn gym_descriptions_are_stable() {
    for_random_spaces(300, |space, _| {
        if let Ok(g) = to_gym_space(space) {
            let back = from_gym_space(&g).unwrap_or_else(|e| panic!("{e}: {g}"));
            assert_eq!(to_gym_space(&back).unwrap(), g);
        }
    });
}

#[test]
fn every_space_answers_the_common_questions() {
    for_random_spaces(200, |space, _| {
        for manner in ["both", "below", "above"] {
            space.is_bounded(manner).unwrap();
        }
        if space.is_bounded_in(Bound::Both) {
            assert!(space.is_bounded_in(Bound::Below) && space.is_bounded_in(Bound::Above), "{space}");
        }
        let short = space.get_repr(&ReprOptions { abbreviate: true, include_dtype: false });
        assert!(short.len() <= space.to_string().len());
        assert!(short.starts_with(space.type_name()));
        assert_eq!(space_from_json(&space.to_json()).unwrap().type_name(), space.type_name());
    });
}

#[test]
fn generator_covers_every_kind() {
    fn walk(s: &Space, seen: &mut std::collections::BTreeSet<&'static str>) {
        seen.insert(s.type_name());
        for c in s.kind().children() {
            walk(c, seen);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut depth = 0;
    for_random_spaces(400, |space, _| {
        walk(space, &mut seen);
        depth = depth.max(space.to_string().matches('(').count());
    });
    assert_eq!(seen.len(), 19, "{seen:?}");
    assert!(depth >= 4);
}
