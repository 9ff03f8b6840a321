//! Flattening values to 1-d arrays and spaces to Boxes, with Gymnasium's
//! semantics: Box and MultiBinary flatten as they are, Discrete-like spaces
//! one-hot, MultiDiscrete to concatenated one-hots, Text to charset indices
//! padded with `len(charset)`, Tuple and Dict to the concatenation of their
//! children in a promoted dtype, Union to `[index, child..., padding]`.
//! Scalar and Reward flatten to one element. Sequence, SpaceSequence,
//! Permutation, Graph, DynamicBox and Batched have no fixed flat size:
//! a TypeError, as Gymnasium's `flatdim` refuses them.

use super::array_ops::{cast, concat, from_f64s, from_i128s, promote, slice};
use super::box_space::{BoxBounds, BoxSpace};
use super::{Space, SpaceKind};
use crate::error::{Error, Result};
use crate::limits;
use crate::value::{Array, ArrayData, DType, Value};

fn not_flattenable(space: &Space) -> Error {
    Error::type_error(format!("a {} space has no fixed flat size and cannot be flattened", space.type_name()))
}

fn children(space: &Space) -> Vec<&Space> {
    space.kind().children()
}

/// The number of elements of a flattened value. The flattened space is a Box
/// of that many elements, which keeps two i128 bounds each, so the count is
/// checked at 32 bytes an element against [`crate::limits::MAX_BYTES`].
pub fn flatdim(space: &Space) -> Result<usize> {
    let n = flatdim_unchecked(space)?;
    limits::check_bytes(limits::bytes_of(n, 32), format_args!("a flat size of {n}"))?;
    Ok(n)
}

/// A flat size past even `usize`: a LimitError like any other.
fn too_large(n: impl std::fmt::Display) -> Error {
    Error::limit(format!("a flat size of {n} is more than this platform can index"))
}

fn flatdim_unchecked(space: &Space) -> Result<usize> {
    let sum = |spaces: Vec<&Space>| -> Result<usize> {
        spaces.into_iter().try_fold(0usize, |acc, s| {
            acc.checked_add(flatdim(s)?).ok_or_else(|| too_large("the flat sizes' sum"))
        })
    };
    Ok(match space.kind() {
        SpaceKind::Box(b) => b.len(),
        SpaceKind::Discrete(d) => usize::try_from(d.n()).map_err(|_| too_large(d.n()))?,
        SpaceKind::NamedDiscrete(d) => d.n() as usize,
        SpaceKind::Commandline(c) => c.n() as usize,
        SpaceKind::MultiDiscrete(m) => {
            let total: i128 = m.nvec().iter().sum();
            usize::try_from(total).map_err(|_| too_large(total))?
        }
        SpaceKind::MultiBinary(m) => m.shape().iter().product(),
        SpaceKind::Binary(b) => b.shape().iter().product(),
        SpaceKind::Scalar(_) | SpaceKind::Reward(_) => 1,
        SpaceKind::Text(t) => t.max_length(),
        SpaceKind::Tuple(_) | SpaceKind::Dict(_) => sum(children(space))?,
        SpaceKind::Union(u) => {
            let mut max = 0;
            for s in u.spaces() {
                max = max.max(flatdim(s)?);
            }
            max + 1
        }
        _ => return Err(not_flattenable(space)),
    })
}

/// The dtype of a flattened value.
pub fn flat_dtype(space: &Space) -> Result<DType> {
    Ok(match space.kind() {
        SpaceKind::Box(b) => b.dtype(),
        SpaceKind::Discrete(_) | SpaceKind::NamedDiscrete(_) | SpaceKind::Commandline(_) => DType::I64,
        SpaceKind::MultiDiscrete(m) => m.dtype(),
        SpaceKind::MultiBinary(_) => DType::I8,
        SpaceKind::Binary(_) => DType::Bool,
        SpaceKind::Scalar(s) => s.dtype(),
        SpaceKind::Reward(_) => DType::F64,
        SpaceKind::Text(_) => DType::I32,
        SpaceKind::Tuple(_) | SpaceKind::Dict(_) => {
            let mut d: Option<DType> = None;
            for s in children(space) {
                let c = flat_dtype(s)?;
                d = Some(d.map_or(c, |d| promote(d, c)));
            }
            d.unwrap_or(DType::F64)
        }
        // The index is an int64 stored with the child's elements.
        SpaceKind::Union(u) => {
            u.spaces().iter().try_fold(DType::I64, |d, s| Ok::<_, Error>(promote(d, flat_dtype(s)?)))?
        }
        _ => return Err(not_flattenable(space)),
    })
}

fn one_hot(len: usize, index: usize) -> ArrayData {
    let mut v = vec![0i64; len];
    v[index] = 1;
    ArrayData::I64(v)
}

fn wrong_value(space: &Space, value: &Value) -> Error {
    Error::type_error(format!(
        "cannot flatten a {} value in the {} space {:?}",
        value.kind_name(),
        space.type_name(),
        space.name()
    ))
}

/// The index of `value` in a `[start, start + n)` space.
fn discrete_index(space: &Space, value: &Value, n: u64, start: i64) -> Result<usize> {
    if !space.contains(value) {
        return Err(Error::value(format!("cannot flatten {value:?}: not in the space {:?}", space.name())));
    }
    let x = match value {
        Value::Int(x) => *x as i128,
        Value::Array(a) => a.data().get_i128(0).unwrap_or(0),
        _ => unreachable!("contained"),
    };
    debug_assert!(x - (start as i128) < n as i128);
    Ok((x - start as i128) as usize)
}

/// Flattens `value` (of `space`) to a 1-d array of [`flatdim`] elements.
pub fn flatten(space: &Space, value: &Value) -> Result<Array> {
    flatdim(space)?; // refuses sizes too large to allocate before any work
    Ok(Array::vector(flatten_data(space, value)?))
}

fn flatten_data(space: &Space, value: &Value) -> Result<ArrayData> {
    let array_of = |len: usize| match value {
        Value::Array(a) if a.len() == len => Ok(a),
        Value::Array(a) => Err(Error::value(format!("expected {len} elements, got {}", a.len()))),
        _ => Err(wrong_value(space, value)),
    };
    Ok(match space.kind() {
        SpaceKind::Box(b) => cast(array_of(b.len())?.data(), b.dtype()),
        SpaceKind::Discrete(d) => one_hot(d.n() as usize, discrete_index(space, value, d.n(), d.start())?),
        SpaceKind::NamedDiscrete(d) => one_hot(d.n() as usize, discrete_index(space, value, d.n(), 0)?),
        SpaceKind::Commandline(c) => one_hot(c.n() as usize, discrete_index(space, value, c.n(), 0)?),
        SpaceKind::MultiDiscrete(m) => {
            if !space.contains(value) {
                return Err(Error::value(format!(
                    "cannot flatten {value:?}: not in the space {:?}",
                    space.name()
                )));
            }
            let a = array_of(m.nvec().len())?;
            let mut out = Vec::with_capacity(flatdim(space)?);
            for i in 0..m.nvec().len() {
                let k = (a.data().get_i128(i).unwrap_or(0) - m.start()[i]) as usize;
                let mut part = vec![0i128; m.nvec()[i] as usize];
                part[k] = 1;
                out.extend(part);
            }
            from_i128s(m.dtype(), out.into_iter())
        }
        SpaceKind::MultiBinary(m) => cast(array_of(m.shape().iter().product())?.data(), DType::I8),
        SpaceKind::Binary(b) => cast(array_of(b.shape().iter().product())?.data(), DType::Bool),
        SpaceKind::Scalar(s) => match value {
            Value::Int(x) => from_i128s(s.dtype(), std::iter::once(*x as i128)),
            Value::Bool(x) => from_i128s(s.dtype(), std::iter::once(*x as i128)),
            Value::Float(x) => from_f64s(s.dtype(), std::iter::once(*x)),
            _ => return Err(wrong_value(space, value)),
        },
        SpaceKind::Reward(_) => match value {
            Value::Float(x) => ArrayData::F64(vec![*x]),
            _ => return Err(wrong_value(space, value)),
        },
        SpaceKind::Text(t) => {
            let Value::Str(s) = value else {
                return Err(wrong_value(space, value));
            };
            let pad = t.charset().len() as i32;
            let mut out = vec![pad; t.max_length()];
            for (i, c) in s.chars().enumerate() {
                if i >= out.len() {
                    return Err(Error::value(format!("text longer than max_length {}", t.max_length())));
                }
                out[i] = t
                    .char_index(c)
                    .ok_or_else(|| Error::value(format!("character {c:?} is not in the charset")))?
                    as i32;
            }
            ArrayData::I32(out)
        }
        SpaceKind::Tuple(t) => {
            let Value::List(items) = value else {
                return Err(wrong_value(space, value));
            };
            if items.len() != t.spaces().len() {
                return Err(Error::value(format!(
                    "expected {} items, got {}",
                    t.spaces().len(),
                    items.len()
                )));
            }
            let parts =
                t.spaces().iter().zip(items).map(|(s, v)| flatten_data(s, v)).collect::<Result<Vec<_>>>()?;
            concat(flat_dtype(space)?, &parts)
        }
        SpaceKind::Dict(d) => {
            let Value::Dict(_) = value else {
                return Err(wrong_value(space, value));
            };
            let parts = d
                .spaces()
                .iter()
                .map(|(k, s)| {
                    let v = value.get(k).ok_or_else(|| Error::lookup(format!("missing key {k:?}")))?;
                    flatten_data(s, v)
                })
                .collect::<Result<Vec<_>>>()?;
            concat(flat_dtype(space)?, &parts)
        }
        SpaceKind::Union(u) => {
            let (i, v) = match value.as_list() {
                Some([Value::Int(i), v]) if (*i as u64) < u.spaces().len() as u64 => (*i as usize, v),
                _ => return Err(wrong_value(space, value)),
            };
            let dtype = flat_dtype(space)?;
            let flat = cast(&flatten_data(&u.spaces()[i], v)?, dtype);
            let missing = flatdim(space)? - 1 - flat.len();
            // Gymnasium pads with the first element (zeros if there is none).
            let fill =
                if flat.is_empty() { ArrayData::zeros(dtype, missing) } else { repeat_first(&flat, missing) };
            concat(dtype, &[from_i128s(dtype, std::iter::once(i as i128)), flat, fill])
        }
        _ => return Err(not_flattenable(space)),
    })
}

fn repeat_first(data: &ArrayData, n: usize) -> ArrayData {
    let first = slice(data, 0, 1);
    concat(data.dtype(), &vec![first; n])
}

/// Rebuilds a value of `space` from its flat array (any dtype, cast as needed).
pub fn unflatten(space: &Space, flat: &Array) -> Result<Value> {
    let n = flatdim(space)?;
    if flat.len() != n {
        return Err(Error::value(format!(
            "expected {n} flat elements for {:?}, got {}",
            space.name(),
            flat.len()
        )));
    }
    unflatten_data(space, flat.data())
}

fn hot_index(data: &ArrayData) -> Result<usize> {
    (0..data.len())
        .find(|&i| data.get_f64(i) != 0.0)
        .ok_or_else(|| Error::value("one-hot vector has no non-zero element"))
}

fn unflatten_data(space: &Space, data: &ArrayData) -> Result<Value> {
    Ok(match space.kind() {
        SpaceKind::Box(b) => Value::Array(Array::new(b.shape().to_vec(), cast(data, b.dtype()))?),
        SpaceKind::Discrete(d) => Value::Int(d.start() + hot_index(data)? as i64),
        SpaceKind::NamedDiscrete(_) | SpaceKind::Commandline(_) => Value::Int(hot_index(data)? as i64),
        SpaceKind::MultiDiscrete(m) => {
            let mut offset = 0;
            let mut out = Vec::with_capacity(m.nvec().len());
            for (i, &k) in m.nvec().iter().enumerate() {
                let part = slice(data, offset, offset + k as usize);
                out.push(m.start()[i] + hot_index(&part)? as i128);
                offset += k as usize;
            }
            Value::Array(Array::new(m.shape().to_vec(), from_i128s(m.dtype(), out.into_iter()))?)
        }
        SpaceKind::MultiBinary(m) => Value::Array(Array::new(m.shape().to_vec(), cast(data, DType::I8))?),
        SpaceKind::Binary(b) => Value::Array(Array::new(b.shape().to_vec(), cast(data, DType::Bool))?),
        SpaceKind::Scalar(s) => match s.dtype() {
            DType::Bool => Value::Bool(data.get_f64(0) != 0.0),
            d if d.is_float() => Value::Float(cast(data, d).get_f64(0)),
            _ => Value::Int(data.get_i128(0).map_or(data.get_f64(0) as i64, |x| x as i64)),
        },
        SpaceKind::Reward(_) => Value::Float(data.get_f64(0)),
        SpaceKind::Text(t) => {
            let chars = t.charset();
            Value::Str(
                (0..data.len())
                    .filter_map(|i| usize::try_from(data.get_f64(i) as i64).ok().and_then(|k| chars.get(k)))
                    .collect(),
            )
        }
        SpaceKind::Tuple(t) => Value::List(split(t.spaces().iter(), data)?),
        SpaceKind::Dict(d) => {
            let values = split(d.spaces().iter().map(|(_, s)| s), data)?;
            Value::Dict(d.keys().map(str::to_string).zip(values).collect())
        }
        SpaceKind::Union(u) => {
            let i = data.get_f64(0);
            let k = u.spaces().len();
            if !(i >= 0.0 && i < k as f64 && i.fract() == 0.0) {
                return Err(Error::value(format!("union index {i} is not in [0, {k})")));
            }
            let child = &u.spaces()[i as usize];
            let n = flatdim(child)?;
            Value::List(vec![Value::Int(i as i64), unflatten_data(child, &slice(data, 1, 1 + n))?])
        }
        _ => return Err(not_flattenable(space)),
    })
}

fn split<'a>(spaces: impl Iterator<Item = &'a Space>, data: &ArrayData) -> Result<Vec<Value>> {
    let mut offset = 0;
    spaces
        .map(|s| {
            let n = flatdim(s)?;
            let v = unflatten_data(s, &slice(data, offset, offset + n))?;
            offset += n;
            Ok(v)
        })
        .collect()
}

/// The bounds of a flattened space, exact for integer dtypes.
enum FlatBounds {
    Int(Vec<i128>, Vec<i128>),
    Float(Vec<f64>, Vec<f64>),
}

impl FlatBounds {
    fn of(b: &BoxSpace) -> FlatBounds {
        match b.bounds() {
            BoxBounds::Int { low, high } => FlatBounds::Int(low.clone(), high.clone()),
            BoxBounds::Float { low, high } => FlatBounds::Float(low.clone(), high.clone()),
        }
    }
    fn floats(&self) -> (Vec<f64>, Vec<f64>) {
        match self {
            FlatBounds::Int(l, h) => {
                (l.iter().map(|&x| x as f64).collect(), h.iter().map(|&x| x as f64).collect())
            }
            FlatBounds::Float(l, h) => (l.clone(), h.clone()),
        }
    }
}

fn make_box(name: &str, bounds: FlatBounds, dtype: DType) -> Result<BoxSpace> {
    match bounds {
        FlatBounds::Int(l, h) if !dtype.is_float() => {
            let n = l.len();
            BoxSpace::new_int(name, l, h, vec![n], dtype)
        }
        other => {
            let (l, h) = other.floats();
            let n = l.len();
            BoxSpace::new(name, l, h, vec![n], dtype)
        }
    }
}

/// The Box that flattened values of `space` live in; it keeps the space's name.
pub fn flatten_space(space: &Space) -> Result<Space> {
    flatten_box(space).map(Space::from)
}

fn flatten_box(space: &Space) -> Result<BoxSpace> {
    let name = space.name();
    let dim = flatdim(space)?;
    let dtype = flat_dtype(space)?;
    let unit = |dtype: DType| BoxSpace::new_int(name, vec![0], vec![1], vec![dim], dtype);
    Ok(match space.kind() {
        SpaceKind::Box(b) => make_box(name, FlatBounds::of(b), b.dtype())?,
        SpaceKind::Discrete(_)
        | SpaceKind::NamedDiscrete(_)
        | SpaceKind::Commandline(_)
        | SpaceKind::MultiDiscrete(_) => unit(dtype)?,
        SpaceKind::MultiBinary(_) | SpaceKind::Binary(_) => unit(dtype)?,
        SpaceKind::Scalar(s) => {
            let (lo, hi) = s.range();
            match s.int_range() {
                Some((lo, hi)) => BoxSpace::new_int(name, vec![lo], vec![hi], vec![1], dtype)?,
                None => BoxSpace::new(name, vec![lo], vec![hi], vec![1], dtype)?,
            }
        }
        SpaceKind::Reward(r) => {
            let (lo, hi) = r.range();
            BoxSpace::new(name, vec![lo], vec![hi], vec![1], DType::F64)?
        }
        SpaceKind::Text(t) => {
            BoxSpace::new_int(name, vec![0], vec![t.charset().len() as i128], vec![dim], DType::I32)?
        }
        SpaceKind::Tuple(_) | SpaceKind::Dict(_) => {
            let boxes = children(space).into_iter().map(flatten_box).collect::<Result<Vec<_>>>()?;
            let bounds = if dtype.is_float() {
                let (mut l, mut h) = (Vec::with_capacity(dim), Vec::with_capacity(dim));
                for b in &boxes {
                    let (bl, bh) = FlatBounds::of(b).floats();
                    l.extend(bl);
                    h.extend(bh);
                }
                FlatBounds::Float(l, h)
            } else {
                let (mut l, mut h) = (Vec::with_capacity(dim), Vec::with_capacity(dim));
                for b in &boxes {
                    if let FlatBounds::Int(bl, bh) = FlatBounds::of(b) {
                        l.extend(bl);
                        h.extend(bh);
                    }
                }
                FlatBounds::Int(l, h)
            };
            make_box(name, bounds, dtype)?
        }
        SpaceKind::Union(u) => {
            // As Gymnasium: the index, then every element bounded by the
            // smallest low and largest high of any alternative.
            let boxes = u.spaces().iter().map(flatten_box).collect::<Result<Vec<_>>>()?;
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            for b in &boxes {
                for i in 0..b.len() {
                    lo = lo.min(b.low_f64(i));
                    hi = hi.max(b.high_f64(i));
                }
            }
            if lo > hi {
                (lo, hi) = (0.0, 0.0);
            }
            let k = u.spaces().len() as f64 - 1.0;
            let mut low = vec![0.0];
            let mut high = vec![k];
            low.extend(std::iter::repeat_n(lo, dim - 1));
            high.extend(std::iter::repeat_n(hi, dim - 1));
            BoxSpace::new(name, low, high, vec![dim], dtype)?
        }
        _ => return Err(not_flattenable(space)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{DictSpace, Discrete, MultiDiscrete, Scalar, TextSpace, TupleSpace, UnionSpace};

    fn discrete(n: u64, start: i64) -> Space {
        Discrete::new("d", n, start).unwrap().into()
    }

    #[test]
    fn discrete_is_one_hot() {
        let s = discrete(4, 2);
        assert_eq!(flatdim(&s).unwrap(), 4);
        let f = flatten(&s, &Value::Int(3)).unwrap();
        assert_eq!(f.data(), &ArrayData::I64(vec![0, 1, 0, 0]));
        assert_eq!(unflatten(&s, &f).unwrap(), Value::Int(3));
        assert_eq!(flatten(&s, &Value::Int(9)).unwrap_err().name(), "ValueError");
        let zeros = Array::vector(ArrayData::I64(vec![0; 4]));
        assert_eq!(unflatten(&s, &zeros).unwrap_err().name(), "ValueError");
        let fs = flatten_space(&s).unwrap();
        assert_eq!(fs.to_string(), "Box(d, low=0, high=1, shape=(4,), dtype=int64)");
    }

    #[test]
    fn composites_concatenate_in_a_promoted_dtype() {
        let b = BoxSpace::uniform("b", -1.0, 1.0, Some(vec![2]), DType::F32).unwrap();
        let t: Space = TupleSpace::new("t", vec![discrete(2, 0), b.into()]).unwrap().into();
        assert_eq!(flatdim(&t).unwrap(), 4);
        assert_eq!(flat_dtype(&t).unwrap(), DType::F64, "int64 with float32 is float64");
        let v =
            Value::List(vec![Value::Int(1), Value::Array(Array::vector(ArrayData::F32(vec![0.5, -1.0])))]);
        let f = flatten(&t, &v).unwrap();
        assert_eq!(f.data(), &ArrayData::F64(vec![0.0, 1.0, 0.5, -1.0]));
        assert_eq!(unflatten(&t, &f).unwrap(), v);
        let fs = flatten_space(&t).unwrap();
        assert!(fs.contains(&Value::Array(f)));
        let d: Space = DictSpace::new(
            "d",
            vec![
                ("x".into(), discrete(3, 0)),
                ("s".into(), Scalar::new("s", Some(0.0), None, DType::F64).unwrap().into()),
            ],
            true,
        )
        .unwrap()
        .into();
        let v = Value::Dict(vec![("s".into(), Value::Float(2.5)), ("x".into(), Value::Int(2))]);
        let f = flatten(&d, &v).unwrap();
        assert_eq!(f.data(), &ArrayData::F64(vec![2.5, 0.0, 0.0, 1.0]));
        assert_eq!(unflatten(&d, &f).unwrap(), v);
    }

    #[test]
    fn multi_discrete_text_and_union() {
        let m: Space = MultiDiscrete::new("m", vec![2, 3], vec![0, 1], vec![2], DType::I64).unwrap().into();
        let v = Value::Array(Array::vector(ArrayData::I64(vec![1, 3])));
        let f = flatten(&m, &v).unwrap();
        assert_eq!(f.data(), &ArrayData::I64(vec![0, 1, 0, 0, 1]));
        assert_eq!(unflatten(&m, &f).unwrap(), v);

        let t: Space = TextSpace::new("t", 0, 4, Some("ab")).unwrap().into();
        let f = flatten(&t, &Value::Str("ba".into())).unwrap();
        assert_eq!(f.data(), &ArrayData::I32(vec![1, 0, 2, 2]));
        assert_eq!(unflatten(&t, &f).unwrap(), Value::Str("ba".into()));
        assert!(flatten_space(&t).unwrap().contains(&Value::Array(f)));

        let u: Space = UnionSpace::new(
            "u",
            vec![discrete(3, 0), Scalar::new("s", Some(-2.0), Some(2.0), DType::F64).unwrap().into()],
        )
        .unwrap()
        .into();
        assert_eq!(flatdim(&u).unwrap(), 4);
        let v = Value::List(vec![Value::Int(1), Value::Float(-1.5)]);
        let f = flatten(&u, &v).unwrap();
        assert_eq!(f.data(), &ArrayData::F64(vec![1.0, -1.5, -1.5, -1.5]));
        assert_eq!(unflatten(&u, &f).unwrap(), v);
        assert!(flatten_space(&u).unwrap().contains(&Value::Array(f)));
    }

    #[test]
    fn unflattenable_spaces_are_type_errors() {
        let g = crate::spaces::SpaceSequence::new("q", discrete(2, 0), (0, None)).unwrap().into();
        for f in [
            flatdim(&g).map(|_| ()),
            flatten_space(&g).map(|_| ()),
            flatten(&g, &Value::List(vec![])).map(|_| ()),
        ] {
            assert_eq!(f.unwrap_err().name(), "TypeError");
        }
        let s = discrete(2, 0);
        assert_eq!(flatten(&s, &Value::Str("x".into())).unwrap_err().name(), "ValueError");
        assert_eq!(unflatten(&s, &Array::vector(ArrayData::I64(vec![1]))).unwrap_err().name(), "ValueError");
    }
}
