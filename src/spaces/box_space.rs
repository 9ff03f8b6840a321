//! Box: a hyper-rectangle of numbers with inclusive, per-element bounds.
//!
//! Float boxes may be unbounded on either side; each element is sampled by
//! the form of its interval (see [`super::sampling`]). Integer (and bool)
//! boxes keep exact `i128` bounds so int64 and uint64 are exact; an infinite
//! bound given for an integer box becomes the dtype's limit, so integer boxes
//! are always bounded and sample uniformly and inclusively.

use super::array_ops::{can_cast, from_f64s, from_i128s};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::{f32_in, float_in, int_in};
use super::{check_name, checked_len, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};
use serde_json::Value as Json;

/// The bounds of a box, one pair per element in row-major order.
#[derive(Clone, Debug, PartialEq)]
pub enum BoxBounds {
    /// For float dtypes; values are representable in the dtype.
    Float { low: Vec<f64>, high: Vec<f64> },
    /// For integer and bool dtypes; always within the dtype's range.
    Int { low: Vec<i128>, high: Vec<i128> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoxSpace {
    name: String,
    dtype: DType,
    shape: Vec<usize>,
    bounds: BoxBounds,
    /// Every element has finite bounds with a finite span, so the sampling
    /// fast path (plain uniform, no per-element dispatch) applies.
    all_uniform: bool,
}

/// A bound as given: an exact integer or a float.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
}

impl BoxSpace {
    /// A box with per-element float bounds (`low`/`high` of length 1
    /// broadcast to the whole shape).
    pub fn new(
        name: &str,
        low: Vec<f64>,
        high: Vec<f64>,
        shape: Vec<usize>,
        dtype: DType,
    ) -> Result<BoxSpace> {
        let low = low.into_iter().map(Num::Float).collect();
        let high = high.into_iter().map(Num::Float).collect();
        Self::from_nums(name, low, high, shape, dtype)
    }

    /// A box whose elements share the bounds `[low, high]`. Without a shape
    /// the box has shape `[1]`, as in Gymnasium.
    pub fn uniform(
        name: &str,
        low: f64,
        high: f64,
        shape: Option<Vec<usize>>,
        dtype: DType,
    ) -> Result<BoxSpace> {
        Self::new(name, vec![low], vec![high], shape.unwrap_or_else(|| vec![1]), dtype)
    }

    /// An integer or bool box with exact bounds.
    pub fn new_int(
        name: &str,
        low: Vec<i128>,
        high: Vec<i128>,
        shape: Vec<usize>,
        dtype: DType,
    ) -> Result<BoxSpace> {
        if dtype.is_float() {
            return Err(Error::type_error(format!("new_int: dtype must be integral, got {dtype}")));
        }
        let low = low.into_iter().map(Num::Int).collect();
        let high = high.into_iter().map(Num::Int).collect();
        Self::from_nums(name, low, high, shape, dtype)
    }

    fn from_nums(
        name: &str,
        low: Vec<Num>,
        high: Vec<Num>,
        shape: Vec<usize>,
        dtype: DType,
    ) -> Result<BoxSpace> {
        let name = check_name(name, "Box name")?;
        let n = checked_len(&shape, bound_bytes(dtype), "a Box of shape")?;
        check_given(&low, n, "low")?;
        check_given(&high, n, "high")?;
        // Bounds given once are converted once, then repeated.
        let bounds = match dtype.int_range() {
            None => {
                let low = low
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| float_bound(x, dtype, "low", i))
                    .collect::<Result<Vec<_>>>()?;
                let high = high
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| float_bound(x, dtype, "high", i))
                    .collect::<Result<Vec<_>>>()?;
                let (low, high) = (repeat(low, n), repeat(high, n));
                for i in 0..n {
                    if low[i] == f64::INFINITY {
                        return Err(Error::value(format!("low[{i}] must not be +inf")));
                    }
                    if high[i] == f64::NEG_INFINITY {
                        return Err(Error::value(format!("high[{i}] must not be -inf")));
                    }
                    if low[i] > high[i] {
                        return Err(Error::value(format!("low[{i}] ({}) > high[{i}] ({})", low[i], high[i])));
                    }
                }
                BoxBounds::Float { low, high }
            }
            Some(range) => {
                let low = low
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| int_bound(x, dtype, range, "low", i, true))
                    .collect::<Result<Vec<_>>>()?;
                let high = high
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| int_bound(x, dtype, range, "high", i, false))
                    .collect::<Result<Vec<_>>>()?;
                let (low, high) = (repeat(low, n), repeat(high, n));
                for i in 0..n {
                    if low[i] > high[i] {
                        return Err(Error::value(format!("low[{i}] ({}) > high[{i}] ({})", low[i], high[i])));
                    }
                }
                BoxBounds::Int { low, high }
            }
        };
        let all_uniform = match &bounds {
            BoxBounds::Float { low, high } => low.iter().zip(high).all(|(a, b)| (b - a).is_finite()),
            BoxBounds::Int { .. } => true,
        };
        Ok(BoxSpace { name, dtype, shape, bounds, all_uniform })
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn bounds(&self) -> &BoxBounds {
        &self.bounds
    }
    /// The number of elements.
    pub fn len(&self) -> usize {
        match &self.bounds {
            BoxBounds::Float { low, .. } => low.len(),
            BoxBounds::Int { low, .. } => low.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Lower bound of element `i` as f64 (lossy above 2^53 for integer boxes).
    pub fn low_f64(&self, i: usize) -> f64 {
        match &self.bounds {
            BoxBounds::Float { low, .. } => low[i],
            BoxBounds::Int { low, .. } => low[i] as f64,
        }
    }
    pub fn high_f64(&self, i: usize) -> f64 {
        match &self.bounds {
            BoxBounds::Float { high, .. } => high[i],
            BoxBounds::Int { high, .. } => high[i] as f64,
        }
    }

    /// A box of `shape` whose elements all have element 0's bounds.
    pub(crate) fn broadcast_first(&self, shape: Vec<usize>) -> Result<BoxSpace> {
        let n = checked_len(&shape, bound_bytes(self.dtype), "a Box of shape")?;
        let bounds = match &self.bounds {
            BoxBounds::Float { low, high } => {
                BoxBounds::Float { low: vec![low[0]; n], high: vec![high[0]; n] }
            }
            BoxBounds::Int { low, high } => BoxBounds::Int { low: vec![low[0]; n], high: vec![high[0]; n] },
        };
        Ok(BoxSpace { shape, bounds, ..self.clone() })
    }

    /// The same box under another name.
    pub fn renamed(&self, name: &str) -> Result<BoxSpace> {
        Ok(BoxSpace { name: check_name(name, "Box name")?, ..self.clone() })
    }

    /// Whether the flat data (without shape) lies in the bounds with a castable dtype.
    pub fn data_within(&self, data: &ArrayData) -> bool {
        data.len() == self.len() && self.rows_within(data, 0, 1)
    }

    /// Whether rows `first..first + rows` of `data` (rows of `len` elements,
    /// one sample each) lie within the bounds, with a castable dtype.
    pub(crate) fn rows_within(&self, data: &ArrayData, first: usize, rows: usize) -> bool {
        let n = self.len();
        if !can_cast(data.dtype(), self.dtype) || data.len() < (first + rows) * n {
            return false;
        }
        if n == 0 {
            return true;
        }
        let r = first * n..(first + rows) * n;
        // One match on the dtype, then a tight loop over the typed slice.
        match (&self.bounds, data) {
            (BoxBounds::Float { low, high }, ArrayData::F32(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::F64(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::I8(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::U8(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::I16(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::U16(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::I32(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, ArrayData::U32(v)) => floats_within(&v[r], low, high),
            (BoxBounds::Float { low, high }, _) => r.into_iter().all(|i| {
                let x = data.get_f64(i);
                x >= low[i % n] && x <= high[i % n]
            }),
            (BoxBounds::Int { low, high }, ArrayData::Bool(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::I8(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::U8(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::I16(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::U16(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::I32(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::U32(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::I64(v)) => ints_within(&v[r], low, high),
            (BoxBounds::Int { low, high }, ArrayData::U64(v)) => ints_within(&v[r], low, high),
            // Floats never cast safely to an integer dtype.
            (BoxBounds::Int { .. }, ArrayData::F32(_) | ArrayData::F64(_)) => false,
        }
    }

    /// Whether every element of `data` (any length) lies within the bounds
    /// of element 0, with a castable dtype: the check of shared bounds.
    pub(crate) fn all_within_first(&self, data: &ArrayData) -> bool {
        if self.is_empty() || !can_cast(data.dtype(), self.dtype) {
            return false;
        }
        match &self.bounds {
            BoxBounds::Float { low, high } => (0..data.len()).all(|i| {
                let x = data.get_f64(i);
                x >= low[0] && x <= high[0]
            }),
            BoxBounds::Int { low, high } => {
                (0..data.len()).all(|i| data.get_i128(i).is_some_and(|x| x >= low[0] && x <= high[0]))
            }
        }
    }

    /// Writes one sample per row of `out` (the flat data of `out.len() / len` samples).
    fn fill_f32(&self, rng: &mut Rng, out: &mut [f32]) {
        let BoxBounds::Float { low, high } = &self.bounds else { unreachable!() };
        if low.is_empty() {
            return;
        }
        if self.all_uniform {
            // Same arithmetic as `Rng::uniform` for a finite span, inlined so
            // the loop has no per-element branching or calls.
            for row in out.chunks_exact_mut(low.len()) {
                for ((o, &a), &b) in row.iter_mut().zip(low).zip(high) {
                    let u = rng.next_f64();
                    *o = (a + (b - a) * u).clamp(a, b) as f32;
                }
            }
        } else {
            for row in out.chunks_exact_mut(low.len()) {
                for ((o, &a), &b) in row.iter_mut().zip(low).zip(high) {
                    *o = f32_in(rng, a, b);
                }
            }
        }
    }

    fn fill_f64(&self, rng: &mut Rng, out: &mut [f64]) {
        let BoxBounds::Float { low, high } = &self.bounds else { unreachable!() };
        if low.is_empty() {
            return;
        }
        for row in out.chunks_exact_mut(low.len()) {
            for ((o, &a), &b) in row.iter_mut().zip(low).zip(high) {
                *o = float_in(rng, a, b);
            }
        }
    }

    /// The flat data of `rows` samples.
    pub(crate) fn sample_data(&self, rng: &mut Rng, rows: usize) -> ArrayData {
        let n = rows * self.len();
        match (&self.bounds, self.dtype) {
            (BoxBounds::Float { .. }, DType::F32) => {
                let mut out = vec![0f32; n];
                self.fill_f32(rng, &mut out);
                ArrayData::F32(out)
            }
            (BoxBounds::Float { .. }, _) => {
                let mut out = vec![0f64; n];
                self.fill_f64(rng, &mut out);
                ArrayData::F64(out)
            }
            (BoxBounds::Int { low, high }, dtype) => {
                let (low, high) = (low.as_slice(), high.as_slice());
                let m = low.len().max(1);
                from_i128s(dtype, (0..n).map(|k| int_in(rng, low[k % m], high[k % m])))
            }
        }
    }

    /// One sample written into `out`, reusing its storage when it has the
    /// box's dtype: the same draws and values as [`Leaf::sample_rng`].
    pub fn sample_into(&self, rng: &mut Rng, out: &mut ArrayData) {
        let n = self.len();
        match (&self.bounds, out) {
            (BoxBounds::Float { .. }, ArrayData::F32(v)) if self.dtype == DType::F32 => {
                v.resize(n, 0.0);
                self.fill_f32(rng, v);
            }
            (BoxBounds::Float { .. }, ArrayData::F64(v)) if self.dtype == DType::F64 => {
                v.resize(n, 0.0);
                self.fill_f64(rng, v);
            }
            (_, out) => *out = self.sample_data(rng, 1),
        }
    }

    /// `n` samples stacked under a leading dimension `n`.
    pub fn sample_batch(&self, rng: &mut Rng, n: usize) -> Result<Array> {
        let mut shape = Vec::with_capacity(self.shape.len() + 1);
        shape.push(n);
        shape.extend_from_slice(&self.shape);
        checked_len(&shape, self.dtype.size(), "sample_batch of shape")?;
        let data = self.sample_data(rng, n);
        Array::new(shape, data)
    }

    /// `x` with each element clamped to its bounds, in the box's dtype.
    pub fn clip(&self, x: &Array) -> Result<Array> {
        if x.shape() != self.shape.as_slice() {
            return Err(Error::value(format!("clip: x has shape {:?}, the box {:?}", x.shape(), self.shape)));
        }
        let d = x.data();
        let data = match &self.bounds {
            BoxBounds::Float { low, high } => {
                from_f64s(self.dtype, (0..low.len()).map(|i| d.get_f64(i).max(low[i]).min(high[i])))
            }
            BoxBounds::Int { low, high } => {
                let clamp = |i: usize| match d.get_i128(i) {
                    Some(v) => v.clamp(low[i], high[i]),
                    // Floats: clamp first, then truncate (NaN becomes the lower bound).
                    None => {
                        let f = d.get_f64(i).max(low[i] as f64).min(high[i] as f64);
                        if f.is_nan() {
                            low[i]
                        } else {
                            (f as i128).clamp(low[i], high[i])
                        }
                    }
                };
                from_i128s(self.dtype, (0..low.len()).map(clamp))
            }
        };
        Array::new(self.shape.clone(), data)
    }

    /// Bounds as JSON: one number when every element shares it, else a flat list.
    fn bounds_to_json(&self) -> (Json, Json) {
        fn compact<T: PartialEq>(v: &[T], f: impl Fn(&T) -> Json) -> Json {
            match v.first() {
                Some(x) if v.iter().all(|y| y == x) => f(x),
                _ => Json::Array(v.iter().map(f).collect()),
            }
        }
        match &self.bounds {
            BoxBounds::Float { low, high } => {
                (compact(low, |&x| ju::f64_to_json(x)), compact(high, |&x| ju::f64_to_json(x)))
            }
            BoxBounds::Int { low, high } => {
                (compact(low, |&x| ju::i128_to_json(x)), compact(high, |&x| ju::i128_to_json(x)))
            }
        }
    }

    /// Parses Box fields (shared with the Gymnasium description). `low` and
    /// `high` are a scalar, a flat list or a nested list; without `shape`
    /// the shape is the nested shape of the bounds, `[1]` for scalars; without
    /// `dtype` it is float32 (Gymnasium's default).
    pub(crate) fn parse_fields(name: &str, m: &JsonMap) -> Result<BoxSpace> {
        let dtype = match ju::opt_field(m, "dtype") {
            Some(_) => ju::get_dtype(m, "dtype")?,
            None => DType::F32,
        };
        let (low_shape, low) = nums_from_json(ju::field(m, "low")?, "low")?;
        let (high_shape, high) = nums_from_json(ju::field(m, "high")?, "high")?;
        let shape = match ju::opt_field(m, "shape") {
            Some(j) => ju::shape_from_json(j, "shape")?,
            None if !low_shape.is_empty() => low_shape,
            None if !high_shape.is_empty() => high_shape,
            None => vec![1],
        };
        Self::from_nums(name, low, high, shape, dtype)
    }
}

/// Whether each row of `values` lies within `[low, high]` elementwise
/// (NaN never does).
fn floats_within<T: Copy + Into<f64>>(values: &[T], low: &[f64], high: &[f64]) -> bool {
    values.chunks_exact(low.len()).all(|row| {
        row.iter().zip(low).zip(high).all(|((&x, &a), &b)| {
            let x: f64 = x.into();
            x >= a && x <= b
        })
    })
}

fn ints_within<T: Copy + Into<i128>>(values: &[T], low: &[i128], high: &[i128]) -> bool {
    values.chunks_exact(low.len()).all(|row| {
        row.iter().zip(low).zip(high).all(|((&x, &a), &b)| {
            let x: i128 = x.into();
            x >= a && x <= b
        })
    })
}

fn nums_from_json(j: &Json, what: &str) -> Result<(Vec<usize>, Vec<Num>)> {
    let (shape, items) = ju::flatten_numbers(j, what)?;
    let nums = items
        .into_iter()
        .map(|x| match x {
            Json::Number(n) if n.is_i64() || n.is_u64() => ju::json_to_i128(x, what).map(Num::Int),
            Json::String(s) if ju::decimal_integer(s).is_some() => ju::json_to_i128(x, what).map(Num::Int),
            _ => ju::json_to_f64(x, what).map(Num::Float),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((shape, nums))
}

/// The bytes a box keeps per element: `low` and `high`, as f64 or i128.
fn bound_bytes(dtype: DType) -> u64 {
    if dtype.is_float() {
        16
    } else {
        32
    }
}

/// Bounds are given once for every element, or once per element.
fn check_given(v: &[Num], n: usize, what: &str) -> Result<()> {
    match v.len() {
        len if len == n || len == 1 => Ok(()),
        len => Err(Error::value(format!("{what} has {len} elements but the shape needs {n}"))),
    }
}

/// `v` itself if it has `n` elements, else its one element `n` times.
fn repeat<T: Copy>(v: Vec<T>, n: usize) -> Vec<T> {
    if v.len() == n {
        v
    } else {
        v.first().map_or_else(Vec::new, |&x| vec![x; n])
    }
}

fn float_bound(x: Num, dtype: DType, what: &str, i: usize) -> Result<f64> {
    let f = match x {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    };
    if f.is_nan() {
        return Err(Error::value(format!("{what}[{i}] is NaN")));
    }
    // Bounds are stored at the dtype's precision, like Gymnasium's casts.
    Ok(if dtype == DType::F32 { f as f32 as f64 } else { f })
}

fn int_bound(
    x: Num,
    dtype: DType,
    (min, max): (i128, i128),
    what: &str,
    i: usize,
    is_low: bool,
) -> Result<i128> {
    let v = match x {
        Num::Int(v) => v,
        Num::Float(f) if f.is_nan() => return Err(Error::value(format!("{what}[{i}] is NaN"))),
        Num::Float(f) if f == f64::NEG_INFINITY => min,
        Num::Float(f) if f == f64::INFINITY => max,
        // The integers inside [low, high]: round the low bound up, the high one down.
        Num::Float(f) => {
            let r = if is_low { f.ceil() } else { f.floor() };
            if r.abs() >= 2f64.powi(65) {
                return Err(Error::value(format!("{what}[{i}] ({f}) is outside the range of {dtype}")));
            }
            r as i128
        }
    };
    if v < min || v > max {
        return Err(Error::value(format!("{what}[{i}] ({v}) is outside the range of {dtype}")));
    }
    Ok(v)
}

impl Kind for BoxSpace {
    const TYPE: &'static str = "Box";

    fn name(&self) -> &str {
        &self.name
    }

    fn contains(&self, value: &Value) -> bool {
        match value {
            Value::Array(a) => a.shape() == self.shape.as_slice() && self.data_within(a.data()),
            _ => false,
        }
    }

    fn create_empty(&self) -> Value {
        Value::Array(Array::zeros(self.dtype, self.shape.clone()).expect("shape checked at construction"))
    }

    fn is_bounded(&self, manner: Bound) -> bool {
        match &self.bounds {
            BoxBounds::Int { .. } => true,
            BoxBounds::Float { low, high } => {
                let below = low.iter().all(|x| x.is_finite());
                let above = high.iter().all(|x| x.is_finite());
                match manner {
                    Bound::Both => below && above,
                    Bound::Below => below,
                    Bound::Above => above,
                }
            }
        }
    }

    fn describe(&self, out: &mut JsonMap) {
        let (low, high) = self.bounds_to_json();
        out.insert("dtype".into(), Json::from(self.dtype.name()));
        out.insert("shape".into(), ju::shape_to_json(&self.shape));
        out.insert("low".into(), low);
        out.insert("high".into(), high);
    }

    fn from_description(name: &str, fields: &JsonMap) -> Result<BoxSpace> {
        Self::parse_fields(name, fields)
    }

    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(self.len(), self.dtype.size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = Vec::new();
        if !o.abbreviate {
            let (low, high) = match &self.bounds {
                BoxBounds::Float { low, high } => {
                    (repr::bound_list(low, |x| repr::float(*x)), repr::bound_list(high, |x| repr::float(*x)))
                }
                BoxBounds::Int { low, high } => {
                    (repr::bound_list(low, |x| x.to_string()), repr::bound_list(high, |x| x.to_string()))
                }
            };
            parts.push(format!("low={low}"));
            parts.push(format!("high={high}"));
        }
        parts.push(format!("shape={}", repr::shape(&self.shape)));
        if o.include_dtype {
            parts.push(format!("dtype={}", self.dtype));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for BoxSpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let data = self.sample_data(rng, 1);
        Value::Array(Array::new(self.shape.clone(), data).expect("sizes agree"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};
    use serde_json::json;

    fn unit(shape: Vec<usize>) -> BoxSpace {
        BoxSpace::uniform("b", 0.0, 1.0, Some(shape), DType::F32).unwrap()
    }

    #[test]
    fn scalar_bounds_without_shape_give_shape_one() {
        let b = BoxSpace::uniform("b", -1.0, 1.0, None, DType::F64).unwrap();
        assert_eq!(b.shape(), [1]);
        let j = json!({"type": "Box", "name": "b", "low": 0, "high": 1});
        assert_eq!(space_from_json(&j).unwrap().to_json()["shape"], json!([1]));
    }

    #[test]
    fn bad_arguments_name_the_argument() {
        let e = BoxSpace::uniform("b", 2.0, 1.0, None, DType::F32).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert!(e.message().contains("low[0]") && e.message().contains("high[0]"), "{e}");
        let e = BoxSpace::uniform("b", f64::NAN, 1.0, None, DType::F32).unwrap_err();
        assert!(e.message().contains("low[0] is NaN"), "{e}");
        let e = BoxSpace::new("b", vec![0.0; 3], vec![1.0], vec![2], DType::F32).unwrap_err();
        assert!(e.message().contains("low has 3 elements"), "{e}");
        let e = BoxSpace::uniform("", 0.0, 1.0, None, DType::F32).unwrap_err();
        assert!(e.message().contains("name"));
        let e = BoxSpace::uniform("b", -1.0, 300.0, None, DType::U8).unwrap_err();
        assert!(e.message().contains("low[0]") && e.message().contains("uint8"), "{e}");
        let e = BoxSpace::uniform("b", f64::INFINITY, f64::INFINITY, None, DType::F64).unwrap_err();
        assert!(e.message().contains("+inf"));
        let e = BoxSpace::new_int("b", vec![0], vec![1], vec![1], DType::F32).unwrap_err();
        assert_eq!(e.name(), "TypeError");
        let e =
            space_from_json(&json!({"type": "Box", "name": "b", "low": 0, "high": 1, "dtype": "float16"}))
                .unwrap_err();
        assert_eq!(e.name(), "TypeError");
        assert!(e.message().contains("dtype"), "{e}");
    }

    #[test]
    fn contains_checks_shape_dtype_and_inclusive_bounds() {
        let b = unit(vec![2]);
        let ok = Array::new(vec![2], ArrayData::F32(vec![0.0, 1.0])).unwrap();
        assert!(b.contains(&Value::Array(ok)));
        let out = Array::new(vec![2], ArrayData::F32(vec![0.0, 1.01])).unwrap();
        assert!(!b.contains(&Value::Array(out)));
        let f64s = Array::new(vec![2], ArrayData::F64(vec![0.0, 0.5])).unwrap();
        assert!(!b.contains(&Value::Array(f64s)), "float64 does not cast safely to float32");
        let ints = Array::new(vec![2], ArrayData::I8(vec![0, 1])).unwrap();
        assert!(b.contains(&Value::Array(ints)));
        let nan = Array::new(vec![2], ArrayData::F32(vec![f32::NAN, 0.0])).unwrap();
        assert!(!b.contains(&Value::Array(nan)));
        let wrong_shape = Array::new(vec![1, 2], ArrayData::F32(vec![0.0, 0.0])).unwrap();
        assert!(!b.contains(&Value::Array(wrong_shape)));
        assert!(!b.contains(&Value::Float(0.5)));
    }

    #[test]
    fn integer_boxes_are_exact_inclusive_and_do_not_overflow() {
        let b = BoxSpace::uniform("b", f64::NEG_INFINITY, f64::INFINITY, Some(vec![4]), DType::I64).unwrap();
        assert_eq!(
            b.bounds(),
            &BoxBounds::Int { low: vec![i64::MIN as i128; 4], high: vec![i64::MAX as i128; 4] }
        );
        assert!(b.is_bounded(Bound::Both));
        let mut r = Rng::seed_from_u64(3);
        for _ in 0..50 {
            assert!(b.contains(&b.sample_rng(&mut r)));
        }
        let u =
            BoxSpace::new_int("u", vec![u64::MAX as i128 - 1], vec![u64::MAX as i128], vec![1], DType::U64)
                .unwrap();
        let mut seen = [false; 2];
        for _ in 0..50 {
            let v = u.sample_rng(&mut r);
            let x = v.as_array().unwrap().data().get_i128(0).unwrap();
            seen[(x - (u64::MAX as i128 - 1)) as usize] = true;
        }
        assert_eq!(seen, [true, true]);
        // Fractional bounds keep the integers inside them.
        let f = BoxSpace::uniform("f", -0.5, 2.5, None, DType::I32).unwrap();
        assert_eq!(f.bounds(), &BoxBounds::Int { low: vec![0], high: vec![2] });
        assert!(BoxSpace::uniform("f", 0.2, 0.8, None, DType::I32).is_err());
    }

    #[test]
    fn sampling_follows_the_interval_form() {
        let b = BoxSpace::new(
            "b",
            vec![0.0, 5.0, f64::NEG_INFINITY, f64::NEG_INFINITY],
            vec![1.0, f64::INFINITY, -5.0, f64::INFINITY],
            vec![4],
            DType::F64,
        )
        .unwrap();
        assert!(!b.is_bounded(Bound::Both) && !b.is_bounded(Bound::Below) && !b.is_bounded(Bound::Above));
        let mut r = Rng::seed_from_u64(4);
        for _ in 0..200 {
            let v = b.sample_rng(&mut r);
            assert!(b.contains(&v));
            let x = v.as_array().unwrap().data().to_f64_vec();
            assert!(x[3].is_finite());
        }
        let half = BoxSpace::uniform("h", 0.0, f64::INFINITY, None, DType::F32).unwrap();
        assert!(half.is_bounded(Bound::Below) && !half.is_bounded(Bound::Above));
    }

    #[test]
    fn f32_fast_path_matches_the_general_sampler() {
        let b = unit(vec![8]);
        let mut r1 = Rng::seed_from_u64(5);
        let mut r2 = r1;
        let fast = b.sample_rng(&mut r1);
        let slow: Vec<f32> = (0..8).map(|_| f32_in(&mut r2, 0.0, 1.0)).collect();
        assert_eq!(fast.as_array().unwrap().data(), &ArrayData::F32(slow));
        assert_eq!(r1, r2);
    }

    #[test]
    fn sample_into_draws_what_sample_draws() {
        let boxes = [
            json!({"type": "Box", "name": "f", "low": -1, "high": [1, 2, 3], "shape": [3], "dtype": "float32"}),
            json!({"type": "Box", "name": "d", "low": 0, "high": "inf", "shape": [2, 2], "dtype": "float64"}),
            json!({"type": "Box", "name": "i", "low": -5, "high": 5, "shape": [4], "dtype": "int16"}),
            json!({"type": "Box", "name": "e", "low": 0, "high": 1, "shape": [0], "dtype": "float32"}),
        ];
        for description in boxes {
            let space = space_from_json(&description).unwrap();
            let SpaceKind::Box(b) = space.kind() else { panic!("a box") };
            // The buffer starts with another dtype and length, then is reused.
            let mut out = ArrayData::U8(vec![7; 9]);
            let (mut r1, mut r2) = (Rng::seed_from_u64(3), Rng::seed_from_u64(3));
            for _ in 0..3 {
                b.sample_into(&mut r1, &mut out);
                let Value::Array(expected) = b.sample_rng(&mut r2) else { panic!("an array") };
                assert_eq!(&out, expected.data(), "{description}");
            }
            assert_eq!(r1.state(), r2.state());
        }
    }

    #[test]
    fn space_sample_box_into_follows_the_spaces_generator() {
        let description =
            json!({"type": "Box", "name": "b", "low": 0, "high": 1, "shape": [5], "dtype": "float32"});
        let (mut a, mut b) = (space_from_json(&description).unwrap(), space_from_json(&description).unwrap());
        a.seed(9);
        b.seed(9);
        let mut out = ArrayData::F32(Vec::new());
        for _ in 0..3 {
            assert!(a.sample_box_into(&mut out));
            assert_eq!(Value::Array(Array::new(vec![5], out.clone()).unwrap()), b.sample());
        }
        let mut discrete = space_from_json(&json!({"type": "Discrete", "name": "d", "n": 3})).unwrap();
        discrete.seed(9);
        let before = discrete.rng();
        assert!(!discrete.sample_box_into(&mut out));
        assert_eq!(discrete.rng(), before, "nothing drawn");
    }

    #[test]
    fn sample_batch_stacks_samples() {
        let b = BoxSpace::new("b", vec![0.0, 10.0], vec![1.0, 20.0], vec![2], DType::F32).unwrap();
        let mut r1 = Rng::seed_from_u64(6);
        let mut r2 = r1;
        let batch = b.sample_batch(&mut r1, 3).unwrap();
        assert_eq!(batch.shape(), [3, 2]);
        let one: Vec<f32> = (0..3)
            .flat_map(|_| match b.sample_rng(&mut r2) {
                Value::Array(a) => match a.into_parts().1 {
                    ArrayData::F32(v) => v,
                    _ => unreachable!(),
                },
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(batch.data(), &ArrayData::F32(one));
        let ints = BoxSpace::uniform("i", -3.0, 3.0, Some(vec![2, 2]), DType::I16).unwrap();
        let batch = ints.sample_batch(&mut r1, 5).unwrap();
        assert_eq!(batch.shape(), [5, 2, 2]);
        assert!(batch.data().to_f64_vec().iter().all(|x| (-3.0..=3.0).contains(x)));
        assert!(unit(vec![1 << 20])
            .sample_batch(&mut r1, 1 << 20)
            .unwrap_err()
            .message()
            .contains("sample_batch"));
        assert!(BoxSpace::uniform("b", 0.0, 1.0, Some(vec![usize::MAX / 2, 4]), DType::F32)
            .unwrap_err()
            .message()
            .contains("shape"));
        assert_eq!(unit(vec![0]).sample_batch(&mut r1, 4).unwrap().shape(), [4, 0]);
    }

    #[test]
    fn clip_clamps_into_the_box() {
        let b = BoxSpace::new("b", vec![0.0, -1.0], vec![1.0, 1.0], vec![2], DType::F64).unwrap();
        let x = Array::new(vec![2], ArrayData::F64(vec![3.0, -5.0])).unwrap();
        assert_eq!(b.clip(&x).unwrap().data(), &ArrayData::F64(vec![1.0, -1.0]));
        let i = BoxSpace::uniform("i", 0.0, 10.0, Some(vec![2]), DType::U8).unwrap();
        let x = Array::new(vec![2], ArrayData::F64(vec![-3.7, 12.0])).unwrap();
        assert_eq!(i.clip(&x).unwrap().data(), &ArrayData::U8(vec![0, 10]));
        assert!(b.clip(&Array::new(vec![1], ArrayData::F64(vec![0.0])).unwrap()).is_err());
    }

    #[test]
    fn description_round_trips_and_accepts_nested_bounds() {
        let b =
            BoxSpace::new("b", vec![f64::NEG_INFINITY, 0.0], vec![1.0, f64::INFINITY], vec![2], DType::F64)
                .unwrap();
        let s: Space = b.into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        let j = json!({"type": "Box", "name": "n", "low": [[0, 1], [2, 3]], "high": 10, "dtype": "int64"});
        let s = space_from_json(&j).unwrap();
        let SpaceKind::Box(b) = s.kind() else { panic!() };
        assert_eq!(b.shape(), [2, 2]);
        assert_eq!(b.bounds(), &BoxBounds::Int { low: vec![0, 1, 2, 3], high: vec![10; 4] });
        let big =
            json!({"type": "Box", "name": "u", "low": 0, "high": u64::MAX, "shape": [1], "dtype": "uint64"});
        assert_eq!(space_from_json(&big).unwrap().to_json()["high"], json!(u64::MAX));
        let mixed = BoxSpace::new("m", vec![0.0, 1.0], vec![2.0], vec![2], DType::F64).unwrap();
        let j = Space::from(mixed).to_json();
        assert_eq!((&j["low"], &j["high"]), (&json!([0.0, 1.0]), &json!(2.0)));
    }

    use crate::spaces::SpaceKind;

    #[test]
    fn display() {
        let s: Space = unit(vec![64]).into();
        assert_eq!(s.to_string(), "Box(b, low=0.0, high=1.0, shape=(64,), dtype=float32)");
        let o = ReprOptions { abbreviate: true, include_dtype: false };
        assert_eq!(s.get_repr(&o), "Box(shape=(64,))");
    }
}
