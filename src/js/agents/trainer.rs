//! `PolicyTrainer`: PPO on generated and hand-written programs in chunks
//! (`trainBatch()`, `trainFor(seconds)`), its curve, and the policy it has
//! trained so far. The training is the core's `agents::policy::train`.

use super::convert::{curve_point_json, curve_point_to_js};
use super::policy::JsPolicy;
use crate::agents::policy::train::{TrainOptions, Trainer};
use crate::error::{Error, Result};
use crate::js::env::js_clock;
use crate::js::interop::json::json_to_js;
use crate::js::interop::numbers::js_to_u64;
use crate::js::interop::object::{field, type_of};
use crate::js::interop::options::{check_keys, number, strings};
use crate::js::to_js_error;
use js_sys::Array as JsArray;
use std::cell::{RefCell, RefMut};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type JsResult<T> = std::result::Result<T, JsValue>;

const WHAT: &str = "trainer options";

fn count(options: &JsValue, key: &str) -> Result<Option<usize>> {
    let value = field(options, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let n = js_to_u64(&value, &format!("{WHAT}.{key}"))?;
    usize::try_from(n).map(Some).map_err(|_| Error::value(format!("{WHAT}.{key} is too large: {n}")))
}

fn counts(value: &JsValue, what: &str) -> Result<Vec<usize>> {
    if !JsArray::is_array(value) {
        return Err(Error::type_error(format!(
            "{what} must be an array of integers, got {}",
            type_of(value)
        )));
    }
    let items: &JsArray = value.unchecked_ref();
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let n = js_to_u64(&v, &format!("{what}[{i}]"))?;
            usize::try_from(n).map_err(|_| Error::value(format!("{what}[{i}] is too large: {n}")))
        })
        .collect()
}

/// Reads the trainer's options over `TrainOptions::default()`.
fn train_options(options: &JsValue) -> Result<TrainOptions> {
    let known = [
        "seed",
        "task",
        "episodeLength",
        "hidden",
        "learningRate",
        "batch",
        "epochs",
        "minibatch",
        "clip",
        "gaeLambda",
        "normalizerEpisodes",
        "weightDecay",
        "entropy",
        "valueWeight",
        "maxGradNorm",
        "sizes",
        "validateEvery",
        "validation",
        "programs",
        "programShare",
    ];
    let mut out = TrainOptions { clock: Some(js_clock), ..Default::default() };
    if !check_keys(options, &known, WHAT)? {
        return Ok(out);
    }
    let seed = field(options, "seed")?;
    if !seed.is_undefined() {
        out.seed = js_to_u64(&seed, "trainer options.seed")?;
    }
    let task = field(options, "task")?;
    if !task.is_undefined() {
        let name = crate::js::interop::args::string(&task, "trainer options.task")?;
        out.task = crate::agents::task::Task::by_name(&name)?;
    }
    out.episode_length = count(options, "episodeLength")?.unwrap_or(out.episode_length);
    out.epochs = count(options, "epochs")?.unwrap_or(out.epochs);
    out.minibatch = count(options, "minibatch")?.unwrap_or(out.minibatch);
    out.normalizer_episodes = count(options, "normalizerEpisodes")?.unwrap_or(out.normalizer_episodes);
    out.clip = number(options, "clip", WHAT)?.unwrap_or(out.clip);
    out.gae_lambda = number(options, "gaeLambda", WHAT)?.unwrap_or(out.gae_lambda);
    out.batch = count(options, "batch")?.unwrap_or(out.batch);
    out.validate_every = count(options, "validateEvery")?.unwrap_or(out.validate_every);
    out.learning_rate = number(options, "learningRate", WHAT)?.unwrap_or(out.learning_rate);
    out.entropy = number(options, "entropy", WHAT)?.unwrap_or(out.entropy);
    out.weight_decay = number(options, "weightDecay", WHAT)?.unwrap_or(out.weight_decay);
    out.value_weight = number(options, "valueWeight", WHAT)?.unwrap_or(out.value_weight);
    out.max_grad_norm = number(options, "maxGradNorm", WHAT)?.unwrap_or(out.max_grad_norm);
    out.program_share = number(options, "programShare", WHAT)?.unwrap_or(out.program_share);
    let hidden = field(options, "hidden")?;
    if !hidden.is_undefined() {
        out.hidden = counts(&hidden, "trainer options.hidden")?;
    }
    let sizes = field(options, "sizes")?;
    if !sizes.is_undefined() {
        match counts(&sizes, "trainer options.sizes")?[..] {
            [lo, hi] => {
                let size = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                // [min, max] inclusive, as people write it.
                out.sizes = size(lo)..size(hi).saturating_add(1);
            }
            _ => return Err(Error::type_error("trainer options.sizes must be [min, max]")),
        }
    }
    let validation = field(options, "validation")?;
    if !validation.is_undefined() {
        out.validation = strings(&validation, "trainer options.validation")?;
    }
    let programs = field(options, "programs")?;
    if !programs.is_undefined() {
        out.programs = strings(&programs, "trainer options.programs")?;
    }
    Ok(out)
}

/// Trains a new policy: `new PolicyTrainer({ seed: 1, hidden: [32, 32] })`,
/// then `trainFor(0.5)` as often as time allows, and `policy()`.
#[wasm_bindgen(js_name = PolicyTrainer)]
pub struct JsPolicyTrainer {
    trainer: RefCell<Trainer>,
}

impl JsPolicyTrainer {
    fn trainer(&self) -> Result<RefMut<'_, Trainer>> {
        self.trainer.try_borrow_mut().map_err(|_| Error::service("the trainer is busy"))
    }
}

#[wasm_bindgen(js_class = PolicyTrainer)]
impl JsPolicyTrainer {
    /// A trainer with a new random policy; options default to `compgym
    /// train`'s (`sizes` is `[min, max]` statements of training programs;
    /// `validation`, the benchmark URIs the curve is validated on).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PolicyTrainerOptions | void")] options: JsValue,
    ) -> JsResult<JsPolicyTrainer> {
        let build = || -> Result<JsPolicyTrainer> {
            Ok(JsPolicyTrainer { trainer: RefCell::new(Trainer::new(train_options(&options)?)?) })
        };
        build().map_err(to_js_error)
    }

    /// One update (a batch of episodes); its point of the curve.
    #[wasm_bindgen(js_name = trainBatch, unchecked_return_type = "CurvePoint")]
    pub fn train_batch(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> { Ok(curve_point_to_js(self.trainer()?.train_batch()?)) };
        run().map_err(to_js_error)
    }

    /// Trains for about `seconds` (at least one update); the new points of the curve.
    #[wasm_bindgen(js_name = trainFor, unchecked_return_type = "CurvePoint[]")]
    pub fn train_for(&self, seconds: f64) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(Error::value(format!("seconds must be finite and not negative, got {seconds}")));
            }
            let mut trainer = self.trainer()?;
            let before = trainer.curve().len();
            trainer.train_for(seconds)?;
            let points: Vec<_> = trainer.curve()[before..].iter().map(curve_point_json).collect();
            Ok(json_to_js(&serde_json::Value::Array(points)))
        };
        run().map_err(to_js_error)
    }

    /// The whole curve so far.
    #[wasm_bindgen(getter, unchecked_return_type = "CurvePoint[]")]
    pub fn curve(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let points = self.trainer()?.curve().iter().map(curve_point_json).collect();
            Ok(json_to_js(&serde_json::Value::Array(points)))
        };
        run().map_err(to_js_error)
    }

    /// Seconds of training so far.
    #[wasm_bindgen(getter)]
    pub fn elapsed(&self) -> JsResult<f64> {
        self.trainer().map(|t| t.elapsed()).map_err(to_js_error)
    }

    /// The geometric mean of `baseline / final` over the validation programs,
    /// each one greedy episode of the policy as it is now.
    pub fn validate(&self) -> JsResult<f64> {
        self.trainer().and_then(|mut t| t.validate()).map_err(to_js_error)
    }

    /// The policy trained so far, as it plays once saved (weights at f32).
    pub fn policy(&self) -> JsResult<JsPolicy> {
        self.trainer().map(|t| JsPolicy::wrap(t.trained_policy().rounded())).map_err(to_js_error)
    }
}
