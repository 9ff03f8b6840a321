//! [`Space`] ⇄ the protocol's `Space` in its JSON form.
//!
//! The protocol's `Space` has no name (names live on `ActionSpace` and
//! `ObservationSpace`), so reading takes the name to give the space;
//! children of lists and dicts are named `{parent}.{index}` and
//! `{parent}.{key}`, a sequence's scalar range `{parent}.scalar`.
//!
//! | space | protocol Space |
//! |---|---|
//! | Discrete (start 0) | `discrete: {n}` |
//! | NamedDiscrete | `namedDiscrete: {name: [...]}` |
//! | Commandline | `anyValue: {"@type": ".../compiler_gym.CommandlineSpace", name: [flags]}`, plus `description` and `flagName` lists when they carry information |
//! | Scalar int64 / float64 / float32 / bool | `int64Value` / `doubleValue` / `floatValue` / `booleanValue`: `{min?, max?}` |
//! | Sequence str / bytes | `stringValue` / `bytesSequence`: `{lengthRange}` |
//! | Sequence bool / int8 / int64 / float32 / float64 | `booleanSequence` / `byteSequence` / `int64Sequence` / `floatSequence` / `doubleSequence`: `{lengthRange, scalarRange?}` |
//! | Box bool / int8 / int64 / float32 / float64 | `booleanBox` / `byteBox` / `int64Box` / `floatBox` / `doubleBox`: `{low, high}` tensors |
//! | Tuple | `spaceList: {space: [...]}` |
//! | Dict (sorted keys) | `spaceDict: {space: {key: ...}}` |
//! | SpaceSequence | `spaceSequence: {lengthRange, space}` |
//! | SpaceSequence of unbounded str Sequences (no opaque format) | `stringSequence: {lengthRange}` (the protocol's StringSequenceSpace: a list of strings) |
//! | Sequence bytes with an opaque format and no length bounds | `anyValue: {"@type": ".../compiler_gym.Opaque", format}` |
//! | anything else | `anyValue: {"@type": "type.googleapis.com/compgym.Space", "value": <description>}` |

use super::event::{value_from_event, value_to_event};
use super::proto_json::*;
use crate::error::{Error, Result};
use crate::limits::Nesting;
use crate::spaces::{
    space_from_json, BoxBounds, BoxSpace, Commandline, CommandlineFlag, DictSpace, Discrete, NamedDiscrete,
    Scalar, Sequence, SequenceDType, Space, SpaceKind, SpaceSequence, TupleSpace,
};
use crate::value::{Array, ArrayData, DType, Value};
use serde_json::{json, Map, Value as Json};

pub const SPACE_TYPE_URL: &str = "type.googleapis.com/compgym.Space";
pub const COMMANDLINE_TYPE_URL: &str = "type.googleapis.com/compiler_gym.CommandlineSpace";
pub use super::event::OPAQUE_TYPE_URL;

/// An unbounded string Sequence: the elements of a StringSequenceSpace.
fn any_string(name: &str) -> Result<Sequence> {
    Sequence::new(name, (0, None), SequenceDType::Str, None, None)
}

fn any_space(space: &Space) -> Json {
    json!({ "anyValue": { "@type": SPACE_TYPE_URL, "value": space.to_json() } })
}

fn length_range(lo: usize, hi: Option<usize>) -> Json {
    let mut m = Map::new();
    m.insert("min".into(), uint_to_json(lo as u64));
    if let Some(hi) = hi {
        m.insert("max".into(), uint_to_json(hi as u64));
    }
    Json::Object(m)
}

/// The integer of a float bound, if it is one exactly.
fn exact_int(x: f64) -> Option<i64> {
    (x.fract() == 0.0 && x.abs() < 9.2e18).then_some(x as i64)
}

/// A `{min?, max?}` range message for a scalar, or None if it has no exact form.
fn range_message(s: &Scalar) -> Option<(&'static str, Json)> {
    let mut m = Map::new();
    let (field, ok) = match s.dtype() {
        DType::I64 => {
            for (key, x) in [("min", s.min()), ("max", s.max())] {
                if let Some(x) = x {
                    m.insert(key.into(), int_to_json(exact_int(x)?));
                }
            }
            ("int64Value", true)
        }
        DType::F64 | DType::F32 => {
            for (key, x) in [("min", s.min()), ("max", s.max())] {
                if let Some(x) = x {
                    m.insert(key.into(), float_to_json(x));
                }
            }
            (if s.dtype() == DType::F64 { "doubleValue" } else { "floatValue" }, true)
        }
        DType::Bool => {
            for (key, x) in [("min", s.min()), ("max", s.max())] {
                match x {
                    Some(x) if x == 0.0 || x == 1.0 => {
                        m.insert(key.into(), Json::from(x == 1.0));
                    }
                    Some(_) => return None,
                    None => {}
                }
            }
            ("booleanValue", true)
        }
        _ => ("", false),
    };
    ok.then_some((field, Json::Object(m)))
}

fn tensor_json(shape: &[usize], data: ArrayData) -> Json {
    let event = value_to_event(&Value::Array(Array::new(shape.to_vec(), data).unwrap_or_else(|_| {
        // Unreachable: a box's bounds always have its shape's length.
        Array::vector(ArrayData::F64(Vec::new()))
    })));
    // `{"doubleTensor": {...}}` -> `{...}`
    event.as_object().and_then(|m| m.values().next().cloned()).unwrap_or(Json::Null)
}

fn box_message(b: &BoxSpace) -> Option<Json> {
    let shape = b.shape();
    let (field, low, high) = match (b.bounds(), b.dtype()) {
        (BoxBounds::Float { low, high }, DType::F64) => {
            ("doubleBox", ArrayData::F64(low.clone()), ArrayData::F64(high.clone()))
        }
        (BoxBounds::Float { low, high }, DType::F32) => (
            "floatBox",
            ArrayData::F32(low.iter().map(|&x| x as f32).collect()),
            ArrayData::F32(high.iter().map(|&x| x as f32).collect()),
        ),
        (BoxBounds::Int { low, high }, DType::I64) => (
            "int64Box",
            ArrayData::I64(low.iter().map(|&x| x as i64).collect()),
            ArrayData::I64(high.iter().map(|&x| x as i64).collect()),
        ),
        (BoxBounds::Int { low, high }, DType::I8) => (
            "byteBox",
            ArrayData::I8(low.iter().map(|&x| x as i8).collect()),
            ArrayData::I8(high.iter().map(|&x| x as i8).collect()),
        ),
        (BoxBounds::Int { low, high }, DType::Bool) => (
            "booleanBox",
            ArrayData::Bool(low.iter().map(|&x| x != 0).collect()),
            ArrayData::Bool(high.iter().map(|&x| x != 0).collect()),
        ),
        _ => return None,
    };
    Some(json!({ field: { "low": tensor_json(shape, low), "high": tensor_json(shape, high) } }))
}

fn sequence_message(s: &Sequence) -> Option<Json> {
    if let Some(format) = s.opaque_data_format() {
        let opaque = s.size_range() == (0, None) && s.dtype() == SequenceDType::Bytes;
        return opaque.then(|| json!({ "anyValue": { "@type": OPAQUE_TYPE_URL, "format": format } }));
    }
    let (lo, hi) = s.size_range();
    let field = match s.dtype() {
        SequenceDType::Str => return Some(json!({ "stringValue": { "lengthRange": length_range(lo, hi) } })),
        SequenceDType::Bytes => {
            return Some(json!({ "bytesSequence": { "lengthRange": length_range(lo, hi) } }))
        }
        SequenceDType::Array(DType::Bool) => "booleanSequence",
        SequenceDType::Array(DType::I8) => "byteSequence",
        SequenceDType::Array(DType::I64) => "int64Sequence",
        SequenceDType::Array(DType::F32) => "floatSequence",
        SequenceDType::Array(DType::F64) => "doubleSequence",
        SequenceDType::Array(_) => return None,
    };
    let mut m = Map::new();
    m.insert("lengthRange".into(), length_range(lo, hi));
    if let Some(scalar) = s.scalar_range() {
        // The range message must match the element type (int8 uses Int64Range).
        let elem = match s.dtype() {
            SequenceDType::Array(DType::I8) => DType::I64,
            SequenceDType::Array(d) => d,
            _ => return None,
        };
        if scalar.dtype() != elem {
            return None;
        }
        m.insert("scalarRange".into(), range_message(scalar)?.1);
    }
    Some(json!({ field: m }))
}

fn commandline_message(c: &Commandline) -> Json {
    let mut m = Map::new();
    m.insert("@type".into(), Json::from(COMMANDLINE_TYPE_URL));
    m.insert("name".into(), Json::from(c.flags()));
    if c.items().iter().any(|i| !i.description.is_empty()) {
        m.insert("description".into(), Json::from(c.descriptions()));
    }
    if c.items().iter().any(|i| i.name != i.flag) {
        m.insert("flagName".into(), c.items().iter().map(|i| Json::from(i.name.as_str())).collect());
    }
    json!({ "anyValue": m })
}

/// The protocol Space JSON of a space.
pub fn space_to_message(space: &Space) -> Json {
    let native = match space.kind() {
        SpaceKind::Discrete(d) if d.start() == 0 => Some(json!({ "discrete": { "n": uint_to_json(d.n()) } })),
        SpaceKind::NamedDiscrete(d) => Some(json!({ "namedDiscrete": { "name": d.names() } })),
        SpaceKind::Commandline(c) => Some(commandline_message(c)),
        SpaceKind::Scalar(s) => range_message(s).map(|(field, m)| json!({ field: m })),
        SpaceKind::Sequence(s) => sequence_message(s),
        SpaceKind::Box(b) => box_message(b),
        SpaceKind::Tuple(t) => Some(
            json!({ "spaceList": { "space": t.spaces().iter().map(space_to_message).collect::<Vec<_>>() } }),
        ),
        SpaceKind::Dict(d) if d.spaces().windows(2).all(|w| w[0].0 < w[1].0) => {
            let map: Map<String, Json> =
                d.spaces().iter().map(|(k, s)| (k.clone(), space_to_message(s))).collect();
            Some(json!({ "spaceDict": { "space": map } }))
        }
        SpaceKind::SpaceSequence(s) if is_string_list(s) => {
            let (lo, hi) = s.size_range();
            Some(json!({ "stringSequence": { "lengthRange": length_range(lo, hi) } }))
        }
        SpaceKind::SpaceSequence(s) => {
            let (lo, hi) = s.size_range();
            Some(
                json!({ "spaceSequence": { "lengthRange": length_range(lo, hi), "space": space_to_message(s.space()) } }),
            )
        }
        _ => None,
    };
    native.unwrap_or_else(|| any_space(space))
}

/// Whether a SpaceSequence is what StringSequenceSpace describes: a list of
/// strings of any length.
fn is_string_list(s: &SpaceSequence) -> bool {
    match s.space().kind() {
        SpaceKind::Sequence(q) => {
            q.dtype() == SequenceDType::Str && q.size_range() == (0, None) && q.opaque_data_format().is_none()
        }
        _ => false,
    }
}

fn opt<'a>(m: &'a Map<String, Json>, key: &str) -> Option<&'a Json> {
    m.get(key).filter(|j| !j.is_null())
}

fn read_length_range(m: &Map<String, Json>, what: &str) -> Result<(usize, Option<usize>)> {
    let Some(r) = opt(m, "lengthRange") else {
        return Ok((0, None));
    };
    let r = json_to_object(r, what)?;
    let lo = opt(r, "min").map(|x| json_to_index(x, what)).transpose()?.unwrap_or(0);
    let hi = opt(r, "max").map(|x| json_to_index(x, what)).transpose()?;
    Ok((lo, hi))
}

fn read_scalar(name: &str, field: &str, r: &Json) -> Result<Scalar> {
    let r = json_to_object(r, field)?;
    let bound = |key: &str| -> Result<Option<f64>> {
        opt(r, key)
            .map(|x| match field {
                "int64Value" => json_to_int(x, field).map(|i| i as f64),
                "booleanValue" => json_to_bool(x, field).map(|b| b as u8 as f64),
                _ => json_to_float(x, field),
            })
            .transpose()
    };
    let dtype = match field {
        "int64Value" => DType::I64,
        "booleanValue" => DType::Bool,
        "floatValue" => DType::F32,
        _ => DType::F64,
    };
    Scalar::new(name, bound("min")?, bound("max")?, dtype)
}

fn read_tensor(t: Option<&Json>, field: &str, key: &str) -> Result<Array> {
    let t = t.ok_or_else(|| Error::value(format!("{field}: {key} is missing")))?;
    let event = json!({ field: t });
    match value_from_event(&event)? {
        Value::Array(a) => Ok(a),
        _ => Err(Error::type_error(format!("{field}: {key} is not a tensor"))),
    }
}

fn read_box(name: &str, field: &str, b: &Json) -> Result<Space> {
    let b = json_to_object(b, field)?;
    let tensor_kind = match field {
        "doubleBox" => "doubleTensor",
        "floatBox" => "floatTensor",
        "int64Box" => "int64Tensor",
        "byteBox" => "byteTensor",
        _ => "booleanTensor",
    };
    let low = read_tensor(opt(b, "low"), tensor_kind, "low")?;
    let high = read_tensor(opt(b, "high"), tensor_kind, "high")?;
    if low.shape() != high.shape() {
        return Err(Error::value(format!("{field}: low and high have different shapes")));
    }
    let shape = low.shape().to_vec();
    let dtype = low.dtype();
    let space = if dtype.is_float() {
        BoxSpace::new(name, low.data().to_f64_vec(), high.data().to_f64_vec(), shape, dtype)?
    } else {
        let ints = |a: &Array| (0..a.len()).map(|i| a.data().get_i128(i).unwrap_or(0)).collect();
        BoxSpace::new_int(name, ints(&low), ints(&high), shape, dtype)?
    };
    Ok(space.into())
}

fn read_sequence(name: &str, field: &str, s: &Json) -> Result<Space> {
    let s = json_to_object(s, field)?;
    let size_range = read_length_range(s, field)?;
    let (dtype, range_field) = match field {
        "stringValue" => (SequenceDType::Str, None),
        "bytesSequence" => (SequenceDType::Bytes, None),
        "booleanSequence" => (SequenceDType::Array(DType::Bool), Some("booleanValue")),
        "byteSequence" => (SequenceDType::Array(DType::I8), Some("int64Value")),
        "int64Sequence" => (SequenceDType::Array(DType::I64), Some("int64Value")),
        "floatSequence" => (SequenceDType::Array(DType::F32), Some("floatValue")),
        _ => (SequenceDType::Array(DType::F64), Some("doubleValue")),
    };
    let scalar = match (range_field, opt(s, "scalarRange")) {
        (Some(rf), Some(r)) => Some(read_scalar(&format!("{name}.scalar"), rf, r)?),
        _ => None,
    };
    Ok(Sequence::new(name, size_range, dtype, None, scalar)?.into())
}

fn read_strings(m: &Map<String, Json>, key: &str) -> Result<Option<Vec<String>>> {
    opt(m, key)
        .map(|l| json_to_list(l, key)?.iter().map(|s| json_to_str(s, key).map(String::from)).collect())
        .transpose()
}

fn read_any(name: &str, any: &Json) -> Result<Space> {
    let any = json_to_object(any, "anyValue")?;
    let url = opt(any, "@type").map(|t| json_to_str(t, "@type")).transpose()?.unwrap_or("");
    match url {
        SPACE_TYPE_URL => {
            let mut space = space_from_json(any.get("value").unwrap_or(&Json::Null))?;
            if space.name() != name {
                // The holder's name wins, as for every other space.
                let mut description = space.to_json();
                description["name"] = Json::from(name);
                space = space_from_json(&description)?;
            }
            Ok(space)
        }
        COMMANDLINE_TYPE_URL => {
            let flags = read_strings(any, "name")?.unwrap_or_default();
            let descriptions = read_strings(any, "description")?;
            let names = read_strings(any, "flagName")?;
            for (what, list) in [("description", &descriptions), ("flagName", &names)] {
                if list.as_ref().is_some_and(|l| l.len() != flags.len()) {
                    return Err(Error::value(format!("CommandlineSpace: {what} and name differ in length")));
                }
            }
            let items = flags
                .iter()
                .enumerate()
                .map(|(i, flag)| {
                    let n = names.as_ref().map_or(flag.as_str(), |n| n[i].as_str());
                    let d = descriptions.as_ref().map_or("", |d| d[i].as_str());
                    CommandlineFlag::new(n, flag, d)
                })
                .collect();
            Ok(Commandline::new(name, items)?.into())
        }
        OPAQUE_TYPE_URL => {
            let format = opt(any, "format").map(|f| json_to_str(f, "Opaque.format")).transpose()?;
            Ok(Sequence::new(name, (0, None), SequenceDType::Bytes, Some(format.unwrap_or("").into()), None)?
                .into())
        }
        other => Err(Error::type_error(format!("anyValue: unsupported @type {other:?}"))),
    }
}

/// Decodes a protocol Space JSON into a space called `name`.
pub fn space_from_message(name: &str, j: &Json) -> Result<Space> {
    let m = json_to_object(j, "Space")?;
    let mut fields = m.iter().filter(|(k, _)| k.as_str() != "typeId");
    let (key, x) = fields.next().ok_or_else(|| Error::value("Space: no space is set"))?;
    if let Some((other, _)) = fields.next() {
        return Err(Error::value(format!("Space: more than one space is set ({key:?} and {other:?})")));
    }
    let field = key.as_str();
    let space: Space = match field {
        "discrete" => {
            let n =
                opt(json_to_object(x, field)?, "n").map(|n| json_to_uint(n, field)).transpose()?.unwrap_or(0);
            Discrete::new(name, n, 0)?.into()
        }
        "namedDiscrete" => {
            NamedDiscrete::new(name, read_strings(json_to_object(x, field)?, "name")?.unwrap_or_default())?
                .into()
        }
        "int64Value" | "doubleValue" | "floatValue" | "booleanValue" => read_scalar(name, field, x)?.into(),
        "stringValue" | "bytesSequence" | "booleanSequence" | "byteSequence" | "int64Sequence"
        | "floatSequence" | "doubleSequence" => read_sequence(name, field, x)?,
        "doubleBox" | "floatBox" | "int64Box" | "byteBox" | "booleanBox" => read_box(name, field, x)?,
        "spaceList" => {
            let _level = Nesting::Space.enter()?;
            let items =
                opt(json_to_object(x, field)?, "space").map(|l| json_to_list(l, field)).transpose()?;
            let spaces = items
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .map(|(i, s)| space_from_message(&format!("{name}.{i}"), s))
                .collect::<Result<_>>()?;
            TupleSpace::new(name, spaces)?.into()
        }
        "spaceDict" => {
            let _level = Nesting::Space.enter()?;
            let empty = Map::new();
            let items =
                opt(json_to_object(x, field)?, "space").map(|d| json_to_object(d, field)).transpose()?;
            let spaces = items
                .unwrap_or(&empty)
                .iter()
                .map(|(k, s)| Ok((k.clone(), space_from_message(&format!("{name}.{k}"), s)?)))
                .collect::<Result<_>>()?;
            DictSpace::new(name, spaces, true)?.into()
        }
        "spaceSequence" => {
            let _level = Nesting::Space.enter()?;
            let s = json_to_object(x, field)?;
            let inner = opt(s, "space").ok_or_else(|| Error::value("spaceSequence: space is missing"))?;
            let inner = space_from_message(&format!("{name}.space"), inner)?;
            SpaceSequence::new(name, inner, read_length_range(s, field)?)?.into()
        }
        "stringSequence" => {
            let s = json_to_object(x, field)?;
            let strings = any_string(&format!("{name}.space"))?;
            SpaceSequence::new(name, strings.into(), read_length_range(s, field)?)?.into()
        }
        "anyValue" => read_any(name, x)?,
        other => return Err(Error::type_error(format!("Space: unknown or unsupported field {other:?}"))),
    };
    Ok(space)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{MultiDiscrete, Permutation};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn round_trip(space: Space) {
        let j = space_to_message(&space);
        let text = serde_json::to_string(&j).unwrap();
        let back = space_from_message(space.name(), &serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, space, "{text}");
    }

    fn scalar(name: &str, min: Option<f64>, max: Option<f64>, dtype: DType) -> Scalar {
        Scalar::new(name, min, max, dtype).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn every_native_kind_round_trips() {
        round_trip(Discrete::new("d", 7, 0).unwrap().into());
        round_trip(Discrete::new("d", 7, -2).unwrap().into()); // no native form: anyValue
        round_trip(NamedDiscrete::new("n", vec!["a".into(), "b".into()]).unwrap().into());
        round_trip(Commandline::new("c", vec![CommandlineFlag::new("-a", "-a", "")]).unwrap().into());
        round_trip(
            Commandline::new(
                "c",
                vec![CommandlineFlag::new("dce", "-dce", "dead code"), CommandlineFlag::new("x", "-x", "")],
            )
            .unwrap()
            .into(),
        );
        round_trip(scalar("s", Some(0.0), None, DType::I64).into());
        round_trip(scalar("s", None, Some(1.5), DType::F64).into());
        round_trip(scalar("s", Some(-1.0), Some(1.0), DType::F32).into());
        round_trip(scalar("s", Some(0.0), Some(1.0), DType::Bool).into());
        round_trip(scalar("s", Some(0.0), Some(9.0), DType::I32).into());
        round_trip(Sequence::new("ir", (0, None), SequenceDType::Str, None, None).unwrap().into());
        round_trip(Sequence::new("b", (1, Some(4)), SequenceDType::Bytes, None, None).unwrap().into());
        round_trip(
            Sequence::new(
                "v",
                (0, Some(9)),
                SequenceDType::Array(DType::I64),
                None,
                Some(scalar("v.scalar", Some(0.0), None, DType::I64)),
            )
            .unwrap()
            .into(),
        );
        round_trip(
            Sequence::new(
                "v",
                (0, None),
                SequenceDType::Array(DType::I8),
                None,
                Some(scalar("v.scalar", Some(-3.0), Some(3.0), DType::I64)),
            )
            .unwrap()
            .into(),
        );
        round_trip(
            Sequence::new("f", (2, Some(2)), SequenceDType::Array(DType::F32), None, None).unwrap().into(),
        );
        round_trip(
            Sequence::new("g", (0, None), SequenceDType::Str, Some("json://".into()), None).unwrap().into(),
        );
        round_trip(
            BoxSpace::new("x", vec![0.0, -1.0], vec![f64::INFINITY, 1.0], vec![2], DType::F64)
                .unwrap()
                .into(),
        );
        round_trip(BoxSpace::uniform("x", -1.0, 1.0, Some(vec![2, 3]), DType::F32).unwrap().into());
        round_trip(
            BoxSpace::new_int("x", vec![0], vec![i64::MAX as i128], vec![3], DType::I64).unwrap().into(),
        );
        round_trip(BoxSpace::new_int("x", vec![-128], vec![127], vec![2], DType::I8).unwrap().into());
        round_trip(BoxSpace::new_int("x", vec![0], vec![1], vec![2], DType::Bool).unwrap().into());
        round_trip(BoxSpace::new_int("x", vec![0], vec![9], vec![2], DType::U8).unwrap().into());
        let tuple: Space = TupleSpace::new(
            "t",
            vec![Discrete::new("t.0", 2, 0).unwrap().into(), scalar("t.1", None, None, DType::F64).into()],
        )
        .unwrap()
        .into();
        round_trip(tuple.clone());
        let dict = DictSpace::new(
            "d",
            vec![("a".into(), Discrete::new("d.a", 2, 0).unwrap().into()), ("z".into(), tuple.clone())],
            true,
        );
        // A child named differently from its path does not survive; rename it.
        assert!(dict.is_ok());
        round_trip(
            DictSpace::new("d", vec![("a".into(), Discrete::new("d.a", 2, 0).unwrap().into())], true)
                .unwrap()
                .into(),
        );
        round_trip(
            DictSpace::new(
                "d",
                vec![
                    ("z".into(), Discrete::new("d.z", 2, 0).unwrap().into()),
                    ("a".into(), Discrete::new("d.a", 2, 0).unwrap().into()),
                ],
                false,
            )
            .unwrap()
            .into(),
        );
        round_trip(
            SpaceSequence::new("q", Discrete::new("q.space", 3, 0).unwrap().into(), (1, Some(5)))
                .unwrap()
                .into(),
        );
        round_trip(Permutation::new("p", scalar("p.r", Some(0.0), Some(3.0), DType::I64)).unwrap().into());
        round_trip(MultiDiscrete::new("m", vec![2, 3], vec![], vec![2], DType::I64).unwrap().into());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn string_sequences_and_opaque_data() {
        // StringSequenceSpace: a list of 1 to 3 strings.
        let j = json!({"stringSequence": {"lengthRange": {"min": 1, "max": "3"}}});
        let s = space_from_message("flags", &j).unwrap();
        assert_eq!(space_to_message(&s), json!({"stringSequence": {"lengthRange": {"min": 1, "max": 3}}}));
        let strings = |n: usize| Value::List((0..n).map(|i| Value::Str(format!("-o{i}"))).collect());
        assert!(s.contains(&strings(3)) && !s.contains(&strings(0)) && !s.contains(&strings(4)));
        // The Event a CompilerGym service sends for it: a string tensor.
        let event = json!({"stringTensor": {"shape": [2], "value": ["-o0", "-o1"]}});
        assert!(s.contains(&value_from_event(&event).unwrap()));
        round_trip(s);
        round_trip(SpaceSequence::new("q", any_string("q.space").unwrap().into(), (0, None)).unwrap().into());
        // Opaque: bytes in an agreed format.
        let j = json!({"anyValue": {"@type": OPAQUE_TYPE_URL, "format": "json://networkx/MultiDiGraph"}});
        let s = space_from_message("g", &j).unwrap();
        let SpaceKind::Sequence(q) = s.kind() else { panic!("a Sequence") };
        assert_eq!(q.opaque_data_format(), Some("json://networkx/MultiDiGraph"));
        assert!(s.contains(&Value::Bytes(b"{}".to_vec())));
        assert_eq!(space_to_message(&s), j);
        round_trip(s);
        // Other opaque sequences keep every detail through compgym's own form.
        round_trip(
            Sequence::new("t", (0, Some(4)), SequenceDType::Bytes, Some("x".into()), None).unwrap().into(),
        );
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn protocol_shaped_objects_are_read() {
        let s = space_from_message("a", &json!({"namedDiscrete": {"name": ["x", "y"]}})).unwrap();
        assert_eq!(s, NamedDiscrete::new("a", vec!["x".into(), "y".into()]).unwrap().into());
        let s = space_from_message("c", &json!({"int64Box": {"low": {"shape": [2], "value": [0, 0]}, "high": {"shape": [2], "value": ["5", 7]}}})).unwrap();
        assert!(s.contains(&Value::Array(Array::vector(ArrayData::I64(vec![5, 7])))));
        let s = space_from_message("c", &json!({"int64Value": {}})).unwrap();
        assert!(s.contains(&Value::Int(i64::MIN)));
        assert_eq!(
            space_to_message(&Discrete::new("d", 3, 0).unwrap().into()),
            json!({"discrete": {"n": 3}})
        );
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn malformed_spaces_are_errors() {
        assert_eq!(space_from_message("x", &json!({})).unwrap_err().name(), "ValueError");
        assert_eq!(
            space_from_message("x", &json!({"discrete": {"n": 1}, "namedDiscrete": {}})).unwrap_err().name(),
            "ValueError"
        );
        assert_eq!(space_from_message("x", &json!({"blob": {}})).unwrap_err().name(), "TypeError");
        assert!(space_from_message("x", &json!({"namedDiscrete": {"name": ["a", "a"]}})).is_err());
        assert!(space_from_message("x", &json!({"doubleBox": {"low": {"value": [0.0]}}})).is_err());
        assert!(space_from_message("x", &json!({"anyValue": {"@type": "nope"}})).is_err());
        assert!(space_from_message("x", &json!({"int64Value": {"min": 3, "max": 1}})).is_err());
    }
}
