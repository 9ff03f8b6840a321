//! `Rng` for JavaScript: the core's portable generator as a class JS can
//! hold, copy, save (`state`, a 64-digit hex string) and replay. Functional
//! samplers take one and return the advanced copy, leaving the input as it was.

use super::error::to_js_error;
use crate::error::Error;
use crate::js::interop::args;
use crate::js::interop::numbers::{int_to_js, js_to_i64, js_to_u64};
use crate::rng::Rng;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A seeded generator: xoshiro256**, bit-identical to the native build.
#[wasm_bindgen(js_name = Rng)]
#[derive(Clone)]
pub struct JsRng {
    // Shared so a callback handed this object advances the caller's stream.
    inner: Rc<Cell<Rng>>,
}

impl JsRng {
    pub fn from_rng(rng: Rng) -> JsRng {
        JsRng { inner: Rc::new(Cell::new(rng)) }
    }
    /// The generator's current state.
    pub fn get(&self) -> Rng {
        self.inner.get()
    }
    pub fn set(&self, rng: Rng) {
        self.inner.set(rng)
    }
    /// A JS object sharing this generator: what JS advances, Rust sees.
    pub fn share(&self) -> JsRng {
        JsRng { inner: Rc::clone(&self.inner) }
    }
    fn with<T>(&self, f: impl FnOnce(&mut Rng) -> T) -> T {
        let mut rng = self.inner.get();
        let out = f(&mut rng);
        self.inner.set(rng);
        out
    }
}

/// Formats a state as 64 hex digits, word by word.
pub fn state_to_hex(state: [u64; 4]) -> String {
    state.iter().map(|w| format!("{w:016x}")).collect()
}

/// Parses [`state_to_hex`]'s format.
pub fn state_from_hex(hex: &str) -> Result<Rng, Error> {
    let bad = || Error::value(format!("state must be 64 hex digits from Rng.state, got {hex:?}"));
    if hex.len() != 64 || !hex.is_ascii() {
        return Err(bad());
    }
    let mut words = [0u64; 4];
    for (i, word) in words.iter_mut().enumerate() {
        *word = u64::from_str_radix(&hex[16 * i..16 * (i + 1)], 16).map_err(|_| bad())?;
    }
    Rng::from_state(words).ok_or_else(|| Error::value("state must not be all zeros"))
}

#[wasm_bindgen(js_class = Rng)]
impl JsRng {
    /// A generator seeded with `seed` (a non-negative integer or BigInt; default 0).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Seed")] seed: JsValue,
    ) -> Result<JsRng, JsValue> {
        let seed = if seed.is_undefined() { 0 } else { js_to_u64(&seed, "seed").map_err(to_js_error)? };
        Ok(JsRng::from_rng(Rng::seed_from_u64(seed)))
    }

    /// Rebuilds a generator from a saved `state`.
    #[wasm_bindgen(js_name = fromState)]
    pub fn from_state(
        #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    ) -> Result<JsRng, JsValue> {
        let state = args::string(&state, "state").map_err(to_js_error)?;
        state_from_hex(&state).map(JsRng::from_rng).map_err(to_js_error)
    }

    /// The state as 64 hex digits: save it, and `Rng.fromState` replays from here.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        state_to_hex(self.get().state())
    }

    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> String {
        self.state()
    }

    /// An independent copy at the same point of the stream.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> JsRng {
        JsRng::from_rng(self.get())
    }

    /// A new generator seeded from this stream (advances this one).
    pub fn split(&self) -> JsRng {
        JsRng::from_rng(self.with(Rng::split))
    }

    /// Uniform in [0, 1).
    pub fn random(&self) -> f64 {
        self.with(Rng::next_f64)
    }

    /// Uniform in [low, high].
    pub fn uniform(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] low: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] high: JsValue,
    ) -> Result<f64, JsValue> {
        let low = args::number(&low, "low").map_err(to_js_error)?;
        let high = args::number(&high, "high").map_err(to_js_error)?;
        if !(low.is_finite() && high.is_finite() && low <= high) {
            return Err(to_js_error(Error::value(format!(
                "uniform needs finite low <= high, got low={low}, high={high}"
            ))));
        }
        Ok(self.with(|r| r.uniform(low, high)))
    }

    /// A uniform integer in [low, high) (numpy's `integers`); BigInt where it does not fit a number.
    #[wasm_bindgen(unchecked_return_type = "number | bigint")]
    pub fn integers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] low: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] high: JsValue,
    ) -> Result<JsValue, JsValue> {
        let lo = js_to_i64(&low, "low").map_err(to_js_error)?;
        let hi = js_to_i64(&high, "high").map_err(to_js_error)?;
        if lo >= hi {
            return Err(to_js_error(Error::value(format!(
                "integers needs low < high, got low={lo}, high={hi}"
            ))));
        }
        Ok(int_to_js(self.with(|r| r.int_inclusive(lo, hi - 1))))
    }

    /// A standard normal variate.
    pub fn normal(&self) -> f64 {
        self.with(Rng::standard_normal)
    }

    /// An exponential variate with rate 1.
    pub fn exponential(&self) -> f64 {
        self.with(Rng::standard_exponential)
    }

    /// The next 64 raw bits, always as a BigInt.
    #[wasm_bindgen(js_name = nextU64)]
    pub fn next_u64(&self) -> js_sys::BigInt {
        js_sys::BigInt::from(self.with(Rng::next_u64))
    }
}
