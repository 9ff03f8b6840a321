//! Wall-clock time for episode walltimes, injected because the core has no
//! clock on wasm32 (`std::time::Instant` panics there): JavaScript passes
//! its own (e.g. `performance.now() / 1000`) through a function pointer.

/// Seconds since an arbitrary fixed origin.
pub type Clock = fn() -> f64;

/// Seconds since the first call, from `std::time::Instant`.
#[cfg(not(target_arch = "wasm32"))]
pub fn native_clock() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Always 0: for targets without a clock.
pub fn zero_clock() -> f64 {
    0.0
}

/// The native clock where there is one, else [`zero_clock`].
pub fn default_clock() -> Clock {
    #[cfg(not(target_arch = "wasm32"))]
    {
        native_clock
    }
    #[cfg(target_arch = "wasm32")]
    {
        zero_clock
    }
}
