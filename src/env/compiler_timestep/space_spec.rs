//! From spaces to array specs, and from space values to spec values.
//!
//! A spec describes fixed-shape arrays, so only spaces whose values are such
//! arrays (or dicts and tuples of them) have one: Box, Discrete,
//! NamedDiscrete, Commandline, Scalar, MultiDiscrete, MultiBinary, Binary,
//! Dict and Tuple. Every other space (text, sequences, graphs, dynamic boxes,
//! unions...) is a TypeError naming it. Discrete-like spaces become int64
//! scalars; scalar values (`Value::Int`, `Float`, `Bool`) become 0-d arrays
//! of the spec's dtype, so time steps always hold arrays.

use crate::env::specs::{ArraySpec, Bound, BoundedArraySpec, Spec};
use crate::error::{Error, Result};
use crate::spaces::array_ops::{from_f64s, from_i128s};
use crate::spaces::{BoxBounds, Space, SpaceKind};
use crate::value::{Array, ArrayData, DType, Value};
use crate::{bail, ensure};

/// The spec of `space`'s values; a TypeError for a space with no array form.
pub fn space_to_spec(space: &Space) -> Result<Spec> {
    let name = space.kind().name().to_string();
    let int_range = |lo: i128, hi: i128| -> Result<Spec> {
        Ok(BoundedArraySpec::new(vec![], DType::I64, Bound::Int(vec![lo]), Bound::Int(vec![hi]))?
            .with_name(&name)
            .into())
    };
    match space.kind() {
        SpaceKind::Box(b) => match b.bounds() {
            BoxBounds::Float { low, high }
                if low.iter().all(|x| x.is_infinite()) && high.iter().all(|x| x.is_infinite()) =>
            {
                Ok(ArraySpec::new(b.shape().to_vec(), b.dtype()).with_name(&name).into())
            }
            BoxBounds::Float { low, high } => Ok(BoundedArraySpec::new(
                b.shape().to_vec(),
                b.dtype(),
                Bound::Float(low.clone()),
                Bound::Float(high.clone()),
            )?
            .with_name(&name)
            .into()),
            BoxBounds::Int { low, high } => Ok(BoundedArraySpec::new(
                b.shape().to_vec(),
                b.dtype(),
                Bound::Int(low.clone()),
                Bound::Int(high.clone()),
            )?
            .with_name(&name)
            .into()),
        },
        SpaceKind::Discrete(d) => {
            ensure!(d.n() > 0, Type, "space {name:?} is empty and has no array form");
            int_range(d.start() as i128, d.start() as i128 + d.n() as i128 - 1)
        }
        SpaceKind::NamedDiscrete(d) => int_range(0, d.n() as i128 - 1),
        SpaceKind::Commandline(c) => int_range(0, c.n() as i128 - 1),
        SpaceKind::Scalar(s) => {
            let dtype = s.dtype();
            let bound = |x: Option<f64>| match x {
                Some(x) if x.is_finite() && dtype.is_float() => Bound::Float(vec![x]),
                Some(x) if x.is_finite() => Bound::Int(vec![x as i128]),
                _ => Bound::DTypeLimit,
            };
            let (min, max) = (bound(s.min()), bound(s.max()));
            if min == Bound::DTypeLimit && max == Bound::DTypeLimit {
                return Ok(ArraySpec::new(vec![], dtype).with_name(&name).into());
            }
            Ok(BoundedArraySpec::new(vec![], dtype, min, max)?.with_name(&name).into())
        }
        SpaceKind::MultiDiscrete(m) => {
            let high: Vec<i128> = m.start().iter().zip(m.nvec()).map(|(s, n)| s + n - 1).collect();
            Ok(BoundedArraySpec::new(
                m.shape().to_vec(),
                m.dtype(),
                Bound::Int(m.start().to_vec()),
                Bound::Int(high),
            )?
            .with_name(&name)
            .into())
        }
        SpaceKind::MultiBinary(m) => {
            Ok(BoundedArraySpec::new(m.shape().to_vec(), DType::I8, 0i64, 1i64)?.with_name(&name).into())
        }
        SpaceKind::Binary(b) => Ok(ArraySpec::new(b.shape().to_vec(), DType::Bool).with_name(&name).into()),
        SpaceKind::Dict(d) => Spec::dict(
            d.spaces()
                .iter()
                .map(|(key, child)| Ok((key.clone(), space_to_spec(child)?)))
                .collect::<Result<Vec<_>>>()?,
        ),
        SpaceKind::Tuple(t) => Ok(Spec::List(t.spaces().iter().map(space_to_spec).collect::<Result<_>>()?)),
        other => bail!(
            Type,
            "space {name:?} of type {} has no array form: specs describe fixed-shape arrays",
            other.type_name()
        ),
    }
}

/// `value` (a value of the space `spec` came from) in the spec's form:
/// scalars become 0-d arrays of the leaf's dtype, arrays are kept.
pub fn to_spec_form(value: Value, spec: &Spec) -> Result<Value> {
    match (spec, value) {
        (Spec::Array(_) | Spec::Bounded(_), Value::Array(a)) => Ok(Value::Array(a)),
        (Spec::Array(_) | Spec::Bounded(_), scalar) => {
            let dtype = spec.array_spec().map_or(DType::F64, ArraySpec::dtype);
            let data = match scalar {
                Value::Int(i) if !dtype.is_float() && dtype != DType::Bool => {
                    from_i128s(dtype, std::iter::once(i as i128))
                }
                Value::Int(i) if dtype.is_float() => from_f64s(dtype, std::iter::once(i as f64)),
                Value::Float(x) if dtype.is_float() => from_f64s(dtype, std::iter::once(x)),
                Value::Bool(b) if dtype == DType::Bool => ArrayData::Bool(vec![b]),
                other => bail!(Type, "expected a {dtype} value, got a {}", other.kind_name()),
            };
            Ok(Value::Array(Array::new(vec![], data)?))
        }
        (Spec::Dict(entries), Value::Dict(mut items)) => {
            let mut out = Vec::with_capacity(entries.len());
            for (key, child) in entries {
                let i = items
                    .iter()
                    .position(|(k, _)| k == key)
                    .ok_or_else(|| Error::value(format!("missing key {key:?}")))?;
                let (_, v) = items.swap_remove(i);
                out.push((key.clone(), to_spec_form(v, child).map_err(|e| e.context(key))?));
            }
            Ok(Value::Dict(out))
        }
        (Spec::List(children), Value::List(items)) if children.len() == items.len() => Ok(Value::List(
            children.iter().zip(items).map(|(s, v)| to_spec_form(v, s)).collect::<Result<_>>()?,
        )),
        (_, other) => bail!(Type, "a {} value does not fit the spec", other.kind_name()),
    }
}

/// Zeros shaped like `spec`: the observation of a step that failed.
pub fn zeros_of(spec: &Spec) -> Result<Value> {
    Ok(match spec {
        Spec::Array(_) | Spec::Bounded(_) => {
            let leaf = spec.array_spec().ok_or_else(|| Error::value("spec leaf"))?;
            Value::Array(Array::zeros(leaf.dtype(), leaf.shape().to_vec())?)
        }
        Spec::Dict(entries) => {
            Value::Dict(entries.iter().map(|(k, s)| Ok((k.clone(), zeros_of(s)?))).collect::<Result<_>>()?)
        }
        Spec::List(items) => Value::List(items.iter().map(zeros_of).collect::<Result<_>>()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::specs::check_value;
    use crate::spaces::{BoxSpace, Commandline, CommandlineFlag, DictSpace, Scalar, TextSpace};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn array_spaces_map_to_specs_their_values_fit() {
        let flags = vec![CommandlineFlag::new("a", "-a", ""), CommandlineFlag::new("b", "-b", "")];
        let spaces: Vec<(Space, Value)> = vec![
            (Commandline::new("flags", flags).unwrap().into(), Value::Int(1)),
            (Scalar::new("count", Some(0.0), None, DType::I64).unwrap().into(), Value::Int(7)),
            (Scalar::new("x", None, None, DType::F64).unwrap().into(), Value::Float(0.5)),
            (
                BoxSpace::new_int("v", vec![0], vec![9], vec![3], DType::I64).unwrap().into(),
                Value::Array(Array::vector(ArrayData::I64(vec![1, 2, 9]))),
            ),
        ];
        for (space, value) in spaces {
            let spec = space_to_spec(&space).unwrap();
            let v = to_spec_form(value, &spec).unwrap();
            check_value(&spec, &v).unwrap();
            check_value(&spec, &zeros_of(&spec).unwrap()).unwrap();
        }
        let Spec::Bounded(c) = space_to_spec(&space_of_flags()).unwrap() else { panic!("bounded") };
        assert_eq!((c.dtype(), c.maximum_array().unwrap().data().get_f64(0)), (DType::I64, 2.0));
        let unbounded = space_to_spec(&Scalar::new("x", None, None, DType::F64).unwrap().into()).unwrap();
        assert!(matches!(unbounded, Spec::Array(_)));
    }

    fn space_of_flags() -> Space {
        let flags = ["a", "b", "c"].map(|f| CommandlineFlag::new(f, &format!("-{f}"), ""));
        Commandline::new("flags", flags.to_vec()).unwrap().into()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn spaces_without_an_array_form_are_type_errors() {
        let text: Space = TextSpace::new("Ir", 0, 10, None).unwrap().into();
        let e = space_to_spec(&text).unwrap_err();
        assert_eq!(e.name(), "TypeError");
        assert!(e.message().contains("space \"Ir\" of type Text has no array form"), "{e}");
        let dict: Space = DictSpace::new("d", vec![("t".into(), text)], false).unwrap().into();
        assert_eq!(space_to_spec(&dict).unwrap_err().name(), "TypeError");
    }
}
