//! Permutation: orderings of every integer of a scalar range (CompilerGym).

use super::json_util::{self as ju, JsonMap};
use super::repr::ReprOptions;
use super::sequence::parse_scalar;
use super::{check_name, Bound, Kind, Leaf, Scalar, Space};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Permutation {
    name: String,
    scalar_range: Scalar,
    low: i64,
    len: usize,
}

impl Permutation {
    /// TypeError if `scalar_range` is not integral; ValueError if it is
    /// unbounded or too large.
    pub fn new(name: &str, scalar_range: Scalar) -> Result<Permutation> {
        let name = check_name(name, "Permutation name")?;
        let d = scalar_range.dtype();
        if !d.is_integer() {
            return Err(Error::type_error(format!("scalar_range must have an integral dtype, got {d}")));
        }
        if scalar_range.min().is_none() || scalar_range.max().is_none() {
            return Err(Error::value("scalar_range must have both min and max"));
        }
        let (lo, hi) = scalar_range.int_range().expect("integral");
        // Samples are materialised: every value of the range, as int64.
        let len = u64::try_from(hi - lo + 1).unwrap_or(u64::MAX);
        limits::check_bytes(
            limits::bytes(len, DType::I64.size()),
            format_args!("a Permutation of {len} values"),
        )?;
        Ok(Permutation { name, scalar_range, low: lo as i64, len: len as usize })
    }
    pub fn scalar_range(&self) -> &Scalar {
        &self.scalar_range
    }
    /// The number of elements of every permutation.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Kind for Permutation {
    const TYPE: &'static str = "Permutation";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::Array(a) = value else { return false };
        if a.shape() != [self.len] || !a.dtype().is_integer() {
            return false;
        }
        let mut seen = vec![false; self.len];
        (0..self.len).all(|i| {
            let k = a.data().get_i128(i).unwrap_or(-1) - self.low as i128;
            if k < 0 || k >= self.len as i128 || seen[k as usize] {
                return false;
            }
            seen[k as usize] = true;
            true
        })
    }
    fn create_empty(&self) -> Value {
        Value::Array(Array::vector(ArrayData::I64(vec![0; self.len])))
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("scalar_range".into(), Space::from(self.scalar_range.clone()).to_json());
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<Permutation> {
        Permutation::new(name, parse_scalar(ju::field(m, "scalar_range")?)?)
    }
    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(self.len, DType::I64.size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let hi = self.low as i128 + self.len as i128 - 1;
        super::repr::call(Self::TYPE, &self.name, o, &[format!("[{}, {hi}]", self.low)])
    }
}

impl Leaf for Permutation {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let mut v: Vec<i64> = (0..self.len as i64).map(|i| self.low + i).collect();
        rng.shuffle(&mut v);
        Value::Array(Array::vector(ArrayData::I64(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::space_from_json;
    use crate::value::DType;

    fn one_to_three() -> Permutation {
        Permutation::new("p", Scalar::new("r", Some(1.0), Some(3.0), DType::I64).unwrap()).unwrap()
    }

    #[test]
    fn permutations_of_the_range() {
        let p = one_to_three();
        let arr = |v: Vec<i64>| Value::Array(Array::vector(ArrayData::I64(v)));
        assert!(p.contains(&arr(vec![2, 1, 3])));
        assert!(!p.contains(&arr(vec![1, 1, 3])));
        assert!(!p.contains(&arr(vec![1, 2])));
        assert!(!p.contains(&arr(vec![0, 1, 2])));
        let mut r = Rng::seed_from_u64(0);
        for _ in 0..20 {
            assert!(p.contains(&p.sample_rng(&mut r)));
        }
    }

    #[test]
    fn non_integral_range_is_a_type_error() {
        let e =
            Permutation::new("p", Scalar::new("r", Some(0.0), Some(3.0), DType::F64).unwrap()).unwrap_err();
        assert_eq!(e.name(), "TypeError");
        assert!(e.message().contains("scalar_range"));
        let e = Permutation::new("p", Scalar::new("r", Some(0.0), None, DType::I64).unwrap()).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert!(Permutation::new("p", Scalar::new("r", Some(0.0), Some(1e12), DType::I64).unwrap()).is_err());
    }

    #[test]
    fn json() {
        let s: Space = one_to_three().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Permutation(p, [1, 3])");
    }
}
