//! `Leaderboard` (run in chunks, with progress) and `leaderboard(options)`
//! (run to the end): every agent on code size against `-Oz` and runtime
//! against `-O2`, the rows and the table `compgym leaderboard` prints. The
//! plan and the checks are the core's `agents::request::LeaderboardRequest`.

use super::convert::{policy_option, seconds_limit, steps_limit};
use crate::agents::leaderboard::{table, to_json, Leaderboard};
use crate::agents::request::LeaderboardRequest;
use crate::error::{Error, Result};
use crate::js::env::js_clock;
use crate::js::interop::json::json_to_js;
use crate::js::interop::numbers::js_to_u64;
use crate::js::interop::object::{field, set};
use crate::js::interop::options::{boolean, check_keys, strings};
use crate::js::to_js_error;
use js_sys::Object;
use std::cell::{RefCell, RefMut};
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

const WHAT: &str = "leaderboard options";

fn count(options: &JsValue, key: &str) -> Result<Option<u64>> {
    let value = field(options, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    js_to_u64(&value, &format!("{WHAT}.{key}")).map(Some)
}

fn usize_of(n: u64, key: &str) -> Result<usize> {
    usize::try_from(n).map_err(|_| Error::value(format!("{WHAT}.{key} is too large: {n}")))
}

/// Reads the options over `compgym leaderboard`'s defaults (or `--quick`'s).
fn leaderboard_request(options: &JsValue) -> Result<LeaderboardRequest> {
    let known = [
        "quick",
        "tasks",
        "agents",
        "policy",
        "suite",
        "large",
        "generated",
        "size",
        "steps",
        "seconds",
        "fromBaseline",
        "seed",
    ];
    if !check_keys(options, &known, WHAT)? {
        return Ok(LeaderboardRequest { clock: Some(js_clock), ..Default::default() });
    }
    let quick = boolean(options, "quick", WHAT)?.unwrap_or(false);
    let mut r = if quick { LeaderboardRequest::quick() } else { LeaderboardRequest::default() };
    r.clock = Some(js_clock);
    for (key, list) in [("tasks", &mut r.tasks), ("agents", &mut r.agents)] {
        let value = field(options, key)?;
        if !value.is_undefined() {
            *list = strings(&value, &format!("{WHAT}.{key}"))?;
        }
    }
    r.policy = policy_option(options, WHAT)?;
    if let Some(n) = count(options, "suite")? {
        r.suite = Some(usize_of(n, "suite")?);
    }
    if let Some(n) = count(options, "large")? {
        r.large = Some(usize_of(n, "large")?);
    }
    if let Some(n) = count(options, "generated")? {
        r.generated = usize_of(n, "generated")?;
    }
    if let Some(n) = count(options, "size")? {
        r.size = u32::try_from(n).map_err(|_| Error::value(format!("{WHAT}.size is too large: {n}")))?;
    }
    let (steps, seconds) = (steps_limit(options, WHAT)?, seconds_limit(options, WHAT)?);
    r.steps = steps.or(r.steps);
    r.seconds = seconds.or(r.seconds);
    r.from_baseline = boolean(options, "fromBaseline", WHAT)?.unwrap_or(r.from_baseline);
    if let Some(seed) = count(options, "seed")? {
        r.seed = seed;
    }
    Ok(r)
}

/// The leaderboard, run in chunks: `runChunk(seconds)` until it returns
/// `finished`, then `rows` and `table`.
#[wasm_bindgen(js_name = Leaderboard)]
pub struct JsLeaderboard {
    board: RefCell<Leaderboard>,
}

impl JsLeaderboard {
    fn board(&self) -> Result<RefMut<'_, Leaderboard>> {
        self.board.try_borrow_mut().map_err(|_| Error::service("the leaderboard is busy"))
    }
}

fn progress_to_js(board: &Leaderboard) -> JsValue {
    let (done, total) = board.progress();
    let object = Object::new();
    set(&object, "done", &JsValue::from(done as f64));
    set(&object, "total", &JsValue::from(total as f64));
    set(&object, "finished", &JsValue::from(board.done()));
    object.into()
}

#[wasm_bindgen(js_class = Leaderboard)]
impl JsLeaderboard {
    /// Options (all optional): `quick` (4 suite, 2 large and 4 generated
    /// programs at 200 steps), `tasks` (`["size", "runtime"]`), `agents`
    /// (names; `policy` plays the bundled policy, or `policy` given), `suite`,
    /// `large`, `generated` (program counts), `size`, `steps`, `seconds`
    /// (per program; null for no limit), `fromBaseline`, `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "LeaderboardOptions | void")] options: JsValue,
    ) -> JsResult<JsLeaderboard> {
        let build = || -> Result<JsLeaderboard> {
            let options = leaderboard_request(&options)?.options()?;
            Ok(JsLeaderboard { board: RefCell::new(Leaderboard::new(options)) })
        };
        build().map_err(to_js_error)
    }

    /// Works for about `seconds` (at least one piece); the progress
    /// (`{done, total}` programs, `finished`).
    #[wasm_bindgen(js_name = runChunk, unchecked_return_type = "LeaderboardProgress")]
    pub fn run_chunk(&self, seconds: f64) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(Error::value(format!("seconds must be finite and not negative, got {seconds}")));
            }
            let mut board = self.board()?;
            board.run_chunk(seconds)?;
            Ok(progress_to_js(&board))
        };
        run().map_err(to_js_error)
    }

    #[wasm_bindgen(getter, unchecked_return_type = "LeaderboardProgress")]
    pub fn progress(&self) -> JsResult<JsValue> {
        self.board().map(|b| progress_to_js(&b)).map_err(to_js_error)
    }

    /// The rows so far, every program's result in each.
    #[wasm_bindgen(getter, unchecked_return_type = "LeaderboardRow[]")]
    pub fn rows(&self) -> JsResult<JsValue> {
        self.board().map(|b| json_to_js(&to_json(b.rows()))).map_err(to_js_error)
    }

    /// The rows so far as the Markdown table `compgym leaderboard` prints.
    #[wasm_bindgen(getter)]
    pub fn table(&self) -> JsResult<String> {
        self.board().map(|b| table(b.rows())).map_err(to_js_error)
    }
}

/// Runs the leaderboard to the end (see `Leaderboard` for the options; the
/// default takes minutes): `{rows, table}`.
#[wasm_bindgen(js_name = leaderboard, unchecked_return_type = "LeaderboardResult")]
pub fn leaderboard(
    #[wasm_bindgen(unchecked_param_type = "LeaderboardOptions | void")] options: JsValue,
) -> JsResult<JsValue> {
    let run = || -> Result<JsValue> {
        let mut board = Leaderboard::new(leaderboard_request(&options)?.options()?);
        while board.step_once()? {}
        let object = Object::new();
        set(&object, "rows", &json_to_js(&to_json(board.rows())));
        set(&object, "table", &JsValue::from(table(board.rows())));
        Ok(object.into())
    };
    run().map_err(to_js_error)
}
