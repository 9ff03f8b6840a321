//! What a live environment holds, counted in bytes by the allocator.
//!
//! An idle environment (made, not in an episode, or back out of one) must be
//! small, so a hundred thousand fit in a wasm instance, and making one must
//! cost the same however many are alive: every environment shares its
//! compiler's spaces, observation specs and datasets (see
//! `CompilerEnv::replica`). The count is process-wide, so the tests take
//! turns. Native only: under wasm32 the library installs the same counting
//! allocator itself.
#![cfg(not(target_arch = "wasm32"))]

use compgym::compilers::registry::make;
use compgym::env::{CompilerEnv, EnvOptions, ResetOptions};
use compgym::limits::heap::{live_bytes, CountingAllocator};
use compgym::value::Value;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The count is process-wide: one test at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The most an idle environment may hold.
const IDLE_BUDGET: u64 = 16 << 10;

/// The bytes each of `n` environments made by `f` holds while all are alive.
fn bytes_each(n: usize, f: impl Fn() -> CompilerEnv) -> (u64, Vec<CompilerEnv>) {
    let before = live_bytes();
    let mut kept = Vec::with_capacity(n);
    let vec_bytes = live_bytes() - before;
    for _ in 0..n {
        kept.push(f());
    }
    let after = live_bytes();
    ((after - before - vec_bytes) / n as u64, kept)
}

fn ic(benchmark: Option<&str>) -> EnvOptions {
    EnvOptions { benchmark: benchmark.map(String::from), ..Default::default() }
}

#[test]
fn idle_environments_are_small_and_share_what_never_changes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // The first environment builds what all share; it is not counted.
    drop(make("bril-ic-v0", EnvOptions::default()).unwrap());

    for id in ["bril-v0", "bril-ic-v0", "bril-runtime-v0", "bril-ir-ic-v0"] {
        let (each, kept) = bytes_each(500, || make(id, EnvOptions::default()).unwrap());
        eprintln!("{id}: {each} B per idle environment");
        assert!(each <= IDLE_BUDGET, "an idle {id} holds {each} bytes, over {IDLE_BUDGET}");
        drop(kept);
    }

    // O(1): with two thousand alive, the next five hundred cost what the first did.
    let (first, mut alive) = bytes_each(2000, || make("bril-ic-v0", EnvOptions::default()).unwrap());
    let (later, more) = bytes_each(500, || make("bril-ic-v0", EnvOptions::default()).unwrap());
    eprintln!("bril-ic-v0: {first} B each of the first 2000, {later} B each of the next 500");
    assert!(later <= first + 64, "an environment costs more when many are alive: {first} then {later}");
    alive.extend(more);

    // Dropping them gives everything back (nothing shared grows per environment).
    let before = live_bytes();
    drop(alive);
    let freed = before - live_bytes();
    assert!(freed >= 2500 * (first.min(later) / 2), "dropping 2500 environments freed only {freed} bytes");

    // After an episode and close, an environment is idle again and small.
    let benchmark = Some("benchmark://suite-v0/fib-iter");
    let (each, kept) = bytes_each(200, || {
        let mut e = make("bril-ic-v0", ic(benchmark)).unwrap();
        e.reset(ResetOptions::default()).unwrap();
        e.step(Value::Int(0)).unwrap();
        e.close();
        e
    });
    eprintln!("bril-ic-v0 after an episode and close: {each} B");
    assert!(each <= IDLE_BUDGET, "an environment back from an episode holds {each} bytes");
    drop(kept);
}

#[test]
fn environments_made_from_the_shared_prototype_are_independent() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let options = EnvOptions {
        benchmark: Some("benchmark://suite-v0/fib-iter".into()),
        observation_space: Some(Some("IrInstructionCount".into())),
        max_episode_steps: Some(3),
        ..Default::default()
    };
    let mut a = make("bril-ic-v0", options.clone()).unwrap();
    let mut b = make("bril-ic-v0", options).unwrap();
    let plain = make("bril-v0", EnvOptions::default()).unwrap();
    assert!(plain.reward_space().is_none() && plain.observation_space().is_none());
    assert_eq!(a.max_episode_steps(), Some(3));
    assert_eq!(plain.max_episode_steps(), None);
    assert_eq!(a.observation_space().unwrap().id, "IrInstructionCount");
    a.reset(ResetOptions::default()).unwrap();
    b.reset(ResetOptions::default()).unwrap();
    let start = a.observation().get("IrInstructionCount").unwrap();
    for _ in 0..3 {
        a.step(Value::Int(0)).unwrap();
    }
    assert_eq!(a.actions().len(), 3);
    assert!(b.actions().is_empty(), "another environment's steps are not this one's");
    assert_eq!(b.observation().get("IrInstructionCount").unwrap(), start);
    // A derived space added to one is not added to the others.
    let derived = a.observation().spaces().len();
    a.observation_mut()
        .add_derived_space("Twice", "IrInstructionCount", std::rc::Rc::new(Ok), Default::default())
        .unwrap();
    assert_eq!(a.observation().spaces().len(), derived + 1);
    assert_eq!(b.observation().spaces().len(), derived);
    assert_eq!(make("bril-v0", EnvOptions::default()).unwrap().observation().spaces().len(), derived);
    // Bad options are refused, and the next environment is made as ever.
    let bad = EnvOptions { observation_space: Some(Some("Nope".into())), ..Default::default() };
    assert_eq!(make("bril-v0", bad).err().unwrap().name(), "LookupError");
    assert!(make("bril-v0", EnvOptions::default()).is_ok());
}

/// An environment reset to one new program after another (a training run
/// on generated programs, a vector of them) keeps the tables of only a few:
/// those reset once are dropped first, so the memory stops growing after
/// the first dozen programs, where it grew with every program up to 256.
#[test]
fn programs_reset_once_are_not_kept() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut env = make("bril-ic-v0", EnvOptions::default()).unwrap();
    let mut play = |seeds: std::ops::Range<u64>| {
        for seed in seeds {
            let uri = format!("generator://random-v1/{seed}?size=60");
            env.reset(ResetOptions { benchmark: Some(uri), ..Default::default() }).unwrap();
            for action in [0, 3, 7, 11] {
                env.step(Value::Int(action)).unwrap();
            }
        }
    };
    // Past the first 80, the thread's cache of parsed programs is full too.
    play(0..80);
    let after_80 = live_bytes();
    play(80..250);
    let after_250 = live_bytes();
    let growth = after_250.saturating_sub(after_80);
    eprintln!("after 80 programs {after_80} B live, after 250 {after_250} B");
    assert!(growth < after_80 / 8, "170 more programs once each added {growth} bytes to {after_80}");
}
