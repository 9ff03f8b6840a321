//! Masked and weighted sampling: Gymnasium 1.x's `sample(mask=...)` and
//! `sample(probability=...)`.
//!
//! A [`Constraint`] holds rows of numbers, one row per independent choice:
//!
//! | space | rows | mask values | probability |
//! |---|---|---|---|
//! | Discrete, NamedDiscrete, Commandline | one, `n` long | 1 may be drawn, 0 not; none allowed gives `start` | `n` weights summing to 1 |
//! | MultiDiscrete | one per element (row-major), `nvec[i]` long | as Discrete, per element (none allowed: `start[i]`) | per element, each summing to 1 |
//! | MultiBinary | one, an entry per element | 0 or 1 fixes the bit, 2 draws it | the chance of each bit being 1 |
//! | Batched of those | the child's rows for each batch element in turn | | |
//!
//! Where several rows are expected, one row holding all of them end to end
//! is accepted too (a vector environment's `n × actions` mask). A row of the
//! wrong length, a mask value outside the table, a weight outside `[0, 1]`
//! or a row of weights whose sum is not 1 (within numpy's `isclose`) is a
//! ValueError; other kinds of space give a TypeError. Nothing is drawn
//! unless the whole constraint is valid, so an error leaves the generator
//! where it was.

use super::array_ops::from_i128s;
use super::batched::BatchedSpace;
use super::{Space, SpaceKind};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{Array, ArrayData, Value};

/// What one constrained sample must respect (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// Gymnasium's `mask`.
    Mask(Vec<Vec<u8>>),
    /// Gymnasium's `probability`.
    Probability(Vec<Vec<f64>>),
}

impl Constraint {
    /// A mask of one row (a Discrete-like space's, or a MultiBinary's).
    pub fn mask(row: Vec<u8>) -> Constraint {
        Constraint::Mask(vec![row])
    }
    /// Probabilities of one row.
    pub fn probability(row: Vec<f64>) -> Constraint {
        Constraint::Probability(vec![row])
    }
    fn what(&self) -> &'static str {
        match self {
            Constraint::Mask(_) => "mask",
            Constraint::Probability(_) => "probability",
        }
    }
}

/// One row of a checked constraint.
#[derive(Clone, Copy)]
enum Row<'a> {
    Mask(&'a [u8]),
    Probability(&'a [f64]),
}

/// Splits `rows` into rows of exactly `lengths` (one flat row holding them
/// all end to end is split); a ValueError naming `what` otherwise.
fn split_rows<'a, T>(rows: &'a [Vec<T>], lengths: &[usize], what: &str) -> Result<Vec<&'a [T]>> {
    let total: usize = lengths.iter().sum();
    if rows.len() == lengths.len() {
        if let Some(i) = (0..rows.len()).find(|&i| rows[i].len() != lengths[i]) {
            let at = if rows.len() == 1 { String::new() } else { format!("[{i}]") };
            return Err(Error::value(format!(
                "{what}{at} has {} values, the space needs {}",
                rows[i].len(),
                lengths[i]
            )));
        }
        return Ok(rows.iter().map(Vec::as_slice).collect());
    }
    if rows.len() == 1 && rows[0].len() == total {
        let mut out = Vec::with_capacity(lengths.len());
        let mut start = 0;
        for &len in lengths {
            out.push(&rows[0][start..start + len]);
            start += len;
        }
        return Ok(out);
    }
    Err(Error::value(format!(
        "{what} has {} rows, the space needs {} (or one row of {total} values)",
        rows.len(),
        lengths.len()
    )))
}

/// Checks a 0/1 mask row (0/1/2 when `random_allowed`).
fn check_mask(row: &[u8], random_allowed: bool, what: &str) -> Result<()> {
    let top = if random_allowed { 2 } else { 1 };
    match row.iter().position(|&x| x > top) {
        Some(i) => Err(Error::value(format!(
            "{what} values must be {}, got {} at {i}",
            if random_allowed { "0, 1 or 2" } else { "0 or 1" },
            row[i]
        ))),
        None => Ok(()),
    }
}

/// Checks probabilities in `[0, 1]`; with `sums_to_one`, that they sum to 1
/// as numpy's `isclose(sum, 1)` does (relative 1e-5, absolute 1e-8).
fn check_probability(row: &[f64], sums_to_one: bool, what: &str) -> Result<()> {
    if let Some(i) = row.iter().position(|p| !(0.0..=1.0).contains(p)) {
        return Err(Error::value(format!("{what} values must be in [0, 1], got {} at {i}", row[i])));
    }
    let sum: f64 = row.iter().sum();
    if sums_to_one && (sum - 1.0).abs() > 1e-8 + 1e-5 {
        return Err(Error::value(format!("{what} must sum to 1, got {sum}")));
    }
    Ok(())
}

/// A position drawn uniformly among the ones of `mask`, or None if it has none.
pub fn pick_masked(rng: &mut Rng, mask: &[u8]) -> Option<usize> {
    let allowed = mask.iter().filter(|&&x| x == 1).count();
    if allowed == 0 {
        return None;
    }
    let k = rng.below(allowed as u64) as usize;
    mask.iter().enumerate().filter(|(_, &x)| x == 1).nth(k).map(|(i, _)| i)
}

/// A position drawn with the chances `weights` (non-negative, not all zero):
/// never one of weight 0.
pub fn pick_weighted(rng: &mut Rng, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let u = rng.next_f64() * total;
    let mut cumulative = 0.0;
    let mut last = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            cumulative += w;
            last = i;
            if u < cumulative {
                return i;
            }
        }
    }
    last // rounding left u at the total: the last possible position
}

/// One choice among `n` values from a checked row; None when a mask allows nothing.
fn choose(rng: &mut Rng, row: Row) -> Option<usize> {
    match row {
        Row::Mask(m) => pick_masked(rng, m),
        Row::Probability(p) => Some(pick_weighted(rng, p)),
    }
}

/// The rows of `constraint` for a space whose choices have `lengths`
/// values, checked (`binary`: MultiBinary's per-element rules).
fn checked_rows<'a>(constraint: &'a Constraint, lengths: &[usize], binary: bool) -> Result<Vec<Row<'a>>> {
    let what = constraint.what();
    match constraint {
        Constraint::Mask(rows) => {
            let rows = split_rows(rows, lengths, what)?;
            rows.iter().try_for_each(|r| check_mask(r, binary, what))?;
            Ok(rows.into_iter().map(Row::Mask).collect())
        }
        Constraint::Probability(rows) => {
            let rows = split_rows(rows, lengths, what)?;
            rows.iter().try_for_each(|r| check_probability(r, !binary, what))?;
            Ok(rows.into_iter().map(Row::Probability).collect())
        }
    }
}

/// The number of values of each independent choice of a leaf that supports
/// constraints, and whether it is MultiBinary; None for other kinds.
fn choices(kind: &SpaceKind) -> Option<(Vec<usize>, bool)> {
    let n = |n: u64| vec![usize::try_from(n).unwrap_or(usize::MAX)];
    match kind {
        SpaceKind::Discrete(d) => Some((n(d.n()), false)),
        SpaceKind::NamedDiscrete(d) => Some((n(d.n()), false)),
        SpaceKind::Commandline(c) => Some((n(c.n()), false)),
        SpaceKind::MultiDiscrete(m) => {
            Some((m.nvec().iter().map(|&k| usize::try_from(k).unwrap_or(usize::MAX)).collect(), false))
        }
        SpaceKind::MultiBinary(m) => Some((vec![m.size()], true)),
        _ => None,
    }
}

fn unsupported(space: &Space) -> Error {
    Error::type_error(format!(
        "sampling with a mask or probability is defined for Discrete, NamedDiscrete, Commandline, \
         MultiDiscrete, MultiBinary and Batched spaces of them, not for {} {:?}",
        space.type_name(),
        space.name()
    ))
}

/// A sample of a leaf from its checked rows.
fn draw_leaf(kind: &SpaceKind, rng: &mut Rng, rows: &[Row]) -> Value {
    match kind {
        SpaceKind::Discrete(d) => {
            Value::Int(d.start().wrapping_add(choose(rng, rows[0]).unwrap_or(0) as i64))
        }
        SpaceKind::NamedDiscrete(_) | SpaceKind::Commandline(_) => {
            Value::Int(choose(rng, rows[0]).unwrap_or(0) as i64)
        }
        SpaceKind::MultiDiscrete(m) => {
            let values = rows
                .iter()
                .zip(m.start())
                .map(|(&row, &start)| start + choose(rng, row).unwrap_or(0) as i128)
                .collect::<Vec<_>>();
            let data = from_i128s(m.dtype(), values.into_iter());
            Value::Array(Array::new(m.shape().to_vec(), data).expect("one value per element"))
        }
        SpaceKind::MultiBinary(m) => {
            let bits = match rows[0] {
                Row::Mask(mask) => {
                    mask.iter().map(|&x| if x == 2 { rng.next_bool() as i8 } else { x as i8 }).collect()
                }
                Row::Probability(p) => p.iter().map(|&p| (rng.next_f64() < p) as i8).collect(),
            };
            Value::Array(Array::new(m.shape().to_vec(), ArrayData::I8(bits)).expect("one bit per element"))
        }
        _ => unreachable!("draw_leaf is called only for kinds with choices"),
    }
}

/// A sample of `space` that respects `constraint`, drawn from `rng` (see
/// the module docs). A Batched space threads `rng` through its elements.
pub fn sample_constrained(space: &Space, rng: &mut Rng, constraint: &Constraint) -> Result<Value> {
    if let Some((lengths, binary)) = choices(space.kind()) {
        let rows = checked_rows(constraint, &lengths, binary)?;
        return Ok(draw_leaf(space.kind(), rng, &rows));
    }
    let SpaceKind::Batched(batched) = space.kind() else { return Err(unsupported(space)) };
    sample_batched(batched, rng, constraint).map_err(|e| {
        if e.name() == "TypeError" {
            unsupported(space)
        } else {
            e
        }
    })
}

fn sample_batched(batched: &BatchedSpace, rng: &mut Rng, constraint: &Constraint) -> Result<Value> {
    let child = batched.space();
    let (lengths, binary) = choices(child.kind()).ok_or_else(|| unsupported(child))?;
    let count = batched.count();
    let all: Vec<usize> = (0..count).flat_map(|_| lengths.iter().copied()).collect();
    let rows = checked_rows(constraint, &all, binary)?;
    let parts = rows.chunks(lengths.len().max(1)).map(|rows| draw_leaf(child.kind(), rng, rows)).collect();
    Ok(batched.assemble_samples(parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{Commandline, CommandlineFlag, Discrete, MultiBinary, MultiDiscrete};
    use crate::value::DType;

    const SEED_3_DRAWS: [i64; 6] = [3, 3, 0, 3, 1, 1];

    fn draw(space: &Space, seed: u64, c: &Constraint) -> Result<Value> {
        sample_constrained(space, &mut Rng::seed_from_u64(seed), c)
    }

    #[test]
    fn discrete_masks_draw_only_allowed_values_and_fall_back_to_start() {
        let d: Space = Discrete::new("d", 5, 10).unwrap().into();
        let mask = Constraint::mask(vec![0, 1, 0, 1, 0]);
        let mut seen = [false; 5];
        let mut rng = Rng::seed_from_u64(1);
        for _ in 0..200 {
            let x = sample_constrained(&d, &mut rng, &mask).unwrap().as_int().unwrap();
            seen[(x - 10) as usize] = true;
        }
        assert_eq!(seen, [false, true, false, true, false]);
        assert_eq!(draw(&d, 2, &Constraint::mask(vec![0; 5])).unwrap(), Value::Int(10), "Gymnasium: start");
        assert_eq!(draw(&d, 3, &mask).unwrap(), draw(&d, 3, &mask).unwrap(), "seeded draws replay");
    }

    /// The same draws as `tests/wasm/spaces_js.rs` makes through JavaScript.
    #[test]
    fn seeded_masked_draws_are_fixed() {
        let d: Space = Discrete::new("d", 5, 0).unwrap().into();
        let mut rng = Rng::seed_from_u64(3);
        let mask = Constraint::mask(vec![1, 1, 0, 1, 1]);
        let draws: Vec<i64> =
            (0..6).map(|_| sample_constrained(&d, &mut rng, &mask).unwrap().as_int().unwrap()).collect();
        assert_eq!(draws, SEED_3_DRAWS);
    }

    #[test]
    fn probabilities_follow_their_weights_and_never_draw_a_zero() {
        let d: Space = Discrete::new("d", 3, 0).unwrap().into();
        let p = Constraint::probability(vec![0.0, 0.25, 0.75]);
        let mut counts = [0usize; 3];
        let mut rng = Rng::seed_from_u64(4);
        for _ in 0..4000 {
            counts[sample_constrained(&d, &mut rng, &p).unwrap().as_int().unwrap() as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        assert!((800..1200).contains(&counts[1]), "{counts:?}");
        assert_eq!(draw(&d, 5, &Constraint::probability(vec![0.0, 0.0, 1.0])).unwrap(), Value::Int(2));
    }

    #[test]
    fn bad_constraints_are_value_errors_and_other_kinds_type_errors() {
        let d: Space = Discrete::new("d", 3, 0).unwrap().into();
        let cases = [
            (Constraint::mask(vec![1, 0]), "mask has 2 values, the space needs 3"),
            (Constraint::mask(vec![1, 0, 2]), "mask values must be 0 or 1, got 2 at 2"),
            (Constraint::probability(vec![0.5, 0.6, -0.1]), "must be in [0, 1], got -0.1 at 2"),
            (Constraint::probability(vec![0.5, 0.4, 0.0]), "must sum to 1, got 0.9"),
            (Constraint::probability(vec![f64::NAN, 0.5, 0.5]), "must be in [0, 1], got NaN"),
            (Constraint::Mask(vec![vec![1; 3], vec![1; 3]]), "mask has 2 rows, the space needs 1"),
        ];
        for (c, message) in cases {
            let e = draw(&d, 1, &c).unwrap_err();
            assert_eq!(e.name(), "ValueError");
            assert!(e.message().contains(message), "{e}");
        }
        let b: Space = crate::spaces::BoxSpace::uniform("b", 0.0, 1.0, None, DType::F32).unwrap().into();
        assert_eq!(draw(&b, 1, &Constraint::mask(vec![1])).unwrap_err().name(), "TypeError");
    }

    #[test]
    fn commandline_is_masked_like_discrete() {
        let flags = ["-a", "-b", "-c"].iter().map(|f| CommandlineFlag::new(f, f, "")).collect();
        let c: Space = Commandline::new("c", flags).unwrap().into();
        assert_eq!(draw(&c, 1, &Constraint::mask(vec![0, 0, 1])).unwrap(), Value::Int(2));
    }

    #[test]
    fn multi_discrete_takes_a_row_per_element_or_one_row_of_all() {
        let m: Space = MultiDiscrete::new("m", vec![2, 3], vec![0, 5], vec![2], DType::I32).unwrap().into();
        let rows = Constraint::Mask(vec![vec![0, 1], vec![0, 0, 0]]);
        let v = draw(&m, 1, &rows).unwrap();
        assert_eq!(v, Value::Array(Array::vector(ArrayData::I32(vec![1, 5]))), "all-zero row: its start");
        let flat = Constraint::mask(vec![0, 1, 0, 0, 0]);
        assert_eq!(draw(&m, 1, &flat).unwrap(), v);
        let p = Constraint::Probability(vec![vec![1.0, 0.0], vec![0.0, 0.0, 1.0]]);
        assert_eq!(draw(&m, 1, &p).unwrap(), Value::Array(Array::vector(ArrayData::I32(vec![0, 7]))));
        let e = draw(&m, 1, &Constraint::Mask(vec![vec![0, 1], vec![1, 1]])).unwrap_err();
        assert!(e.message().contains("mask[1] has 2 values, the space needs 3"), "{e}");
    }

    #[test]
    fn multi_binary_masks_fix_bits_or_draw_them() {
        let m: Space = MultiBinary::new("m", vec![4]).unwrap().into();
        let v = draw(&m, 1, &Constraint::mask(vec![0, 1, 0, 1])).unwrap();
        assert_eq!(v, Value::Array(Array::vector(ArrayData::I8(vec![0, 1, 0, 1]))));
        let mut rng = Rng::seed_from_u64(2);
        let random = Constraint::mask(vec![2, 1, 2, 0]);
        let draws: Vec<Value> = (0..40).map(|_| sample_constrained(&m, &mut rng, &random).unwrap()).collect();
        assert!(draws.iter().all(|v| m.contains(v)));
        let firsts: Vec<i128> =
            draws.iter().map(|v| v.as_array().unwrap().data().get_i128(0).unwrap()).collect();
        assert!(firsts.contains(&0) && firsts.contains(&1), "mask value 2 draws the bit");
        let p = Constraint::probability(vec![1.0, 0.0, 1.0, 0.0]);
        assert_eq!(draw(&m, 3, &p).unwrap(), Value::Array(Array::vector(ArrayData::I8(vec![1, 0, 1, 0]))));
        let e = draw(&m, 1, &Constraint::mask(vec![3, 0, 0, 0])).unwrap_err();
        assert!(e.message().contains("0, 1 or 2"), "{e}");
    }

    #[test]
    fn batched_discretes_take_one_mask_per_element_or_one_flat_mask() {
        let d: Space = Discrete::new("d", 3, 0).unwrap().into();
        let b: Space = BatchedSpace::new("b", d, vec![2]).unwrap().into();
        let flat = Constraint::mask(vec![0, 0, 1, 1, 0, 0]);
        assert_eq!(draw(&b, 1, &flat).unwrap(), Value::Array(Array::vector(ArrayData::I64(vec![2, 0]))));
        let rows = Constraint::Mask(vec![vec![0, 0, 1], vec![1, 0, 0]]);
        assert_eq!(draw(&b, 1, &rows).unwrap(), draw(&b, 1, &flat).unwrap());
        let e = draw(&b, 1, &Constraint::mask(vec![1, 0, 0])).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        let text: Space = crate::spaces::TextSpace::new("t", 1, 2, None).unwrap().into();
        let bt: Space = BatchedSpace::new("bt", text, vec![2]).unwrap().into();
        assert_eq!(draw(&bt, 1, &flat).unwrap_err().name(), "TypeError");
    }
}
