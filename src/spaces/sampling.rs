//! Element samplers shared by the numeric spaces.
//!
//! A float element is drawn according to the form of its interval, as in
//! Gymnasium and UniEnv: uniform on `[a, b]`, `a + Exp(1)` on `[a, inf)`,
//! `b - Exp(1)` on `(-inf, b]` and `N(0, 1)` on `(-inf, inf)`. Integers are
//! uniform on their inclusive range, computed without overflow.

use crate::rng::Rng;

/// A float from the interval `[low, high]` (either end may be infinite).
#[inline]
pub fn float_in(rng: &mut Rng, low: f64, high: f64) -> f64 {
    match (low.is_finite(), high.is_finite()) {
        (true, true) => rng.uniform(low, high),
        (true, false) => low + rng.standard_exponential(),
        (false, true) => high - rng.standard_exponential(),
        (false, false) => rng.standard_normal(),
    }
}

/// A float32 from `[low, high]` (bounds already representable as f32): the
/// f64 draw is rounded and then clamped, so rounding cannot leave the box.
#[inline]
pub fn f32_in(rng: &mut Rng, low: f64, high: f64) -> f32 {
    let x = float_in(rng, low, high) as f32;
    x.max(low as f32).min(high as f32)
}

/// A uniform integer in the inclusive range `[low, high]`; any two values
/// of the int64 or uint64 ranges work, including the full ranges.
#[inline]
pub fn int_in(rng: &mut Rng, low: i128, high: i128) -> i128 {
    debug_assert!(low <= high);
    let span = (high - low) as u64; // at most 2^64 - 1
    low + rng.below(span.wrapping_add(1)) as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_kinds() {
        let mut r = Rng::seed_from_u64(1);
        for _ in 0..500 {
            assert!((1.0..=2.0).contains(&float_in(&mut r, 1.0, 2.0)));
            assert!(float_in(&mut r, 3.0, f64::INFINITY) >= 3.0);
            assert!(float_in(&mut r, f64::NEG_INFINITY, -3.0) <= -3.0);
            assert!(float_in(&mut r, f64::NEG_INFINITY, f64::INFINITY).is_finite());
            let x = f32_in(&mut r, 0.0, f32::MIN_POSITIVE as f64);
            assert!((0.0..=f32::MIN_POSITIVE).contains(&x));
        }
        // Unbounded on both sides is normal: both signs appear.
        let xs: Vec<f64> = (0..100).map(|_| float_in(&mut r, f64::NEG_INFINITY, f64::INFINITY)).collect();
        assert!(xs.iter().any(|&x| x < 0.0) && xs.iter().any(|&x| x > 0.0));
    }

    #[test]
    fn integer_ranges_are_inclusive_and_never_overflow() {
        let mut r = Rng::seed_from_u64(2);
        let mut seen = [false; 2];
        for _ in 0..100 {
            let x = int_in(&mut r, 4, 5);
            seen[(x - 4) as usize] = true;
        }
        assert_eq!(seen, [true, true]);
        for _ in 0..100 {
            let x = int_in(&mut r, 0, u64::MAX as i128);
            assert!((0..=u64::MAX as i128).contains(&x));
            let y = int_in(&mut r, i64::MIN as i128, i64::MAX as i128);
            assert!((i64::MIN as i128..=i64::MAX as i128).contains(&y));
        }
        assert_eq!(int_in(&mut r, -7, -7), -7);
    }
}
