//! `SearchAgent`: an agent by name on one program, run in chunks so a
//! worker or a page stays responsive: `runChunk(seconds)` and `step()`
//! report progress, `cancel()` stops it, `result()` is the best found (its
//! actions, cost, CompilerGym state and CSV). The run is the core's
//! `SearchRun`, started from `agents::request::AgentRequest`.

use super::convert::{policy_option, progress_to_js, result_to_js, seconds_limit, steps_limit};
use crate::agents::request::AgentRequest;
use crate::agents::SearchRun;
use crate::error::{Error, Result};
use crate::js::env::js_clock;
use crate::js::interop::json::js_to_json;
use crate::js::interop::numbers::js_to_u64;
use crate::js::interop::object::{call_function, field, type_of};
use crate::js::interop::options::{boolean, check_keys, string};
use crate::js::to_js_error;
use std::cell::{Cell, RefCell, RefMut};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type JsResult<T> = std::result::Result<T, JsValue>;

const OPTIONS: [&str; 9] =
    ["benchmark", "source", "env", "rewardSpace", "seed", "steps", "seconds", "fromBaseline", "policy"];

/// A program of one's own: Bril text, or Bril JSON (an object or its text).
fn source_option(options: &JsValue, what: &str) -> Result<Option<String>> {
    let value = field(options, "source")?;
    if value.is_undefined() {
        return Ok(None);
    }
    match value.as_string() {
        Some(text) => Ok(Some(text)),
        None if value.is_object() => Ok(Some(js_to_json(&value, &format!("{what}.source"))?.to_string())),
        None => Err(Error::type_error(format!(
            "{what}.source must be Bril text or Bril JSON, got {}",
            type_of(&value)
        ))),
    }
}

/// Reads `new SearchAgent(name, options)`'s options.
pub fn agent_request(agent: &str, options: &JsValue) -> Result<AgentRequest> {
    const WHAT: &str = "options";
    let mut request = AgentRequest { agent: agent.to_string(), clock: Some(js_clock), ..Default::default() };
    if !check_keys(options, &OPTIONS, WHAT)? {
        return Err(Error::type_error("options must name the program: { benchmark } or { source }"));
    }
    request.benchmark = string(options, "benchmark", WHAT)?;
    request.source = source_option(options, WHAT)?;
    request.env = string(options, "env", WHAT)?;
    request.reward_space = string(options, "rewardSpace", WHAT)?;
    let seed = field(options, "seed")?;
    if !seed.is_undefined() {
        request.seed = js_to_u64(&seed, "options.seed")?;
    }
    request.steps = steps_limit(options, WHAT)?;
    request.seconds = seconds_limit(options, WHAT)?;
    request.from_baseline = boolean(options, "fromBaseline", WHAT)?.unwrap_or(false);
    request.policy = policy_option(options, WHAT)?;
    Ok(request)
}

/// An agent on one program. `new SearchAgent("explore", { benchmark,
/// seed: 0, seconds: 5 })`; then `runChunk(0.1)` until its status is not
/// `"running"`, and `result()`.
#[wasm_bindgen(js_name = SearchAgent)]
pub struct JsSearchAgent {
    run: RefCell<SearchRun>,
    /// `run()` is under way (its callback may cancel, not run again).
    in_run: Cell<bool>,
    /// The action names, by index, for results.
    action_names: Vec<String>,
}

fn busy() -> Error {
    Error::service("the agent is busy: a progress callback cannot run it re-entrantly (cancel() is allowed)")
}

impl JsSearchAgent {
    pub fn new_from(request: AgentRequest) -> Result<JsSearchAgent> {
        let run = request.start()?;
        let action_names = run.action_names();
        Ok(JsSearchAgent { run: RefCell::new(run), in_run: Cell::new(false), action_names })
    }

    fn run_mut(&self) -> Result<RefMut<'_, SearchRun>> {
        self.run.try_borrow_mut().map_err(|_| busy())
    }
}

#[wasm_bindgen(js_class = SearchAgent)]
impl JsSearchAgent {
    /// Agent `name` (`random`, `greedy`, `beam`, `explore`, `policy`:
    /// LookupError otherwise) on the program of `options` (`benchmark`, or
    /// `source`), lowering the cost of `rewardSpace`, seeded, within `steps`
    /// and `seconds` (defaults 5000 and 10; null for no limit).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentName")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AgentOptions")] options: JsValue,
    ) -> JsResult<JsSearchAgent> {
        crate::js::interop::args::string(&name, "the agent's name")
            .and_then(|name| agent_request(&name, &options))
            .and_then(JsSearchAgent::new_from)
            .map_err(to_js_error)
    }

    /// The agent's name.
    #[wasm_bindgen(getter, unchecked_return_type = "AgentName")]
    pub fn name(&self) -> JsResult<String> {
        self.run_mut().map(|r| r.name().to_string()).map_err(to_js_error)
    }

    /// Works for about `seconds` (at least one piece of work), or until the
    /// run is over; returns the progress.
    #[wasm_bindgen(js_name = runChunk, unchecked_return_type = "AgentProgress")]
    pub fn run_chunk(&self, seconds: f64) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(Error::value(format!("seconds must be finite and not negative, got {seconds}")));
            }
            let mut run = self.run_mut()?;
            run.run_chunk(seconds)?;
            Ok(progress_to_js(&run.progress()))
        };
        run().map_err(to_js_error)
    }

    /// One piece of work (at most a few environment steps); returns the progress.
    #[wasm_bindgen(unchecked_return_type = "AgentProgress")]
    pub fn step(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let mut run = self.run_mut()?;
            run.step_once()?;
            Ok(progress_to_js(&run.progress()))
        };
        run().map_err(to_js_error)
    }

    /// Runs to the end, calling `onProgress(progress)` about every
    /// `everySeconds` (default 0.1); `onProgress` returning `false`, or
    /// calling `cancel()`, stops the run. Returns the result.
    #[wasm_bindgen(unchecked_return_type = "AgentResult")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "((progress: AgentProgress) => boolean | void) | void")]
        on_progress: JsValue,
        every_seconds: Option<f64>,
    ) -> JsResult<JsValue> {
        if self.in_run.replace(true) {
            return Err(to_js_error(busy()));
        }
        let run = || -> Result<JsValue> {
            let every = every_seconds.unwrap_or(0.1);
            if !every.is_finite() || every < 0.0 {
                return Err(Error::value(format!(
                    "everySeconds must be finite and not negative, got {every}"
                )));
            }
            let callback = match on_progress.dyn_ref::<js_sys::Function>() {
                Some(f) => Some(f.clone()),
                None if on_progress.is_undefined() || on_progress.is_null() => None,
                None => {
                    return Err(Error::type_error(format!(
                        "onProgress must be a function, got {}",
                        type_of(&on_progress)
                    )))
                }
            };
            loop {
                // The borrow ends before the callback, which may call cancel().
                let (running, progress) = {
                    let mut run = self.run_mut()?;
                    let running = run.run_chunk(every)?.is_running();
                    (running, progress_to_js(&run.progress()))
                };
                if let Some(f) = &callback {
                    let answer = call_function(f, &JsValue::NULL, &[progress], "onProgress")?;
                    if answer == JsValue::FALSE {
                        self.run_mut()?.cancel();
                    }
                }
                if !running || !self.run_mut()?.status().is_running() {
                    break;
                }
            }
            self.result_js()
        };
        let out = run().map_err(to_js_error);
        self.in_run.set(false);
        out
    }

    /// Stops the run; its result so far stays available.
    pub fn cancel(&self) -> JsResult<()> {
        self.run_mut().map(|mut r| r.cancel()).map_err(to_js_error)
    }

    /// `"running"`, `"done"`, `"out of budget"` or `"cancelled"`.
    #[wasm_bindgen(getter, unchecked_return_type = "AgentStatus")]
    pub fn status(&self) -> JsResult<String> {
        self.run_mut().map(|r| r.status().name().to_string()).map_err(to_js_error)
    }

    #[wasm_bindgen(getter, unchecked_return_type = "AgentProgress")]
    pub fn progress(&self) -> JsResult<JsValue> {
        self.run_mut().map(|r| progress_to_js(&r.progress())).map_err(to_js_error)
    }

    /// The best found so far: actions (indices) and `passes` (their names),
    /// cost, its CompilerGym `state` and `csv`.
    #[wasm_bindgen(unchecked_return_type = "AgentResult")]
    pub fn result(&self) -> JsResult<JsValue> {
        self.result_js().map_err(to_js_error)
    }
}

impl JsSearchAgent {
    fn result_now(&self) -> Result<crate::agents::SearchResult> {
        self.run_mut()?.result()
    }

    fn result_js(&self) -> Result<JsValue> {
        Ok(result_to_js(&self.result_now()?, &self.action_names))
    }
}
