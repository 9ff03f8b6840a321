//! `Rng` for JavaScript: the core's portable generator as a class JS can
//! hold, copy, save (`state`, a 64-digit hex string) and replay. Functional
//! samplers take one and return the advanced copy, leaving the input as it was.

use super::error::to_js_error;
use crate::error::Error;
use crate::js::interop::args;
use crate::js::interop::numbers::{int_to_js, js_to_i64, js_to_u64};
use crate::js::interop::reflect;
use crate::js::interop::typed::{array_data_to_js, read_typed, typed_array};
use crate::limits;
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

    /// A seed drawn for another generator, below 2^53 (the core's one rule,
    /// as Gymnasium's environments seed their action spaces).
    #[wasm_bindgen(js_name = drawSeed)]
    pub fn draw_seed(&self) -> f64 {
        self.with(Rng::draw_seed) as f64
    }

    /// numpy's `choice(a, size)`: an item of `a` (an array or typed array; an
    /// integer n stands for 0..n) drawn uniformly; with `size`, an array of
    /// `size` draws with replacement. Declared in `typescript/values.rs`.
    #[wasm_bindgen(skip_typescript)]
    pub fn choice(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | ArrayLike<unknown>")] a: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] size: JsValue,
    ) -> Result<JsValue, JsValue> {
        let run = || -> Result<JsValue, Error> {
            let pool = Pool::read(&a, "choice: a")?;
            if pool.len() == 0 {
                return Err(Error::value("choice: a must not be empty"));
            }
            match args::optional_count(&size, "choice: size")? {
                None => pool.item(self.with(|r| r.index(pool.len())), "choice: a"),
                Some(size) => {
                    limits::check_bytes(
                        limits::bytes(size.into(), limits::VALUE_SLOT_BYTES),
                        "choice: size",
                    )?;
                    let out = js_sys::Array::new();
                    for _ in 0..size {
                        out.push(&pool.item(self.with(|r| r.index(pool.len())), "choice: a")?);
                    }
                    Ok(out.into())
                }
            }
        };
        run().map_err(to_js_error)
    }

    /// numpy's `permutation(x)`: for an integer n, the numbers 0..n in a
    /// random order; for an array or typed array, a shuffled copy (of the same
    /// kind; a Uint8ClampedArray gives a Uint8Array). Declared in `typescript/values.rs`.
    #[wasm_bindgen(skip_typescript)]
    pub fn permutation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | ArrayLike<unknown>")] x: JsValue,
    ) -> Result<JsValue, JsValue> {
        let run = || -> Result<JsValue, Error> {
            let pool = Pool::read(&x, "permutation: x")?;
            let order = self.with(|r| r.permutation(pool.len()));
            let out = pool.empty_copy(&x, "permutation: x")?;
            pool.write_in_order(&out, &order, "permutation: x")?;
            Ok(out)
        };
        run().map_err(to_js_error)
    }

    /// numpy's `shuffle(x)`: shuffles an array or typed array in place, as
    /// `permutation` would order it.
    pub fn shuffle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown[] | TypedArray")] x: JsValue,
    ) -> Result<(), JsValue> {
        let run = || -> Result<(), Error> {
            let pool = Pool::read(&x, "shuffle: x")?;
            if matches!(pool, Pool::Range(_)) {
                return Err(Error::type_error(
                    "shuffle: x must be an array or a typed array (it is shuffled in place)",
                ));
            }
            let order = self.with(|r| r.permutation(pool.len()));
            pool.write_in_order(&x, &order, "shuffle: x")
        };
        run().map_err(to_js_error)
    }
}

/// What `choice`, `permutation` and `shuffle` draw from: `0..n`, or the items of an array or typed array.
enum Pool {
    Range(usize),
    Items(Vec<JsValue>),
}

impl Pool {
    fn read(value: &JsValue, what: &str) -> Result<Pool, Error> {
        if value.as_f64().is_some() || value.is_bigint() {
            let n = js_to_u64(value, what)?;
            let n = usize::try_from(n).map_err(|_| Error::value(format!("{what} is too large")))?;
            limits::check_bytes(limits::bytes(n as u64, 8), format!("{what} ({n} numbers)"))?;
            return Ok(Pool::Range(n));
        }
        if let Some(info) = typed_array(value) {
            limits::check_bytes(limits::bytes(info.len as u64, limits::VALUE_SLOT_BYTES), what)?;
            let items = (0..info.len as u32)
                .map(|i| js_sys::Reflect::get_u32(value, i).map_err(|e| reflect::threw(what, &e)))
                .collect::<Result<_, _>>()?;
            return Ok(Pool::Items(items));
        }
        if reflect::is_array(value) {
            return Ok(Pool::Items(reflect::items(value, what)?));
        }
        Err(Error::type_error(format!(
            "{what} must be an integer, an array or a typed array, got {}",
            reflect::kind_of(value)
        )))
    }

    fn len(&self) -> usize {
        match self {
            Pool::Range(n) => *n,
            Pool::Items(items) => items.len(),
        }
    }

    fn item(&self, i: usize, what: &str) -> Result<JsValue, Error> {
        match self {
            Pool::Range(_) => Ok(int_to_js(i as i64)),
            Pool::Items(items) => {
                items.get(i).cloned().ok_or_else(|| Error::value(format!("{what} changed length")))
            }
        }
    }

    /// A new container for `len()` items: an array, or a typed array of `x`'s kind.
    fn empty_copy(&self, x: &JsValue, what: &str) -> Result<JsValue, Error> {
        match typed_array(x) {
            Some(info) => Ok(array_data_to_js(&read_typed(x, info, what)?)),
            None => Ok(js_sys::Array::new_with_length(self.len() as u32).into()),
        }
    }

    /// `out[i] = item(order[i])` for every i.
    fn write_in_order(&self, out: &JsValue, order: &[usize], what: &str) -> Result<(), Error> {
        for (i, &from) in order.iter().enumerate() {
            js_sys::Reflect::set_u32(out, i as u32, &self.item(from, what)?)
                .map_err(|e| reflect::threw(what, &e))?;
        }
        Ok(())
    }
}
