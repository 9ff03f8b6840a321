//! MultiDiscrete: an array of independent Discrete values, element `i` in
//! `[start[i], start[i] + nvec[i])` (Gymnasium).

use super::array_ops::{can_cast, from_i128s};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::int_in;
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, DType, Value};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct MultiDiscrete {
    name: String,
    nvec: Vec<i128>,
    start: Vec<i128>,
    shape: Vec<usize>,
    dtype: DType,
}

impl MultiDiscrete {
    /// `nvec` and `start` hold one entry per element of `shape` (`start` may be
    /// empty for all zeros); `dtype` must be integral.
    pub fn new(
        name: &str,
        nvec: Vec<i128>,
        start: Vec<i128>,
        shape: Vec<usize>,
        dtype: DType,
    ) -> Result<MultiDiscrete> {
        let name = check_name(name, "MultiDiscrete name")?;
        // `nvec` and `start` are kept as i128, 32 bytes an element.
        let n = super::checked_len(&shape, 32, "a MultiDiscrete of shape")?;
        let Some((dmin, dmax)) = dtype.int_range().filter(|_| dtype != DType::Bool) else {
            return Err(Error::type_error(format!("dtype must be an integer type, got {dtype}")));
        };
        if nvec.len() != n {
            return Err(Error::value(format!("nvec has {} elements but the shape needs {n}", nvec.len())));
        }
        let start = if start.is_empty() { vec![0; n] } else { start };
        if start.len() != n {
            return Err(Error::value(format!("start has {} elements but the shape needs {n}", start.len())));
        }
        for i in 0..n {
            if nvec[i] <= 0 {
                return Err(Error::value(format!("nvec[{i}] must be positive, got {}", nvec[i])));
            }
            if start[i] < dmin || start[i] + nvec[i] - 1 > dmax {
                return Err(Error::value(format!("start[{i}] + nvec[{i}] is outside the range of {dtype}")));
            }
        }
        Ok(MultiDiscrete { name, nvec, start, shape, dtype })
    }
    pub fn nvec(&self) -> &[i128] {
        &self.nvec
    }
    pub fn start(&self) -> &[i128] {
        &self.start
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn dtype(&self) -> DType {
        self.dtype
    }
}

fn ints_from_json(j: &Json, what: &str) -> Result<(Vec<usize>, Vec<i128>)> {
    let (shape, items) = ju::flatten_numbers(j, what)?;
    Ok((shape, items.into_iter().map(|x| ju::json_to_i128(x, what)).collect::<Result<_>>()?))
}

impl Kind for MultiDiscrete {
    const TYPE: &'static str = "MultiDiscrete";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::Array(a) = value else { return false };
        a.shape() == self.shape.as_slice()
            && can_cast(a.dtype(), self.dtype)
            && (0..a.len()).all(|i| {
                a.data().get_i128(i).is_some_and(|x| x >= self.start[i] && x < self.start[i] + self.nvec[i])
            })
    }
    fn create_empty(&self) -> Value {
        Value::Array(Array::zeros(self.dtype, self.shape.clone()).expect("checked shape"))
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("nvec".into(), Json::Array(self.nvec.iter().map(|&x| ju::i128_to_json(x)).collect()));
        out.insert("start".into(), Json::Array(self.start.iter().map(|&x| ju::i128_to_json(x)).collect()));
        out.insert("shape".into(), ju::shape_to_json(&self.shape));
        out.insert("dtype".into(), Json::from(self.dtype.name()));
    }
    /// Also reads Gymnasium's form: `nvec` a nested list giving the shape,
    /// `start` optional, `dtype` defaulting to int64.
    fn from_description(name: &str, m: &JsonMap) -> Result<MultiDiscrete> {
        let (nshape, nvec) = ints_from_json(ju::field(m, "nvec")?, "nvec")?;
        let start = match ju::opt_field(m, "start") {
            Some(j) => ints_from_json(j, "start")?.1,
            None => Vec::new(),
        };
        let shape = match ju::opt_field(m, "shape") {
            Some(j) => ju::shape_from_json(j, "shape")?,
            None => nshape,
        };
        let dtype = match ju::opt_field(m, "dtype") {
            Some(_) => ju::get_dtype(m, "dtype")?,
            None => DType::I64,
        };
        MultiDiscrete::new(name, nvec, start, shape, dtype)
    }
    fn sample_bytes(&self) -> u64 {
        limits::bytes_of(self.nvec.len(), self.dtype.size())
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = vec![repr::bound_list(&self.nvec, |x| x.to_string())];
        if !o.abbreviate && self.start.iter().any(|&s| s != 0) {
            parts.push(format!("start={}", repr::bound_list(&self.start, |x| x.to_string())));
        }
        parts.push(format!("shape={}", repr::shape(&self.shape)));
        if o.include_dtype {
            parts.push(format!("dtype={}", self.dtype));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for MultiDiscrete {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let data = from_i128s(
            self.dtype,
            (0..self.nvec.len()).map(|i| int_in(rng, self.start[i], self.start[i] + self.nvec[i] - 1)),
        );
        Value::Array(Array::new(self.shape.clone(), data).expect("sizes agree"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};
    use crate::value::ArrayData;
    use serde_json::json;

    #[test]
    fn per_element_ranges() {
        let m = MultiDiscrete::new("m", vec![2, 3], vec![0, -1], vec![2], DType::I64).unwrap();
        let arr = |v: Vec<i64>| Value::Array(Array::vector(ArrayData::I64(v)));
        assert!(m.contains(&arr(vec![1, 1])) && m.contains(&arr(vec![0, -1])));
        assert!(!m.contains(&arr(vec![2, 0])) && !m.contains(&arr(vec![0, 2])));
        let mut r = Rng::seed_from_u64(1);
        for _ in 0..50 {
            assert!(m.contains(&m.sample_rng(&mut r)));
        }
    }

    #[test]
    fn bad_arguments_and_gym_form() {
        assert!(MultiDiscrete::new("m", vec![0], vec![], vec![1], DType::I64)
            .unwrap_err()
            .message()
            .contains("nvec[0]"));
        assert!(MultiDiscrete::new("m", vec![2], vec![], vec![2], DType::I64)
            .unwrap_err()
            .message()
            .contains("nvec has 1"));
        assert_eq!(
            MultiDiscrete::new("m", vec![2], vec![], vec![1], DType::F32).unwrap_err().name(),
            "TypeError"
        );
        assert!(MultiDiscrete::new("m", vec![300], vec![], vec![1], DType::U8).is_err());
        let s = space_from_json(&json!({"type": "MultiDiscrete", "name": "m", "nvec": [[2, 3], [4, 5]]}))
            .unwrap();
        let SpaceKind::MultiDiscrete(m) = s.kind() else { panic!() };
        assert_eq!(m.shape(), [2, 2]);
        let s2: Space = m.clone().into();
        assert_eq!(space_from_json(&s2.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "MultiDiscrete(m, [2, 3, 4, 5], shape=(2, 2), dtype=int64)");
    }
    use crate::spaces::SpaceKind;
}
