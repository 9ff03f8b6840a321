//! Sequence: a variable-length string, byte string or 1-d numeric array
//! (CompilerGym), optionally with an opaque data format and a range for the
//! elements.

use super::array_ops::{can_cast, from_f64s, from_i128s};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::{float_in, int_in};
use super::{check_name, space_from_json, Bound, Kind, Leaf, Scalar, SpaceKind};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};
use serde_json::Value as Json;

/// How far past its lower bound a sequence with no upper bound samples its length.
pub const UNBOUNDED_EXTRA_LENGTH: usize = 32;

/// The element type of a [`Sequence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceDType {
    /// A `Value::Str`; the length counts characters.
    Str,
    /// A `Value::Bytes`.
    Bytes,
    /// A 1-d `Value::Array` of this dtype.
    Array(DType),
}

impl SequenceDType {
    pub fn parse(name: &str) -> Result<SequenceDType> {
        match name {
            "str" | "string" => Ok(SequenceDType::Str),
            "bytes" => Ok(SequenceDType::Bytes),
            other => DType::parse(other).map(SequenceDType::Array),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            SequenceDType::Str => "str",
            SequenceDType::Bytes => "bytes",
            SequenceDType::Array(d) => d.name(),
        }
    }
}

/// Checks a `(lo, hi)` size range (the bytes its samples take are checked
/// by the space).
pub(crate) fn check_size_range(lo: usize, hi: Option<usize>) -> Result<()> {
    match hi {
        Some(hi) if lo > hi => Err(Error::value(format!("size_range: lower bound {lo} > upper bound {hi}"))),
        _ => Ok(()),
    }
}

/// The longest sample of a size range: its upper bound, or
/// `lo + UNBOUNDED_EXTRA_LENGTH` when it has none.
pub(crate) fn max_sample_length(lo: usize, hi: Option<usize>) -> usize {
    hi.unwrap_or(lo.saturating_add(UNBOUNDED_EXTRA_LENGTH))
}

/// A length uniform in the size range (up to `lo + UNBOUNDED_EXTRA_LENGTH` when unbounded).
pub(crate) fn sample_length(rng: &mut Rng, lo: usize, hi: Option<usize>) -> usize {
    let hi = max_sample_length(lo, hi);
    int_in(rng, lo as i128, hi as i128) as usize
}

pub(crate) fn size_range_to_json(lo: usize, hi: Option<usize>) -> Json {
    Json::from(vec![Json::from(lo), hi.map_or(Json::Null, Json::from)])
}

pub(crate) fn size_range_from_json(m: &JsonMap) -> Result<(usize, Option<usize>)> {
    let Some(j) = ju::opt_field(m, "size_range") else {
        return Ok((0, None));
    };
    let bad = || Error::type_error(format!("size_range: expected [lo, hi or null], got {j}"));
    let a = j.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
    let to_usize = |x: &Json| -> Result<usize> {
        let i = ju::json_to_i128(x, "size_range")?;
        usize::try_from(i).map_err(|_| Error::value(format!("size_range: bad length {i}")))
    };
    let lo = to_usize(&a[0])?;
    let hi = if a[1].is_null() { None } else { Some(to_usize(&a[1])?) };
    Ok((lo, hi))
}

pub(crate) fn size_range_repr(lo: usize, hi: Option<usize>) -> String {
    format!("size_range=({lo}, {})", hi.map_or("None".to_string(), |h| h.to_string()))
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    name: String,
    size_range: (usize, Option<usize>),
    dtype: SequenceDType,
    opaque_data_format: Option<String>,
    scalar_range: Option<Scalar>,
}

/// Printable ASCII, what string sequences sample from.
const PRINTABLE: std::ops::RangeInclusive<u8> = 0x20..=0x7e;

impl Sequence {
    pub fn new(
        name: &str,
        size_range: (usize, Option<usize>),
        dtype: SequenceDType,
        opaque_data_format: Option<String>,
        scalar_range: Option<Scalar>,
    ) -> Result<Sequence> {
        let name = check_name(name, "Sequence name")?;
        check_size_range(size_range.0, size_range.1)?;
        if scalar_range.is_some() && !matches!(dtype, SequenceDType::Array(_)) {
            return Err(Error::value(format!("scalar_range needs a numeric dtype, not {}", dtype.name())));
        }
        let s = Sequence { name, size_range, dtype, opaque_data_format, scalar_range };
        limits::check_bytes(s.sample_bytes(), "a Sequence sample")?;
        if let Some((lo, hi)) = s.element_int_range() {
            if lo > hi && s.size_range.1 != Some(0) {
                return Err(Error::value(format!("scalar_range holds no value of {}", s.dtype.name())));
            }
        }
        Ok(s)
    }

    pub fn size_range(&self) -> (usize, Option<usize>) {
        self.size_range
    }
    pub fn dtype(&self) -> SequenceDType {
        self.dtype
    }
    pub fn opaque_data_format(&self) -> Option<&str> {
        self.opaque_data_format.as_deref()
    }
    pub fn scalar_range(&self) -> Option<&Scalar> {
        self.scalar_range.as_ref()
    }

    fn length_ok(&self, n: usize) -> bool {
        n >= self.size_range.0 && self.size_range.1.is_none_or(|hi| n <= hi)
    }

    fn element_range(&self) -> (f64, f64) {
        self.scalar_range.as_ref().map_or((f64::NEG_INFINITY, f64::INFINITY), Scalar::range)
    }

    /// For integer elements: the inclusive range of values allowed.
    fn element_int_range(&self) -> Option<(i128, i128)> {
        let SequenceDType::Array(d) = self.dtype else {
            return None;
        };
        let (dmin, dmax) = d.int_range()?;
        let (lo, hi) = self.element_range();
        let lo = if lo.is_finite() { (lo.ceil() as i128).max(dmin) } else { dmin };
        let hi = if hi.is_finite() { (hi.floor() as i128).min(dmax) } else { dmax };
        Some((lo, hi))
    }
}

impl Kind for Sequence {
    const TYPE: &'static str = "Sequence";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        match (value, self.dtype) {
            (Value::Str(s), SequenceDType::Str) => self.length_ok(s.chars().count()),
            (Value::Bytes(b), SequenceDType::Bytes) => self.length_ok(b.len()),
            (Value::Array(a), SequenceDType::Array(d)) => {
                if a.shape().len() != 1 || !self.length_ok(a.len()) || !can_cast(a.dtype(), d) {
                    return false;
                }
                let (lo, hi) = self.element_range();
                (0..a.len()).all(|i| {
                    let x = a.data().get_f64(i);
                    x >= lo && x <= hi
                })
            }
            _ => false,
        }
    }
    fn create_empty(&self) -> Value {
        match self.dtype {
            SequenceDType::Str => Value::Str(String::new()),
            SequenceDType::Bytes => Value::Bytes(Vec::new()),
            SequenceDType::Array(d) => Value::Array(Array::vector(ArrayData::zeros(d, 0))),
        }
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        let sizes = self.size_range.1.is_some();
        let elements = match (&self.scalar_range, self.dtype) {
            (Some(s), _) => s.is_bounded(manner),
            (None, SequenceDType::Array(d)) => !d.is_float(),
            (None, _) => true,
        };
        sizes && elements
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("size_range".into(), size_range_to_json(self.size_range.0, self.size_range.1));
        out.insert("dtype".into(), Json::from(self.dtype.name()));
        out.insert(
            "opaque_data_format".into(),
            self.opaque_data_format.clone().map_or(Json::Null, Json::from),
        );
        out.insert(
            "scalar_range".into(),
            self.scalar_range.clone().map_or(Json::Null, |s| super::Space::from(s).to_json()),
        );
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<Sequence> {
        let (lo, hi) = size_range_from_json(m)?;
        let dtype = match ju::opt_field(m, "dtype") {
            Some(_) => SequenceDType::parse(ju::get_str(m, "dtype")?).map_err(|e| e.context("dtype"))?,
            None => SequenceDType::Bytes,
        };
        let scalar_range = ju::opt_field(m, "scalar_range").map(parse_scalar).transpose()?;
        Sequence::new(name, (lo, hi), dtype, ju::opt_string(m, "opaque_data_format")?, scalar_range)
    }
    /// Strings sample printable ASCII, one byte a character.
    fn sample_bytes(&self) -> u64 {
        let each = match self.dtype {
            SequenceDType::Str | SequenceDType::Bytes => 1,
            SequenceDType::Array(d) => d.size(),
        };
        limits::bytes_of(max_sample_length(self.size_range.0, self.size_range.1), each)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = vec![size_range_repr(self.size_range.0, self.size_range.1)];
        if o.include_dtype {
            parts.push(format!("dtype={}", self.dtype.name()));
        }
        if !o.abbreviate {
            if let Some(s) = &self.scalar_range {
                let (lo, hi) = s.range();
                parts.push(format!("scalar_range=[{}, {}]", repr::float(lo), repr::float(hi)));
            }
            if let Some(f) = &self.opaque_data_format {
                parts.push(format!("opaque_data_format={f}"));
            }
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

/// A Scalar from its full description (used for `scalar_range`).
pub(crate) fn parse_scalar(j: &Json) -> Result<Scalar> {
    match space_from_json(j).map_err(|e| e.context("scalar_range"))?.into_kind() {
        SpaceKind::Scalar(s) => Ok(s),
        other => Err(Error::type_error(format!("scalar_range must be a Scalar, got {}", other.type_name()))),
    }
}

impl Leaf for Sequence {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let n = sample_length(rng, self.size_range.0, self.size_range.1);
        match self.dtype {
            SequenceDType::Str => {
                let span = (PRINTABLE.end() - PRINTABLE.start()) as u64 + 1;
                Value::Str((0..n).map(|_| (PRINTABLE.start() + rng.below(span) as u8) as char).collect())
            }
            SequenceDType::Bytes => Value::Bytes((0..n).map(|_| rng.below(256) as u8).collect()),
            SequenceDType::Array(d) => {
                let data = match self.element_int_range() {
                    Some((lo, hi)) => from_i128s(d, (0..n).map(|_| int_in(rng, lo, hi))),
                    None => {
                        let (lo, hi) = self.element_range();
                        let xs = (0..n).map(|_| float_in(rng, lo, hi));
                        if d == DType::F32 {
                            from_f64s(d, xs.map(|x| (x as f32).clamp(lo as f32, hi as f32) as f64))
                        } else {
                            from_f64s(d, xs)
                        }
                    }
                };
                Value::Array(Array::vector(data))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::Space;

    #[test]
    fn strings_bytes_and_arrays() {
        let s = Sequence::new("s", (0, None), SequenceDType::Str, None, None).unwrap();
        assert!(s.contains(&Value::Str("Hello, world!".into())));
        let b = Sequence::new("b", (256, Some(256)), SequenceDType::Bytes, None, None).unwrap();
        assert!(!b.contains(&Value::Str("Hello, world!".into())));
        assert!(b.contains(&Value::Bytes(vec![0; 256])) && !b.contains(&Value::Bytes(vec![0; 255])));
        let range = Scalar::new("r", Some(0.0), Some(9.0), DType::I64).unwrap();
        let a =
            Sequence::new("a", (1, Some(3)), SequenceDType::Array(DType::I64), None, Some(range)).unwrap();
        assert!(a.contains(&Value::Array(Array::vector(ArrayData::I64(vec![0, 9])))));
        assert!(!a.contains(&Value::Array(Array::vector(ArrayData::I64(vec![10])))));
        assert!(!a.contains(&Value::Array(Array::vector(ArrayData::I64(vec![])))));
        assert!(!a.contains(&Value::Array(Array::vector(ArrayData::F64(vec![1.0])))));
    }

    #[test]
    fn samples_are_contained() {
        let mut r = Rng::seed_from_u64(3);
        let f = Scalar::new("r", Some(-1.0), None, DType::F32).unwrap();
        for s in [
            Sequence::new("s", (2, Some(5)), SequenceDType::Str, None, None).unwrap(),
            Sequence::new("s", (0, None), SequenceDType::Bytes, Some("json".into()), None).unwrap(),
            Sequence::new("s", (0, Some(4)), SequenceDType::Array(DType::U8), None, None).unwrap(),
            Sequence::new("s", (1, Some(4)), SequenceDType::Array(DType::F32), None, Some(f.clone()))
                .unwrap(),
        ] {
            for _ in 0..50 {
                let v = s.sample_rng(&mut r);
                assert!(s.contains(&v), "{s:?} {v:?}");
            }
        }
    }

    #[test]
    fn bad_arguments() {
        let e = Sequence::new("s", (3, Some(2)), SequenceDType::Str, None, None).unwrap_err();
        assert!(e.message().contains("size_range"), "{e}");
        let r = Scalar::new("r", Some(0.0), Some(1.0), DType::F64).unwrap();
        assert!(Sequence::new("s", (0, None), SequenceDType::Str, None, Some(r)).is_err());
        assert_eq!(SequenceDType::parse("complex").unwrap_err().name(), "TypeError");
        let e = space_from_json(&serde_json::json!({"type": "Sequence", "name": "s", "size_range": [5, 1]}))
            .unwrap_err();
        assert!(e.message().contains("size_range"));
    }

    #[test]
    fn json_round_trip() {
        let range = Scalar::new("r", Some(0.0), Some(9.0), DType::I64).unwrap();
        let s: Space =
            Sequence::new("a", (1, None), SequenceDType::Array(DType::I64), Some("fmt".into()), Some(range))
                .unwrap()
                .into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(
            s.to_string(),
            "Sequence(a, size_range=(1, None), dtype=int64, scalar_range=[0.0, 9.0], opaque_data_format=fmt)"
        );
    }
}
