//! Scalar: one number with optional bounds (CompilerGym).
//!
//! `contains` is strict about the kind of value: an int64 scalar holds
//! `Value::Int`, a float scalar `Value::Float`, a bool scalar `Value::Bool`;
//! an int is not a float.

use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::{float_in, int_in};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{DType, Value};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    name: String,
    min: Option<f64>,
    max: Option<f64>,
    dtype: DType,
}

impl Scalar {
    pub fn new(name: &str, min: Option<f64>, max: Option<f64>, dtype: DType) -> Result<Scalar> {
        let name = check_name(name, "Scalar name")?;
        if min.is_some_and(f64::is_nan) {
            return Err(Error::value("min is NaN"));
        }
        if max.is_some_and(f64::is_nan) {
            return Err(Error::value("max is NaN"));
        }
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(Error::value(format!("min ({lo}) > max ({hi})")));
            }
        }
        let s = Scalar { name, min, max, dtype };
        if let Some((lo, hi)) = s.int_range() {
            if lo > hi {
                return Err(Error::value(format!("[min, max] holds no value of {dtype}")));
            }
        }
        Ok(s)
    }

    pub fn min(&self) -> Option<f64> {
        self.min
    }
    pub fn max(&self) -> Option<f64> {
        self.max
    }
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// `(min, max)` with infinities for missing bounds.
    pub fn range(&self) -> (f64, f64) {
        (self.min.unwrap_or(f64::NEG_INFINITY), self.max.unwrap_or(f64::INFINITY))
    }

    /// For integer and bool scalars: the inclusive range of values, within
    /// the dtype and int64 (what `Value::Int` holds).
    pub fn int_range(&self) -> Option<(i128, i128)> {
        let (dmin, dmax) = self.dtype.int_range()?;
        let (dmin, dmax) = (dmin.max(i64::MIN as i128), dmax.min(i64::MAX as i128));
        let lo = self.min.map_or(dmin, |m| ceil_i128(m).max(dmin));
        let hi = self.max.map_or(dmax, |m| floor_i128(m).min(dmax));
        Some((lo, hi))
    }

    fn in_range(&self, x: f64) -> bool {
        self.min.is_none_or(|m| x >= m) && self.max.is_none_or(|m| x <= m)
    }

    /// Whether the number `x` (of any kind) is within the bounds and dtype.
    pub fn contains_number(&self, x: f64) -> bool {
        match self.int_range() {
            Some((lo, hi)) => x.fract() == 0.0 && x >= lo as f64 && x <= hi as f64,
            None => self.in_range(x),
        }
    }
}

fn ceil_i128(x: f64) -> i128 {
    x.ceil().clamp(-2f64.powi(100), 2f64.powi(100)) as i128
}

fn floor_i128(x: f64) -> i128 {
    x.floor().clamp(-2f64.powi(100), 2f64.powi(100)) as i128
}

impl Kind for Scalar {
    const TYPE: &'static str = "Scalar";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        match (value, self.dtype) {
            (Value::Bool(b), DType::Bool) => self.in_range(*b as u8 as f64),
            (Value::Float(x), d) if d.is_float() => self.in_range(*x),
            (Value::Int(x), d) if d.is_integer() => {
                let (lo, hi) = self.int_range().expect("integer dtype");
                (lo..=hi).contains(&(*x as i128))
            }
            _ => false,
        }
    }
    fn create_empty(&self) -> Value {
        match self.dtype {
            DType::Bool => Value::Bool(false),
            d if d.is_float() => Value::Float(0.0),
            _ => Value::Int(0),
        }
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        if self.dtype == DType::Bool {
            return true;
        }
        match manner {
            Bound::Both => self.min.is_some() && self.max.is_some(),
            Bound::Below => self.min.is_some(),
            Bound::Above => self.max.is_some(),
        }
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("dtype".into(), Json::from(self.dtype.name()));
        out.insert("min".into(), self.min.map_or(Json::Null, ju::f64_to_json));
        out.insert("max".into(), self.max.map_or(Json::Null, ju::f64_to_json));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<Scalar> {
        let dtype = match ju::opt_field(m, "dtype") {
            Some(_) => ju::get_dtype(m, "dtype")?,
            None => DType::F64,
        };
        Scalar::new(name, ju::opt_f64(m, "min")?, ju::opt_f64(m, "max")?, dtype)
    }
    /// A sample is one number, held in its `Value`.
    fn sample_bytes(&self) -> u64 {
        0
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = Vec::new();
        if !o.abbreviate {
            let (lo, hi) = self.range();
            parts.push(format!("min={}", repr::float(lo)));
            parts.push(format!("max={}", repr::float(hi)));
        }
        if o.include_dtype {
            parts.push(format!("dtype={}", self.dtype));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for Scalar {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        match self.int_range() {
            Some((lo, hi)) => {
                let x = int_in(rng, lo, hi);
                if self.dtype == DType::Bool {
                    Value::Bool(x != 0)
                } else {
                    Value::Int(x as i64)
                }
            }
            None => {
                let (lo, hi) = self.range();
                let x = float_in(rng, lo, hi);
                Value::Float(if self.dtype == DType::F32 {
                    (x as f32).clamp(lo as f32, hi as f32) as f64
                } else {
                    x
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    #[test]
    fn contains_is_strict_about_kinds() {
        let f = Scalar::new("f", Some(0.0), Some(1.0), DType::F64).unwrap();
        assert!(f.contains(&Value::Float(0.5)));
        assert!(!f.contains(&Value::Int(0)), "an int is not a float");
        assert!(!f.contains(&Value::Float(1.5)));
        let i = Scalar::new("i", Some(-2.0), None, DType::I64).unwrap();
        assert!(i.contains(&Value::Int(-2)) && i.contains(&Value::Int(i64::MAX)));
        assert!(!i.contains(&Value::Float(0.0)) && !i.contains(&Value::Int(-3)));
        let b = Scalar::new("b", None, None, DType::Bool).unwrap();
        assert!(b.contains(&Value::Bool(true)) && !b.contains(&Value::Int(1)));
        let small = Scalar::new("s", None, None, DType::I8).unwrap();
        assert!(!small.contains(&Value::Int(200)));
    }

    #[test]
    fn bad_arguments() {
        assert!(Scalar::new("s", Some(2.0), Some(1.0), DType::F64)
            .unwrap_err()
            .message()
            .contains("min (2) > max (1)"));
        assert!(Scalar::new("s", Some(f64::NAN), None, DType::F64).unwrap_err().message().contains("min"));
        assert!(Scalar::new("s", None, Some(f64::NAN), DType::F64).unwrap_err().message().contains("max"));
        assert!(Scalar::new("s", Some(0.2), Some(0.8), DType::I64).is_err());
        assert!(Scalar::new("", None, None, DType::I64).is_err());
    }

    #[test]
    fn samples_are_contained() {
        let mut r = Rng::seed_from_u64(1);
        for s in [
            Scalar::new("a", None, None, DType::F64).unwrap(),
            Scalar::new("b", Some(1.0), None, DType::F32).unwrap(),
            Scalar::new("c", None, Some(3.5), DType::I32).unwrap(),
            Scalar::new("d", None, None, DType::U64).unwrap(),
            Scalar::new("e", Some(1.0), Some(1.0), DType::Bool).unwrap(),
        ] {
            for _ in 0..100 {
                let v = s.sample_rng(&mut r);
                assert!(s.contains(&v), "{s:?} {v:?}");
            }
        }
    }

    #[test]
    fn json_and_bounds() {
        let s: Space = Scalar::new("s", None, Some(3.0), DType::I64).unwrap().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert!(!s.is_bounded("both").unwrap() && s.is_bounded("above").unwrap());
        assert_eq!(s.to_string(), "Scalar(s, min=-inf, max=3.0, dtype=int64)");
    }
}
