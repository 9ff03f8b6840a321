//! Conversion to and from Gymnasium-style JSON space descriptions (UniEnv's
//! `from_gym_space`/`to_gym_space`), e.g.
//! `{"type": "Box", "low": 0, "high": 1, "shape": [3], "dtype": "float32"}`,
//! `{"type": "Discrete", "n": 4, "start": 0}`, `{"type": "MultiDiscrete", "nvec": [[2, 3]]}`,
//! `{"type": "MultiBinary", "n": [2, 2]}`, `{"type": "Text", "max_length": 8, "min_length": 1, "charset": "ab"}`,
//! `{"type": "Dict", "spaces": {"a": ...}}`, `{"type": "Tuple", "spaces": [...]}`,
//! `{"type": "Sequence", "feature_space": ...}`, `{"type": "Graph", "node_space": ..., "edge_space": ...}`,
//! `{"type": "OneOf", "spaces": [...]}`.
//!
//! Gymnasium spaces have no names: a description may carry `"name"`,
//! otherwise a space is named after its key in a Dict, or else its type.
//! Going to Gymnasium is lossy where Gymnasium has no equivalent
//! (NamedDiscrete and Commandline become Discrete, Binary becomes
//! MultiBinary, Scalar and Reward become a 0-d Box); kinds with no
//! counterpart at all are a TypeError.

use super::dict::parse_entries;
use super::graph::Features;
use super::json_util::{self as ju, JsonMap};
use super::{
    BoxSpace, DictSpace, Discrete, GraphSpace, Kind, MultiBinary, MultiDiscrete, Space, SpaceKind,
    SpaceSequence, TextSpace, TupleSpace, UnionSpace,
};
use crate::error::{Error, Result};
use crate::limits::Nesting;
use crate::value::DType;
use serde_json::{json, Value as Json};

/// A space from a Gymnasium-style description.
pub fn from_gym_space(description: &Json) -> Result<Space> {
    from_gym_named(description, None)
}

fn from_gym_named(j: &Json, default_name: Option<&str>) -> Result<Space> {
    let m = ju::as_object(j, "gym space")?;
    let ty = ju::get_str(m, "type")?;
    let name = match ju::opt_string(m, "name")? {
        Some(n) => n,
        None => default_name.unwrap_or(ty).to_string(),
    };
    let name = name.as_str();
    let composite = matches!(ty, "Dict" | "Tuple" | "OneOf" | "Sequence");
    let _level = composite.then(|| Nesting::Space.enter()).transpose()?;
    let space: Space = match ty {
        "Box" => BoxSpace::parse_fields(name, m)?.into(),
        "Discrete" => Discrete::from_description(name, m)?.into(),
        "MultiDiscrete" => MultiDiscrete::from_description(name, m)?.into(),
        "MultiBinary" => {
            let n = ju::opt_field(m, "n")
                .or_else(|| ju::opt_field(m, "shape"))
                .ok_or_else(|| Error::value("missing field \"n\""))?;
            MultiBinary::new(name, ju::shape_from_json(n, "n")?)?.into()
        }
        // Gymnasium's Text has at least one character unless told otherwise.
        "Text" => TextSpace::from_description_or(name, m, 1)?.into(),
        "Dict" => {
            let (children, sort) = parse_entries(ju::field(m, "spaces")?, |k, j| from_gym_named(j, Some(k)))?;
            DictSpace::new(name, children, sort)?.into()
        }
        "Tuple" => TupleSpace::new(name, gym_list(m)?)?.into(),
        "OneOf" => UnionSpace::new(name, gym_list(m)?)?.into(),
        "Sequence" => {
            let inner = ju::opt_field(m, "feature_space")
                .or_else(|| ju::opt_field(m, "space"))
                .ok_or_else(|| Error::value("missing field \"feature_space\""))?;
            SpaceSequence::new(
                name,
                from_gym_named(inner, None).map_err(|e| e.context("feature_space"))?,
                (0, None),
            )?
            .into()
        }
        "Graph" => {
            let features = |j: &Json, what: &str| {
                Features::from_space(from_gym_named(j, Some(what)).map_err(|e| e.context(what))?, what)
            };
            let node = features(ju::field(m, "node_space")?, "node_space")?;
            let edge = ju::opt_field(m, "edge_space").map(|j| features(j, "edge_space")).transpose()?;
            GraphSpace::from_features(name, node, edge, (1, None), (0, None), Vec::new())?.into()
        }
        other => return Err(Error::type_error(format!("unknown Gymnasium space type {other:?}"))),
    };
    Ok(space)
}

fn gym_list(m: &JsonMap) -> Result<Vec<Space>> {
    ju::get_array(m, "spaces")?
        .iter()
        .enumerate()
        .map(|(i, j)| from_gym_named(j, None).map_err(|e| e.context(format!("spaces[{i}]"))))
        .collect()
}

/// Nests a flat JSON list into `shape` (row-major), the form numpy prints;
/// a single number (shared by every element) stays as it is.
fn nest_json(j: &Json, shape: &[usize]) -> Json {
    match j {
        Json::Array(flat) => nest(flat, shape),
        other => other.clone(),
    }
}

fn nest(flat: &[Json], shape: &[usize]) -> Json {
    match shape.split_first() {
        None => flat.first().cloned().unwrap_or(Json::Null),
        Some((&n, rest)) => {
            let step: usize = rest.iter().product();
            Json::Array((0..n).map(|i| nest(&flat[i * step..(i + 1) * step], rest)).collect())
        }
    }
}

fn described<K: Kind>(k: &K) -> JsonMap {
    let mut m = JsonMap::new();
    k.describe(&mut m);
    m
}

fn no_equivalent(space: &Space) -> Error {
    Error::type_error(format!("a {} space has no Gymnasium equivalent", space.type_name()))
}

/// The Gymnasium-style description of `space`.
pub fn to_gym_space(space: &Space) -> Result<Json> {
    Ok(match space.kind() {
        SpaceKind::Box(b) => gym_box_json(b),
        SpaceKind::Discrete(d) => json!({"type": "Discrete", "n": d.n(), "start": d.start()}),
        SpaceKind::NamedDiscrete(d) => json!({"type": "Discrete", "n": d.n(), "start": 0}),
        SpaceKind::Commandline(c) => json!({"type": "Discrete", "n": c.n(), "start": 0}),
        SpaceKind::MultiDiscrete(md) => {
            let m = described(md);
            let shape = md.shape();
            json!({
                "type": "MultiDiscrete",
                "nvec": nest_json(&m["nvec"], shape),
                "start": nest_json(&m["start"], shape),
                "dtype": md.dtype().name(),
            })
        }
        SpaceKind::MultiBinary(mb) => json!({"type": "MultiBinary", "n": mb.shape()}),
        SpaceKind::Binary(b) => json!({"type": "MultiBinary", "n": b.shape()}),
        SpaceKind::Scalar(s) => {
            let (lo, hi) = s.range();
            let b = BoxSpace::new(s.name(), vec![lo], vec![hi], vec![], s.dtype())?;
            gym_box_json(&b)
        }
        SpaceKind::Reward(r) => {
            let (lo, hi) = r.range();
            gym_box_json(&BoxSpace::new(r.name(), vec![lo], vec![hi], vec![], DType::F64)?)
        }
        SpaceKind::Text(t) => {
            let mut m = described(t);
            m.insert("type".into(), Json::from("Text"));
            Json::Object(m)
        }
        SpaceKind::Dict(d) => {
            let mut o = JsonMap::new();
            for (k, s) in d.spaces() {
                o.insert(k.clone(), to_gym_space(s)?);
            }
            json!({"type": "Dict", "spaces": o})
        }
        SpaceKind::Tuple(t) => {
            json!({"type": "Tuple", "spaces": t.spaces().iter().map(to_gym_space).collect::<Result<Vec<_>>>()?})
        }
        SpaceKind::Union(u) => {
            json!({"type": "OneOf", "spaces": u.spaces().iter().map(to_gym_space).collect::<Result<Vec<_>>>()?})
        }
        SpaceKind::SpaceSequence(s) => {
            json!({"type": "Sequence", "feature_space": to_gym_space(s.space())?, "stack": false})
        }
        SpaceKind::Graph(g) if g.batch_shape().is_empty() => json!({
            "type": "Graph",
            "node_space": gym_features_json(g.node_space(), g.node_discrete())?,
            "edge_space": g.edge_space().map_or(Ok(Json::Null), |e| gym_features_json(e, g.edge_discrete()))?,
        }),
        _ => return Err(no_equivalent(space)),
    })
}

/// A graph's node or edge space in Gymnasium's form: the Discrete it was given as, or its Box.
fn gym_features_json(b: &BoxSpace, d: Option<&Discrete>) -> Result<Json> {
    match d {
        Some(d) => to_gym_space(&Space::from(d.clone())),
        None => Ok(gym_box_json(b)),
    }
}

fn gym_box_json(b: &BoxSpace) -> Json {
    let m = described(b);
    json!({
        "type": "Box",
        "low": nest_json(&m["low"], b.shape()),
        "high": nest_json(&m["high"], b.shape()),
        "shape": b.shape(),
        "dtype": b.dtype().name(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gymnasium_descriptions_round_trip() {
        for j in [
            json!({"type": "Box", "low": [[0.0, 0.5]], "high": [[1.0, "inf"]], "shape": [1, 2], "dtype": "float32"}),
            json!({"type": "Box", "low": -1, "high": 1, "shape": [2, 2], "dtype": "int8"}),
            json!({"type": "Discrete", "n": 4, "start": -1}),
            json!({"type": "MultiDiscrete", "nvec": [[2, 3]], "start": [[0, 1]], "dtype": "int64"}),
            json!({"type": "MultiBinary", "n": [2, 2]}),
            json!({"type": "Text", "min_length": 1, "max_length": 8, "charset": "ab"}),
            json!({"type": "Dict", "spaces": {"b": {"type": "Discrete", "n": 2, "start": 0}, "a": {"type": "Text", "min_length": 0, "max_length": 1, "charset": "x"}}}),
            json!({"type": "Tuple", "spaces": [{"type": "Discrete", "n": 2, "start": 0}]}),
            json!({"type": "Sequence", "feature_space": {"type": "Discrete", "n": 2, "start": 0}, "stack": false}),
            json!({"type": "OneOf", "spaces": [{"type": "Discrete", "n": 2, "start": 0}]}),
        ] {
            let s = from_gym_space(&j).unwrap();
            assert_eq!(to_gym_space(&s).unwrap(), j, "{s}");
        }
    }

    #[test]
    fn defaults_and_names() {
        let s = from_gym_space(&json!({"type": "Box", "low": -1, "high": 1})).unwrap();
        assert_eq!(s.to_string(), "Box(Box, low=-1.0, high=1.0, shape=(1,), dtype=float32)");
        let d = from_gym_space(&json!({"type": "Dict", "spaces": {"pos": {"type": "Discrete", "n": 2}}}))
            .unwrap();
        assert_eq!(d.kind().children()[0].name(), "pos");
        let t = from_gym_space(&json!({"type": "Text", "max_length": 3})).unwrap();
        assert_eq!(t.to_string(), "Text(Text, min_length=1, max_length=3)");
        let g = from_gym_space(&json!({"type": "Graph", "node_space": {"type": "Box", "low": 0, "high": 1, "shape": [3]}, "edge_space": null})).unwrap();
        assert_eq!(to_gym_space(&g).unwrap()["edge_space"], Json::Null);
        let e = from_gym_space(&json!({"type": "Box", "low": 1, "high": 0})).unwrap_err();
        assert!(e.message().contains("low[0]"));
        assert_eq!(from_gym_space(&json!({"type": "Nope"})).unwrap_err().name(), "TypeError");
    }

    #[test]
    fn lossy_and_missing_equivalents() {
        let c: Space = crate::spaces::NamedDiscrete::new("n", vec!["a".into(), "b".into()]).unwrap().into();
        assert_eq!(to_gym_space(&c).unwrap(), json!({"type": "Discrete", "n": 2, "start": 0}));
        let s: Space = crate::spaces::Scalar::new("s", Some(0.0), None, DType::F64).unwrap().into();
        assert_eq!(
            to_gym_space(&s).unwrap(),
            json!({"type": "Box", "low": 0.0, "high": "inf", "shape": [], "dtype": "float64"})
        );
        let p: Space = crate::spaces::Permutation::new(
            "p",
            crate::spaces::Scalar::new("r", Some(0.0), Some(2.0), DType::I64).unwrap(),
        )
        .unwrap()
        .into();
        assert_eq!(to_gym_space(&p).unwrap_err().name(), "TypeError");
    }
}
