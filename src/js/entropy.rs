//! The host's randomness for the seeds of unseeded spaces. When the module
//! is instantiated, 64 bits from `crypto.getRandomValues` (browsers and
//! Node both have `globalThis.crypto`; `Math.random` where a host lacks it)
//! go into the pool of [`crate::spaces::seeding`], so unseeded spaces sample
//! differently on every page load, as Gymnasium's do on every run.

use crate::spaces::seeding;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buffer: &js_sys::Uint32Array) -> Result<JsValue, JsValue>;
}

/// 64 bits of the host's randomness.
pub fn host_entropy() -> u64 {
    let words = js_sys::Uint32Array::new_with_length(2);
    if get_random_values(&words).is_ok() {
        return (u64::from(words.get_index(0)) << 32) | u64::from(words.get_index(1));
    }
    let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (half() << 32) | half()
}

/// Runs once, when the module is instantiated: the host's randomness for
/// unseeded spaces, and its WebAssembly for the environments' long runs.
#[wasm_bindgen(start)]
fn start() {
    seeding::add_entropy(host_entropy());
    crate::bril::compile::set_host_engine(Some(Box::new(super::tier::HostEngine)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_host_gives_different_bits_each_time() {
        let draws: std::collections::HashSet<u64> = (0..8).map(|_| host_entropy()).collect();
        assert_eq!(draws.len(), 8);
    }
}
