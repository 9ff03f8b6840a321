//! BinarySpace: bool arrays of a fixed shape (UniEnv).

use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::Result;
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct BinarySpace {
    name: String,
    shape: Vec<usize>,
    len: usize,
}

/// Fills `out` with fair bits, 64 per draw; each row of `row` bits starts a
/// fresh draw, so a batch equals consecutive single samples.
pub(crate) fn fill_bits<T>(rng: &mut Rng, out: &mut [T], row: usize, bit: impl Fn(bool) -> T) {
    if row == 0 {
        return;
    }
    for chunk in out.chunks_exact_mut(row) {
        let mut word = 0u64;
        for (i, o) in chunk.iter_mut().enumerate() {
            if i % 64 == 0 {
                word = rng.next_u64();
            }
            *o = bit(word & 1 == 1);
            word >>= 1;
        }
    }
}

/// The shape of a batch of `n` values of `shape`.
pub(crate) fn batch_shape(n: usize, shape: &[usize]) -> Result<Vec<usize>> {
    let mut s = Vec::with_capacity(shape.len() + 1);
    s.push(n);
    s.extend_from_slice(shape);
    super::checked_len(&s, 1, "sample_batch of shape")?;
    Ok(s)
}

impl BinarySpace {
    pub fn new(name: &str, shape: Vec<usize>) -> Result<BinarySpace> {
        let name = check_name(name, "Binary name")?;
        let len = super::checked_len(&shape, DType::Bool.size(), "a Binary of shape")?;
        Ok(BinarySpace { name, shape, len })
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn sample_batch(&self, rng: &mut Rng, n: usize) -> Result<Array> {
        let shape = batch_shape(n, &self.shape)?;
        let mut out = vec![false; n * self.len];
        fill_bits(rng, &mut out, self.len, |b| b);
        Array::new(shape, ArrayData::Bool(out))
    }
}

impl Kind for BinarySpace {
    const TYPE: &'static str = "Binary";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        matches!(value, Value::Array(a) if a.dtype() == DType::Bool && a.shape() == self.shape.as_slice())
    }
    fn create_empty(&self) -> Value {
        Value::Array(Array::zeros(DType::Bool, self.shape.clone()).expect("checked shape"))
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("shape".into(), ju::shape_to_json(&self.shape));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<BinarySpace> {
        BinarySpace::new(name, ju::shape_from_json(ju::field(m, "shape")?, "shape")?)
    }
    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(self.len, DType::Bool.size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        repr::call(Self::TYPE, &self.name, o, &[format!("shape={}", repr::shape(&self.shape))])
    }
}

impl Leaf for BinarySpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let mut out = vec![false; self.len];
        fill_bits(rng, &mut out, self.len, |b| b);
        Value::Array(Array::new(self.shape.clone(), ArrayData::Bool(out)).expect("sizes agree"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    #[test]
    fn bool_arrays_of_the_shape() {
        let mut s: Space = BinarySpace::new("b", vec![2, 70]).unwrap().into();
        let v = s.sample();
        assert!(s.contains(&v));
        let a = v.as_array().unwrap();
        let ArrayData::Bool(bits) = a.data() else { panic!() };
        assert!(bits.iter().any(|&b| b) && bits.iter().any(|&b| !b));
        assert!(!s.contains(&Value::Array(Array::zeros(DType::U8, vec![2, 70]).unwrap())));
        assert!(!s.contains(&Value::Array(Array::zeros(DType::Bool, vec![70, 2]).unwrap())));
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        s.seed(5);
        let batch = s.sample_batch(3).unwrap();
        assert_eq!(batch.shape(), [3, 2, 70]);
        s.seed(5);
        let first = s.sample();
        assert_eq!(&batch.data().to_f64_vec()[..140], &first.as_array().unwrap().data().to_f64_vec()[..]);
    }
}
