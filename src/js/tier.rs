//! The compiling tier's host: the core's `Engine` over the host's own
//! WebAssembly (`WebAssembly.Module` and `Instance`, synchronous, so it works
//! in Node, in workers and on a page for modules under the browser's limit).
//!
//! Instances are kept by module bytes, the most recent few, so running a
//! program again reuses its instance (and the host's optimised code). Any
//! failure (a trap, a stack overflow, a module the host refuses) is `None`:
//! the core then runs the interpreter.

use crate::bril::compile::{Engine, Module};
use js_sys::{Function, Reflect, Uint8Array, WebAssembly};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// Instances kept at once; a program's module is a few kilobytes.
const KEPT: usize = 8;

struct Loaded {
    bytes: Vec<u8>,
    memory: WebAssembly::Memory,
    run: Function,
}

thread_local! {
    /// Most recent first.
    static KEPT_INSTANCES: RefCell<Vec<Loaded>> = const { RefCell::new(Vec::new()) };
}

fn load(bytes: &[u8]) -> Option<Loaded> {
    let module = WebAssembly::Module::new(&Uint8Array::from(bytes).into()).ok()?;
    let instance = WebAssembly::Instance::new(&module, &js_sys::Object::new()).ok()?;
    let exports = instance.exports();
    let memory = Reflect::get(&exports, &JsValue::from_str("memory")).ok()?.dyn_into().ok()?;
    let run = Reflect::get(&exports, &JsValue::from_str("run")).ok()?.dyn_into().ok()?;
    Some(Loaded { bytes: bytes.to_vec(), memory, run })
}

/// The host's WebAssembly as the tier's engine.
pub struct HostEngine;

impl HostEngine {
    fn call(loaded: &Loaded, input: &[u8]) -> Option<Vec<u8>> {
        let view = Uint8Array::new(&loaded.memory.buffer());
        let len = u32::try_from(input.len()).ok()?;
        if view.length() < len {
            return None;
        }
        view.subarray(0, len).copy_from(input);
        let end = loaded.run.call0(&JsValue::UNDEFINED).ok()?.as_f64()?;
        // The memory may have grown (a new buffer): read it afresh.
        let end = u32::try_from(end as u64).ok().filter(|&e| f64::from(e) == end)?;
        let buffer = loaded.memory.buffer();
        let view = Uint8Array::new(&buffer);
        (end <= view.length()).then(|| view.subarray(0, end).to_vec())
    }
}

impl Engine for HostEngine {
    fn run(&mut self, module: &Module, input: &[u8]) -> Option<Vec<u8>> {
        let bytes = module.bytes();
        KEPT_INSTANCES.with(|kept| {
            let mut kept = kept.try_borrow_mut().ok()?;
            let at = kept.iter().position(|l| l.bytes == bytes);
            let loaded = match at {
                Some(i) => kept.remove(i),
                None => load(bytes)?,
            };
            let result = HostEngine::call(&loaded, input);
            kept.insert(0, loaded);
            kept.truncate(KEPT);
            result
        })
    }
}
