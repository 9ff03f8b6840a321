//! Sampling values from specs (tf_agents' `sample_spec_nest`): every leaf
//! uniformly within its bounds, an unbounded leaf within its dtype's range.

use super::{float_data, int_data, BoundedArraySpec, Bounds, Spec};
use crate::error::Result;
use crate::rng::Rng;
use crate::value::{shape_len, Array, Value};

/// A value conforming to `spec`, drawn from `rng`.
pub fn sample_spec(spec: &Spec, rng: &mut Rng) -> Result<Value> {
    sample_spec_batched(spec, rng, &[])
}

/// A value conforming to `spec` with `outer_dims` (a batch) before every
/// leaf's shape. Integers are uniform over the inclusive bounds; floats are
/// uniform in `[minimum, maximum]`.
pub fn sample_spec_batched(spec: &Spec, rng: &mut Rng, outer_dims: &[usize]) -> Result<Value> {
    Ok(match spec {
        Spec::Array(s) => sample_leaf(&BoundedArraySpec::from_spec(s), rng, outer_dims)?,
        Spec::Bounded(b) => sample_leaf(b, rng, outer_dims)?,
        Spec::Dict(entries) => Value::Dict(
            entries
                .iter()
                .map(|(k, s)| Ok((k.clone(), sample_spec_batched(s, rng, outer_dims)?)))
                .collect::<Result<_>>()?,
        ),
        Spec::List(items) => {
            Value::List(items.iter().map(|s| sample_spec_batched(s, rng, outer_dims)).collect::<Result<_>>()?)
        }
    })
}

fn sample_leaf(spec: &BoundedArraySpec, rng: &mut Rng, outer: &[usize]) -> Result<Value> {
    let shape: Vec<usize> = [outer, spec.shape()].concat();
    let n = shape_len(&shape)?;
    let leaf_len = shape_len(spec.shape())?.max(1);
    let data = match (spec.minimum(), spec.maximum()) {
        (Bounds::Int(_), Bounds::Int(_)) => int_data(
            spec.dtype(),
            (0..n).map(|i| {
                let b = i % leaf_len;
                int_inclusive(rng, spec.minimum().int_at(b), spec.maximum().int_at(b))
            }),
        )?,
        _ => float_data(
            spec.dtype(),
            (0..n).map(|i| {
                let b = i % leaf_len;
                rng.uniform(spec.minimum().float_at(b), spec.maximum().float_at(b))
            }),
        ),
    };
    Ok(Value::Array(Array::new(shape, data)?))
}

/// Uniform in `[lo, hi]` for any bounds of one integer dtype: the span
/// fits in a u64 (at most `u64::MAX` for the u64 and i64 dtypes).
fn int_inclusive(rng: &mut Rng, lo: i128, hi: i128) -> i128 {
    let span = (hi - lo) as u64;
    // span + 1 wraps to 0 for a full 64-bit range, which `below` reads as all bits.
    lo + rng.below(span.wrapping_add(1)) as i128
}
