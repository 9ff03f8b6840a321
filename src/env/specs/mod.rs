//! Array specs after tf_agents' `ArraySpec` and `BoundedArraySpec`.
//!
//! A [`Spec`] describes the arrays an environment accepts or returns before
//! they exist: a leaf is an [`ArraySpec`] (shape and dtype) or a
//! [`BoundedArraySpec`] (plus inclusive bounds, scalar or per element);
//! [`Spec::Dict`] and [`Spec::List`] nest them.
//!
//! This module is deliberately self-contained. The spaces module maps onto it
//! through the plain constructors here ([`ArraySpec::new`],
//! [`BoundedArraySpec::new`] from shape, dtype, minimum and maximum), so
//! neither depends on the other.

mod check;
mod sample;

pub use check::{check_value, check_value_batched};
pub use sample::{sample_spec, sample_spec_batched};

use crate::error::Result;
use crate::value::{shape_len, Array, ArrayData, DType};
use crate::{bail, ensure};
use std::fmt;

/// The shape, dtype and optional name of an array.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySpec {
    shape: Vec<usize>,
    dtype: DType,
    name: Option<String>,
}

impl ArraySpec {
    pub fn new(shape: Vec<usize>, dtype: DType) -> ArraySpec {
        ArraySpec { shape, dtype, name: None }
    }

    /// The same spec with a semantic name (shown in error messages).
    pub fn with_name(mut self, name: impl Into<String>) -> ArraySpec {
        self.name = Some(name.into());
        self
    }

    /// The spec an array conforms to: its shape and dtype.
    pub fn from_array(array: &Array) -> ArraySpec {
        ArraySpec::new(array.shape().to_vec(), array.dtype())
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The same spec with `outer` dimensions put before its shape.
    pub fn with_outer_dims(&self, outer: &[usize]) -> ArraySpec {
        ArraySpec { shape: [outer, &self.shape[..]].concat(), dtype: self.dtype, name: self.name.clone() }
    }
}

/// Inclusive bounds, as given to [`BoundedArraySpec::new`]: one value for
/// every element, or one per element in row-major order.
///
/// Integers are kept exactly (`i128` covers `u64` and `i64`), so bounds of
/// 64-bit dtypes never go through a float.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// The dtype's own limit: the lowest value for a minimum, the highest for a maximum.
    DTypeLimit,
    Int(Vec<i128>),
    Float(Vec<f64>),
}

impl From<i64> for Bound {
    fn from(x: i64) -> Bound {
        Bound::Int(vec![x as i128])
    }
}
impl From<i32> for Bound {
    fn from(x: i32) -> Bound {
        Bound::Int(vec![x as i128])
    }
}
impl From<u64> for Bound {
    fn from(x: u64) -> Bound {
        Bound::Int(vec![x as i128])
    }
}
impl From<f64> for Bound {
    fn from(x: f64) -> Bound {
        Bound::Float(vec![x])
    }
}
impl From<Vec<i64>> for Bound {
    fn from(v: Vec<i64>) -> Bound {
        Bound::Int(v.into_iter().map(i128::from).collect())
    }
}
impl From<Vec<f64>> for Bound {
    fn from(v: Vec<f64>) -> Bound {
        Bound::Float(v)
    }
}
impl From<&Array> for Bound {
    /// An array's elements, exactly for integer dtypes.
    fn from(a: &Array) -> Bound {
        let data = a.data();
        if data.dtype().is_float() {
            Bound::Float(data.to_f64_vec())
        } else {
            Bound::Int((0..data.len()).filter_map(|i| data.get_i128(i)).collect())
        }
    }
}

/// Normalised bounds of one [`BoundedArraySpec`]: in the spec's dtype
/// (integers for integer and bool dtypes, floats rounded to the dtype for
/// float ones), one value or one per element.
#[derive(Clone, Debug, PartialEq)]
pub enum Bounds {
    Int(Vec<i128>),
    Float(Vec<f64>),
}

impl Bounds {
    pub fn len(&self) -> usize {
        match self {
            Bounds::Int(v) => v.len(),
            Bounds::Float(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// True when one value bounds every element.
    pub fn is_scalar(&self) -> bool {
        self.len() == 1
    }
    /// The bound of flat element `i` (a scalar bound broadcasts).
    fn int_at(&self, i: usize) -> i128 {
        match self {
            Bounds::Int(v) => v[if v.len() == 1 { 0 } else { i }],
            Bounds::Float(v) => v[if v.len() == 1 { 0 } else { i }] as i128,
        }
    }
    fn float_at(&self, i: usize) -> f64 {
        match self {
            Bounds::Int(v) => v[if v.len() == 1 { 0 } else { i }] as f64,
            Bounds::Float(v) => v[if v.len() == 1 { 0 } else { i }],
        }
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bounds::Int(v) if v.len() == 1 => write!(f, "{}", v[0]),
            Bounds::Float(v) if v.len() == 1 => write!(f, "{}", v[0]),
            Bounds::Int(v) => write!(f, "{v:?}"),
            Bounds::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// An [`ArraySpec`] with inclusive minimum and maximum.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedArraySpec {
    spec: ArraySpec,
    minimum: Bounds,
    maximum: Bounds,
}

impl BoundedArraySpec {
    /// A bounded spec. Each bound is one value or one per element; float
    /// infinities become the dtype's extreme finite values (as tf_agents
    /// does), so every bounded spec can be sampled.
    ///
    /// Errors (ValueError): a bound of the wrong length, NaN, a non-integer
    /// or out-of-range bound for an integer dtype, or `minimum > maximum`.
    pub fn new(
        shape: Vec<usize>,
        dtype: DType,
        minimum: impl Into<Bound>,
        maximum: impl Into<Bound>,
    ) -> Result<BoundedArraySpec> {
        let n = shape_len(&shape)?;
        let minimum =
            normalise_bound(minimum.into(), dtype, n, Limit::Low).map_err(|e| e.context("minimum"))?;
        let maximum =
            normalise_bound(maximum.into(), dtype, n, Limit::High).map_err(|e| e.context("maximum"))?;
        // Scalar bounds need one comparison; per-element ones one per element.
        let comparisons = if minimum.is_scalar() && maximum.is_scalar() { 1 } else { n };
        for i in 0..comparisons {
            let ordered = if dtype.is_float() {
                minimum.float_at(i) <= maximum.float_at(i)
            } else {
                minimum.int_at(i) <= maximum.int_at(i)
            };
            ensure!(ordered, Value, "bounds have minimum greater than maximum: [{minimum}, {maximum}]");
        }
        Ok(BoundedArraySpec { spec: ArraySpec::new(shape, dtype), minimum, maximum })
    }

    /// A spec bounded only by its dtype's range (tf_agents' `from_spec` of an
    /// unbounded spec).
    pub fn from_spec(spec: &ArraySpec) -> BoundedArraySpec {
        let (minimum, maximum) = dtype_limits(spec.dtype);
        BoundedArraySpec { spec: spec.clone(), minimum, maximum }
    }

    pub fn with_name(mut self, name: impl Into<String>) -> BoundedArraySpec {
        self.spec.name = Some(name.into());
        self
    }

    /// The shape, dtype and name, without bounds.
    pub fn array_spec(&self) -> &ArraySpec {
        &self.spec
    }
    pub fn shape(&self) -> &[usize] {
        &self.spec.shape
    }
    pub fn dtype(&self) -> DType {
        self.spec.dtype
    }
    pub fn name(&self) -> Option<&str> {
        self.spec.name()
    }
    pub fn minimum(&self) -> &Bounds {
        &self.minimum
    }
    pub fn maximum(&self) -> &Bounds {
        &self.maximum
    }

    /// The minimum broadcast to a full array of the spec's shape and dtype.
    pub fn minimum_array(&self) -> Result<Array> {
        bounds_array(&self.minimum, &self.spec)
    }
    /// The maximum broadcast to a full array of the spec's shape and dtype.
    pub fn maximum_array(&self) -> Result<Array> {
        bounds_array(&self.maximum, &self.spec)
    }

    /// The same spec with `outer` dimensions put before its shape; per-element
    /// bounds repeat over them.
    pub fn with_outer_dims(&self, outer: &[usize]) -> Result<BoundedArraySpec> {
        let repeat = shape_len(outer)?;
        let tile = |b: &Bounds| match b {
            _ if b.is_scalar() => b.clone(),
            Bounds::Int(v) => Bounds::Int(v.repeat(repeat)),
            Bounds::Float(v) => Bounds::Float(v.repeat(repeat)),
        };
        Ok(BoundedArraySpec {
            spec: self.spec.with_outer_dims(outer),
            minimum: tile(&self.minimum),
            maximum: tile(&self.maximum),
        })
    }

    /// Whether element `i` of `data` (of this spec's dtype) is within the
    /// bounds of flat element `bound_index` of the spec.
    fn contains(&self, data: &ArrayData, i: usize, bound_index: usize) -> bool {
        match data.get_i128(i) {
            Some(x) => self.minimum.int_at(bound_index) <= x && x <= self.maximum.int_at(bound_index),
            None => {
                let x = data.get_f64(i);
                self.minimum.float_at(bound_index) <= x && x <= self.maximum.float_at(bound_index)
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Limit {
    Low,
    High,
}

/// The dtype's range as bounds: integer range, or the extreme finite floats.
fn dtype_limits(dtype: DType) -> (Bounds, Bounds) {
    match dtype.int_range() {
        Some((lo, hi)) => (Bounds::Int(vec![lo]), Bounds::Int(vec![hi])),
        None => {
            let max = if dtype == DType::F32 { f32::MAX as f64 } else { f64::MAX };
            (Bounds::Float(vec![-max]), Bounds::Float(vec![max]))
        }
    }
}

fn normalise_bound(bound: Bound, dtype: DType, n: usize, limit: Limit) -> Result<Bounds> {
    let (lo, hi) = dtype_limits(dtype);
    let len = match &bound {
        Bound::DTypeLimit => 1,
        Bound::Int(v) => v.len(),
        Bound::Float(v) => v.len(),
    };
    ensure!(
        len == 1 || len == n,
        Value,
        "expected one value or {n} (one per element), got {len} for dtype {dtype}"
    );
    let bounds = match (bound, dtype.int_range()) {
        (Bound::DTypeLimit, _) => match limit {
            Limit::Low => lo,
            Limit::High => hi,
        },
        (Bound::Int(v), Some((min, max))) => {
            if let Some(x) = v.iter().find(|&&x| x < min || x > max) {
                bail!(Value, "{x} is outside the range [{min}, {max}] of dtype {dtype}");
            }
            Bounds::Int(v)
        }
        (Bound::Float(v), Some((min, max))) => {
            let mut ints = Vec::with_capacity(v.len());
            for x in v {
                ensure!(x.fract() == 0.0, Value, "{x} is not an integer, as dtype {dtype} needs");
                let i = x as i128;
                ensure!(
                    min <= i && i <= max,
                    Value,
                    "{x} is outside the range [{min}, {max}] of dtype {dtype}"
                );
                ints.push(i);
            }
            Bounds::Int(ints)
        }
        (Bound::Int(v), None) => {
            Bounds::Float(v.into_iter().map(|x| round_to_dtype(x as f64, dtype)).collect())
        }
        (Bound::Float(v), None) => {
            ensure!(v.iter().all(|x| !x.is_nan()), Value, "NaN is not a bound");
            Bounds::Float(v.into_iter().map(|x| round_to_dtype(x, dtype)).collect())
        }
    };
    Ok(bounds)
}

/// A float bound as the dtype holds it; infinities become the extreme finite values.
fn round_to_dtype(x: f64, dtype: DType) -> f64 {
    let max = if dtype == DType::F32 { f32::MAX as f64 } else { f64::MAX };
    let x = x.clamp(-max, max);
    if dtype == DType::F32 {
        x as f32 as f64
    } else {
        x
    }
}

fn bounds_array(bounds: &Bounds, spec: &ArraySpec) -> Result<Array> {
    let n = shape_len(&spec.shape)?;
    let data = match bounds {
        Bounds::Int(_) => int_data(spec.dtype, (0..n).map(|i| bounds.int_at(i)))?,
        Bounds::Float(_) => float_data(spec.dtype, (0..n).map(|i| bounds.float_at(i))),
    };
    Array::new(spec.shape.clone(), data)
}

/// Integer values (already known to fit) as data of an integer or bool dtype.
pub(crate) fn int_data(dtype: DType, values: impl Iterator<Item = i128>) -> Result<ArrayData> {
    if dtype.is_float() {
        bail!(Type, "dtype {dtype} is not an integer dtype");
    }
    Ok(crate::spaces::array_ops::from_i128s(dtype, values))
}

/// Float values as data of a float dtype (any other dtype is a logic error
/// upstream and gets float64).
pub(crate) fn float_data(dtype: DType, values: impl Iterator<Item = f64>) -> ArrayData {
    match dtype {
        DType::F32 => ArrayData::F32(values.map(|x| x as f32).collect()),
        _ => ArrayData::F64(values.collect()),
    }
}

/// A nest of specs: what an action, an observation or a reward looks like.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    Array(ArraySpec),
    Bounded(BoundedArraySpec),
    /// Entries in order; values must have exactly these keys (in any order).
    Dict(Vec<(String, Spec)>),
    List(Vec<Spec>),
}

impl From<ArraySpec> for Spec {
    fn from(s: ArraySpec) -> Spec {
        Spec::Array(s)
    }
}
impl From<BoundedArraySpec> for Spec {
    fn from(s: BoundedArraySpec) -> Spec {
        Spec::Bounded(s)
    }
}

impl Spec {
    /// A dict spec from `(key, spec)` pairs; keys must be unique.
    pub fn dict(entries: Vec<(impl Into<String>, Spec)>) -> Result<Spec> {
        let entries: Vec<(String, Spec)> = entries.into_iter().map(|(k, v)| (k.into(), v)).collect();
        for (i, (k, _)) in entries.iter().enumerate() {
            ensure!(!entries[..i].iter().any(|(j, _)| j == k), Value, "duplicate key {k:?} in a dict spec");
        }
        Ok(Spec::Dict(entries))
    }

    /// The leaf's shape and dtype, if this is a leaf.
    pub fn array_spec(&self) -> Option<&ArraySpec> {
        match self {
            Spec::Array(s) => Some(s),
            Spec::Bounded(b) => Some(b.array_spec()),
            _ => None,
        }
    }

    /// The entry of a dict spec by key.
    pub fn get(&self, key: &str) -> Option<&Spec> {
        match self {
            Spec::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, s)| s),
            _ => None,
        }
    }

    /// Every leaf with `outer` dimensions put before its shape
    /// (tf_agents' `add_outer_dims_nest`).
    pub fn with_outer_dims(&self, outer: &[usize]) -> Result<Spec> {
        Ok(match self {
            Spec::Array(s) => Spec::Array(s.with_outer_dims(outer)),
            Spec::Bounded(b) => Spec::Bounded(b.with_outer_dims(outer)?),
            Spec::Dict(entries) => Spec::Dict(
                entries
                    .iter()
                    .map(|(k, s)| Ok((k.clone(), s.with_outer_dims(outer)?)))
                    .collect::<Result<_>>()?,
            ),
            Spec::List(items) => {
                Spec::List(items.iter().map(|s| s.with_outer_dims(outer)).collect::<Result<_>>()?)
            }
        })
    }
}

/// The specs of the four fields of a [`TimeStep`](crate::env::TimeStep).
#[derive(Clone, Debug, PartialEq)]
pub struct TimeStepSpec {
    pub step_type: Spec,
    pub reward: Spec,
    pub discount: Spec,
    pub observation: Spec,
}

/// The default reward spec: a float32 scalar named `reward`.
pub fn default_reward_spec() -> Spec {
    ArraySpec::new(vec![], DType::F32).with_name("reward").into()
}

/// A scalar int32 spec in `[lo, hi]` named `name`, or unbounded if `lo > hi`.
pub fn bounded_int32(lo: i64, hi: i64, name: &str) -> Spec {
    match BoundedArraySpec::new(vec![], DType::I32, lo, hi) {
        Ok(spec) => spec.with_name(name).into(),
        Err(_) => ArraySpec::new(vec![], DType::I32).with_name(name).into(),
    }
}

/// The default discount spec: a float32 scalar in `[0, 1]` named `discount`.
pub fn default_discount_spec() -> Spec {
    match BoundedArraySpec::new(vec![], DType::F32, 0.0, 1.0) {
        Ok(spec) => spec.with_name("discount").into(),
        // Constant, valid bounds: this arm cannot be reached.
        Err(_) => ArraySpec::new(vec![], DType::F32).with_name("discount").into(),
    }
}

/// The spec of the time steps of an environment with `observation_spec`
/// (tf_agents' `time_step_spec`): step_type int32 scalar, reward
/// `reward_spec` or a float32 scalar, discount float32 in `[0, 1]`.
pub fn time_step_spec(observation_spec: Spec, reward_spec: Option<Spec>) -> TimeStepSpec {
    TimeStepSpec {
        step_type: ArraySpec::new(vec![], DType::I32).with_name("step_type").into(),
        reward: reward_spec.unwrap_or_else(default_reward_spec),
        discount: default_discount_spec(),
        observation: observation_spec,
    }
}

/// Describes a spec leaf for messages: `int32[3, 2] "name" in [0, 5]`.
pub(crate) fn describe_leaf(spec: &Spec) -> String {
    match spec {
        Spec::Array(s) => format!("{}{:?}", s.dtype, s.shape),
        Spec::Bounded(b) => format!("{}{:?} in [{}, {}]", b.dtype(), b.shape(), b.minimum, b.maximum),
        Spec::Dict(entries) => {
            format!("dict with keys {:?}", entries.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>())
        }
        Spec::List(items) => format!("list of {}", items.len()),
    }
}

#[cfg(test)]
mod tests;
