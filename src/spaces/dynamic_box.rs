//! DynamicBox: a box whose shape varies between `shape_low` and `shape_high`
//! (UniEnv). Elements share one pair of bounds.
//!
//! Padding to `shape_high` and unpadding take the true shape explicitly:
//! guessing it from fill values would break whenever a real element equals
//! the fill value.

use super::array_ops::{cast, from_f64s};
use super::box_space::BoxSpace;
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::int_in;
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{shape_len, Array, ArrayData, DType, Value};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct DynamicBoxSpace {
    name: String,
    /// The bounds of every element, as a one-element box.
    element: BoxSpace,
    shape_low: Vec<usize>,
    shape_high: Vec<usize>,
    fill_value: f64,
}

impl DynamicBoxSpace {
    pub fn new(
        name: &str,
        low: f64,
        high: f64,
        shape_low: Vec<usize>,
        shape_high: Vec<usize>,
        dtype: DType,
        fill_value: f64,
    ) -> Result<DynamicBoxSpace> {
        let name = check_name(name, "DynamicBox name")?;
        let element = BoxSpace::new(&name, vec![low], vec![high], vec![1], dtype)?;
        Self::from_element(name, element, shape_low, shape_high, fill_value)
    }

    fn from_element(
        name: String,
        element: BoxSpace,
        shape_low: Vec<usize>,
        shape_high: Vec<usize>,
        fill_value: f64,
    ) -> Result<DynamicBoxSpace> {
        if shape_low.len() != shape_high.len() {
            return Err(Error::value(format!(
                "shape_low has {} dimensions, shape_high {}",
                shape_low.len(),
                shape_high.len()
            )));
        }
        for (i, (lo, hi)) in shape_low.iter().zip(&shape_high).enumerate() {
            if lo > hi {
                return Err(Error::value(format!("shape_low[{i}] ({lo}) > shape_high[{i}] ({hi})")));
            }
        }
        super::checked_len(&shape_high, element.dtype().size(), "a DynamicBox sample of shape_high")?;
        if fill_value.is_nan() && !element.dtype().is_float() {
            return Err(Error::value("fill_value is NaN for an integer dtype"));
        }
        Ok(DynamicBoxSpace { name, element, shape_low, shape_high, fill_value })
    }

    pub fn dtype(&self) -> DType {
        self.element.dtype()
    }
    pub fn shape_low(&self) -> &[usize] {
        &self.shape_low
    }
    pub fn shape_high(&self) -> &[usize] {
        &self.shape_high
    }
    pub fn fill_value(&self) -> f64 {
        self.fill_value
    }
    pub fn low(&self) -> f64 {
        self.element.low_f64(0)
    }
    pub fn high(&self) -> f64 {
        self.element.high_f64(0)
    }

    /// Whether `shape` lies between `shape_low` and `shape_high`.
    pub fn shape_contains(&self, shape: &[usize]) -> bool {
        shape.len() == self.shape_low.len()
            && shape.iter().zip(&self.shape_low).zip(&self.shape_high).all(|((s, lo), hi)| s >= lo && s <= hi)
    }

    /// `x` with each element clamped to the bounds, in the space's dtype.
    pub fn clip(&self, x: &Array) -> Result<Array> {
        if !self.shape_contains(x.shape()) {
            return Err(Error::value(format!(
                "clip: shape {:?} is not within the space's shapes",
                x.shape()
            )));
        }
        self.element.broadcast_first(x.shape().to_vec())?.clip(x)
    }

    /// `value` placed in the leading corner of a `shape_high` array filled with `fill_value`.
    pub fn pad(&self, value: &Array) -> Result<Array> {
        if !self.shape_contains(value.shape()) {
            return Err(Error::value(format!(
                "pad: shape {:?} is not within the space's shapes",
                value.shape()
            )));
        }
        let idx = region_indices(&self.shape_high, value.shape());
        Array::new(self.shape_high.clone(), gather(&cast(value.data(), self.dtype()), &idx, self.fill_value))
    }

    /// The leading `shape` corner of a padded array; `shape` is the true
    /// shape of the data, as recorded when it was padded.
    pub fn unpad(&self, padded: &Array, shape: &[usize]) -> Result<Array> {
        if padded.shape() != self.shape_high.as_slice() {
            return Err(Error::value(format!(
                "unpad: padded has shape {:?}, expected {:?}",
                padded.shape(),
                self.shape_high
            )));
        }
        if !self.shape_contains(shape) {
            return Err(Error::value(format!("unpad: shape {shape:?} is not within the space's shapes")));
        }
        let idx = region_indices(shape, &self.shape_high);
        Array::new(shape.to_vec(), gather(padded.data(), &idx, 0.0))
    }
}

/// For each element of a `dst`-shaped array (row-major), the flat index of
/// the element at the same multi-index in a `src`-shaped array, or `None`
/// where that index is outside `src`.
fn region_indices(dst: &[usize], src: &[usize]) -> Vec<Option<usize>> {
    let n = shape_len(dst).unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    let mut index = vec![0usize; dst.len()];
    for _ in 0..n {
        let inside = index.iter().zip(src).all(|(i, s)| i < s);
        let flat = index.iter().zip(src).fold(0usize, |acc, (i, d)| acc * d + i);
        out.push(inside.then_some(flat));
        for k in (0..dst.len()).rev() {
            index[k] += 1;
            if index[k] < dst[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// Elements of `data` at `idx`, `fill` (cast to the dtype) where `None`.
fn gather(data: &ArrayData, idx: &[Option<usize>], fill: f64) -> ArrayData {
    let fills = from_f64s(data.dtype(), std::iter::once(fill));
    macro_rules! g {
        ($($v:ident),*) => {
            match (data, &fills) {
                $((ArrayData::$v(x), ArrayData::$v(f)) => ArrayData::$v(idx.iter().map(|i| i.map_or(f[0], |i| x[i])).collect()),)*
                _ => unreachable!("fill has the data's dtype"),
            }
        };
    }
    g!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64)
}

impl Kind for DynamicBoxSpace {
    const TYPE: &'static str = "DynamicBox";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::Array(a) = value else { return false };
        if !self.shape_contains(a.shape()) {
            return false;
        }
        self.element.all_within_first(a.data())
    }
    fn create_empty(&self) -> Value {
        Value::Array(Array::zeros(self.dtype(), self.shape_low.clone()).expect("checked shape"))
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.element.is_bounded(manner)
    }
    fn describe(&self, out: &mut JsonMap) {
        let mut e = JsonMap::new();
        self.element.describe(&mut e);
        out.insert("dtype".into(), e["dtype"].clone());
        // A one-element box describes its bounds as single numbers.
        out.insert("low".into(), e["low"].clone());
        out.insert("high".into(), e["high"].clone());
        out.insert("shape_low".into(), ju::shape_to_json(&self.shape_low));
        out.insert("shape_high".into(), ju::shape_to_json(&self.shape_high));
        out.insert("fill_value".into(), ju::f64_to_json(self.fill_value));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<DynamicBoxSpace> {
        let name = check_name(name, "DynamicBox name")?;
        let mut e = JsonMap::new();
        for k in ["dtype", "low", "high"] {
            e.insert(k.into(), ju::field(m, k)?.clone());
        }
        e.insert("shape".into(), Json::from(vec![1]));
        let element = BoxSpace::parse_fields(&name, &e)?;
        let shape_low = ju::shape_from_json(ju::field(m, "shape_low")?, "shape_low")?;
        let shape_high = ju::shape_from_json(ju::field(m, "shape_high")?, "shape_high")?;
        let fill = ju::opt_f64(m, "fill_value")?.unwrap_or(0.0);
        Self::from_element(name, element, shape_low, shape_high, fill)
    }
    /// A sample has at most `shape_high` elements.
    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(shape_len(&self.shape_high).unwrap_or(usize::MAX), self.dtype().size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = Vec::new();
        if !o.abbreviate {
            parts.push(format!("low={}", repr::float(self.low())));
            parts.push(format!("high={}", repr::float(self.high())));
        }
        parts.push(format!("shape_low={}", repr::shape(&self.shape_low)));
        parts.push(format!("shape_high={}", repr::shape(&self.shape_high)));
        if o.include_dtype {
            parts.push(format!("dtype={}", self.dtype()));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for DynamicBoxSpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let shape: Vec<usize> = self
            .shape_low
            .iter()
            .zip(&self.shape_high)
            .map(|(&lo, &hi)| int_in(rng, lo as i128, hi as i128) as usize)
            .collect();
        let n = shape_len(&shape).expect("within shape_high");
        let batch = self.element.sample_batch(rng, n).expect("within shape_high");
        Value::Array(batch.reshape(shape).expect("n elements"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    fn space() -> DynamicBoxSpace {
        DynamicBoxSpace::new("d", 0.0, 1.0, vec![1, 2], vec![3, 2], DType::F32, -1.0).unwrap()
    }

    #[test]
    fn shapes_and_samples() {
        let d = space();
        assert!(d.shape_contains(&[2, 2]) && !d.shape_contains(&[4, 2]) && !d.shape_contains(&[2]));
        let mut r = Rng::seed_from_u64(0);
        for _ in 0..30 {
            let v = d.sample_rng(&mut r);
            assert!(d.contains(&v), "{v:?}");
        }
        let bad = Array::new(vec![1, 2], ArrayData::F32(vec![0.5, 2.0])).unwrap();
        assert!(!d.contains(&Value::Array(bad)));
    }

    #[test]
    fn pad_and_unpad_with_an_explicit_shape() {
        let d = space();
        // An element equal to the fill value survives the round trip.
        let x = Array::new(vec![2, 2], ArrayData::F32(vec![0.5, -1.0, 0.25, 1.0])).unwrap();
        let p = d.pad(&x).unwrap();
        assert_eq!(p.shape(), [3, 2]);
        assert_eq!(p.data(), &ArrayData::F32(vec![0.5, -1.0, 0.25, 1.0, -1.0, -1.0]));
        assert_eq!(d.unpad(&p, &[2, 2]).unwrap(), x);
        let e = DynamicBoxSpace::new("e", 0.0, 9.0, vec![0, 0], vec![2, 3], DType::I32, 0.0).unwrap();
        let y = Array::new(vec![1, 2], ArrayData::I32(vec![7, 8])).unwrap();
        let py = e.pad(&y).unwrap();
        assert_eq!(py.data(), &ArrayData::I32(vec![7, 8, 0, 0, 0, 0]));
        assert_eq!(e.unpad(&py, &[1, 2]).unwrap(), y);
        assert!(d.unpad(&p, &[4, 2]).is_err());
        let wild = Array::new(vec![1, 2], ArrayData::F32(vec![-3.0, 0.5])).unwrap();
        assert_eq!(d.clip(&wild).unwrap().data(), &ArrayData::F32(vec![0.0, 0.5]));
        assert!(d.clip(&Array::zeros(DType::F32, vec![2]).unwrap()).is_err());
        assert!(d.pad(&Array::zeros(DType::F32, vec![5, 2]).unwrap()).is_err());
    }

    #[test]
    fn bad_arguments_and_json() {
        assert!(DynamicBoxSpace::new("d", 0.0, 1.0, vec![1], vec![1, 2], DType::F32, 0.0)
            .unwrap_err()
            .message()
            .contains("shape_low"));
        assert!(DynamicBoxSpace::new("d", 0.0, 1.0, vec![3], vec![2], DType::F32, 0.0)
            .unwrap_err()
            .message()
            .contains("shape_low[0]"));
        assert!(DynamicBoxSpace::new("d", 1.0, 0.0, vec![1], vec![2], DType::F32, 0.0)
            .unwrap_err()
            .message()
            .contains("low[0]"));
        let s: Space = space().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(
            s.to_string(),
            "DynamicBox(d, low=0.0, high=1.0, shape_low=(1, 2), shape_high=(3, 2), dtype=float32)"
        );
    }
}
