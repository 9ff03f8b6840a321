//! MultiBinary: int8 arrays of zeros and ones (Gymnasium).

use super::binary::{batch_shape, fill_bits};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::Result;
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct MultiBinary {
    name: String,
    shape: Vec<usize>,
    len: usize,
}

impl MultiBinary {
    pub fn new(name: &str, shape: Vec<usize>) -> Result<MultiBinary> {
        let name = check_name(name, "MultiBinary name")?;
        let len = super::checked_len(&shape, DType::I8.size(), "a MultiBinary of shape")?;
        Ok(MultiBinary { name, shape, len })
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// The number of elements (bits) of a sample.
    pub fn size(&self) -> usize {
        self.len
    }
    pub fn sample_batch(&self, rng: &mut Rng, n: usize) -> Result<Array> {
        let shape = batch_shape(n, &self.shape)?;
        let mut out = vec![0i8; n * self.len];
        fill_bits(rng, &mut out, self.len, |b| b as i8);
        Array::new(shape, ArrayData::I8(out))
    }
}

impl Kind for MultiBinary {
    const TYPE: &'static str = "MultiBinary";
    fn name(&self) -> &str {
        &self.name
    }
    /// Any integer or bool array of the shape whose elements are 0 or 1.
    fn contains(&self, value: &Value) -> bool {
        let Value::Array(a) = value else { return false };
        a.shape() == self.shape.as_slice()
            && !a.dtype().is_float()
            && (0..a.len()).all(|i| matches!(a.data().get_i128(i), Some(0 | 1)))
    }
    fn create_empty(&self) -> Value {
        Value::Array(Array::zeros(DType::I8, self.shape.clone()).expect("checked shape"))
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("shape".into(), ju::shape_to_json(&self.shape));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<MultiBinary> {
        MultiBinary::new(name, ju::shape_from_json(ju::field(m, "shape")?, "shape")?)
    }
    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(self.len, DType::I8.size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        repr::call(Self::TYPE, &self.name, o, &[format!("shape={}", repr::shape(&self.shape))])
    }
}

impl Leaf for MultiBinary {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let mut out = vec![0i8; self.len];
        fill_bits(rng, &mut out, self.len, |b| b as i8);
        Value::Array(Array::new(self.shape.clone(), ArrayData::I8(out)).expect("sizes agree"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    #[test]
    fn zeros_and_ones() {
        let mut s: Space = MultiBinary::new("m", vec![4]).unwrap().into();
        for _ in 0..10 {
            let v = s.sample();
            assert!(s.contains(&v));
            assert_eq!(v.as_array().unwrap().dtype(), DType::I8);
        }
        assert!(s.contains(&Value::Array(Array::vector(ArrayData::Bool(vec![true; 4])))));
        assert!(!s.contains(&Value::Array(Array::vector(ArrayData::I64(vec![0, 1, 2, 0])))));
        assert!(!s.contains(&Value::Array(Array::vector(ArrayData::F32(vec![0.0; 4])))));
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.sample_batch(6).unwrap().shape(), [6, 4]);
    }
}
