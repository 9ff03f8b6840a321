//! Discrete: the integers `[start, start + n)`.

use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{Array, ArrayData, Value};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct Discrete {
    name: String,
    n: u64,
    start: i64,
}

/// Checks that `[start, start + n)` is a non-empty range of int64.
pub(crate) fn check_range(n: u64, start: i64) -> Result<()> {
    if n == 0 {
        return Err(Error::value("n must be positive, got 0"));
    }
    if start as i128 + n as i128 - 1 > i64::MAX as i128 {
        return Err(Error::value(format!("start ({start}) + n ({n}) overflows int64")));
    }
    Ok(())
}

/// Whether `value` is an integer in `[start, start + n)`: an int, or a 0-d
/// integer array (what numpy scalars become).
pub(crate) fn int_in_range(value: &Value, n: u64, start: i64) -> bool {
    let x = match value {
        Value::Int(x) => *x as i128,
        Value::Array(a) if a.shape().is_empty() && a.dtype().is_integer() => match a.data().get_i128(0) {
            Some(x) => x,
            None => return false,
        },
        _ => return false,
    };
    x >= start as i128 && x < start as i128 + n as i128
}

/// `count` samples of `[start, start + n)` as an int64 vector.
pub(crate) fn batch(rng: &mut Rng, n: u64, start: i64, count: usize) -> Array {
    let data: Vec<i64> = (0..count).map(|_| start.wrapping_add(rng.below(n) as i64)).collect();
    Array::vector(ArrayData::I64(data))
}

impl Discrete {
    pub fn new(name: &str, n: u64, start: i64) -> Result<Discrete> {
        let name = check_name(name, "Discrete name")?;
        check_range(n, start)?;
        Ok(Discrete { name, n, start })
    }
    pub fn n(&self) -> u64 {
        self.n
    }
    pub fn start(&self) -> i64 {
        self.start
    }
    pub fn sample_batch(&self, rng: &mut Rng, count: usize) -> Array {
        batch(rng, self.n, self.start, count)
    }
}

impl Kind for Discrete {
    const TYPE: &'static str = "Discrete";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        int_in_range(value, self.n, self.start)
    }
    fn create_empty(&self) -> Value {
        Value::Int(self.start)
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("n".into(), Json::from(self.n));
        out.insert("start".into(), Json::from(self.start));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<Discrete> {
        let start = match ju::opt_field(m, "start") {
            None => 0,
            Some(j) => {
                let s = ju::json_to_i128(j, "start")?;
                i64::try_from(s).map_err(|_| Error::value(format!("start ({s}) does not fit int64")))?
            }
        };
        Discrete::new(name, ju::get_u64(m, "n")?, start)
    }
    /// A sample is one number, held in its `Value`.
    fn sample_bytes(&self) -> u64 {
        0
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = vec![self.n.to_string()];
        if self.start != 0 {
            parts.push(format!("start={}", self.start));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for Discrete {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        Value::Int(self.start.wrapping_add(rng.below(self.n) as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};
    use crate::value::DType;

    #[test]
    fn range_is_start_to_start_plus_n() {
        let d = Discrete::new("d", 3, -1).unwrap();
        assert!(d.contains(&Value::Int(-1)) && d.contains(&Value::Int(1)));
        assert!(!d.contains(&Value::Int(2)) && !d.contains(&Value::Int(-2)));
        assert!(!d.contains(&Value::Float(0.0)));
        let zero_d = Array::new(vec![], ArrayData::I32(vec![0])).unwrap();
        assert!(d.contains(&Value::Array(zero_d)));
        let mut r = Rng::seed_from_u64(0);
        let mut seen = [false; 3];
        for _ in 0..100 {
            seen[(d.sample_rng(&mut r).as_int().unwrap() + 1) as usize] = true;
        }
        assert_eq!(seen, [true; 3]);
    }

    #[test]
    fn bad_arguments() {
        assert!(Discrete::new("d", 0, 0).unwrap_err().message().contains("n must be positive"));
        assert!(Discrete::new("d", 2, i64::MAX).unwrap_err().message().contains("start"));
        assert!(Discrete::new("d", 1, i64::MAX).is_ok());
        assert!(Discrete::new("", 1, 0).is_err());
    }

    #[test]
    fn batch_and_json() {
        let mut s: Space = Discrete::new("d", 124, 5).unwrap().into();
        let b = s.sample_batch(1000).unwrap();
        assert_eq!(b.shape(), [1000]);
        assert_eq!(b.dtype(), DType::I64);
        assert!(b.data().to_f64_vec().iter().all(|&x| (5.0..129.0).contains(&x)));
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Discrete(d, 124, start=5)");
        let e = s.sample_batch(usize::MAX).unwrap_err();
        assert!(e.message().contains("sample_batch"));
        let huge: Space = Discrete::new("h", u64::MAX / 2, 0).unwrap().into();
        assert_eq!(crate::spaces::flatdim(&huge).unwrap_err().name(), "LimitError");
    }
}
