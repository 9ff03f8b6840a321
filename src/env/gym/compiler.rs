//! [`GymEnv`] for a [`CompilerEnv`]: the environment plus a [`GymFace`],
//! the state Gymnasium adds (the `np_random` generator, the seeded action
//! space, the dataset seeded resets draw from, the spec, the render mode).
//!
//! The face is kept apart from the environment so the JavaScript class can
//! share its `CompilerEnv` with the `CompilerEnv` class (views, states,
//! validation) while the face's rules stay here, in one place:
//!
//! - `reset(Some(seed))` makes a new generator from `seed`, draws the action
//!   space's seed from it (`Rng::draw_seed`, below 2^53 for JavaScript),
//!   then, with a `dataset`, draws the benchmark from it; `reset(None)`
//!   keeps drawing benchmarks from the generator it has. A benchmark in the
//!   reset options is used as given and draws nothing. Nothing is committed
//!   unless the reset succeeds.
//! - The observation is the environment's observation space, or, if it has
//!   none, its first text observation (a Sequence of `str`, Bril's `Ir`):
//!   Gymnasium's API always observes something. Without a reward space the
//!   reward is 0.
//! - Infos are dicts with JavaScript's key spelling: reset gives
//!   `{benchmark, actionMask}`, a step `{actionHadNoEffect, newActionSpace,
//!   actionMask}` and, when the compiler failed (the episode then
//!   terminates), `error: {name, message}`. `actionMask` (a discrete action
//!   space only) is a uint8 array, 1 for an action that may change the
//!   program, 0 for one known to do nothing ([`crate::env::action_mask`]);
//!   when every action is known to do nothing it is all ones and the info
//!   has `fixedPoint: true`.
//! - The `"ansi"` render mode renders the text observation.

use super::{default_entropy, Entropy, GymEnv, GymSpec, GymStep, Metadata};
use crate::env::action_mask::ActionMask;
use crate::env::compiler_env::{CompilerEnv, Observed, ResetOptions};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::spaces::{SequenceDType, Space, SpaceKind};
use crate::value::{Array, ArrayData, Value};

/// How the Gymnasium face draws benchmarks and renders.
#[derive(Clone, Debug, Default)]
pub struct GymOptions {
    /// The dataset every reset draws its benchmark from with the
    /// environment's generator (default: none, resets replay the benchmark).
    pub dataset: Option<String>,
    /// `"ansi"` or `None`.
    pub render_mode: Option<String>,
    /// Seeds the generator of a first reset that was given no seed.
    pub entropy: Option<Entropy>,
}

/// The render modes of compiler environments.
pub const RENDER_MODES: [&str; 1] = ["ansi"];

/// What Gymnasium's API adds to a `CompilerEnv`. See the module docs.
#[derive(Clone, Debug)]
pub struct GymFace {
    np_random: Option<Rng>,
    np_random_seed: Option<u64>,
    dataset: Option<String>,
    action_space: Space,
    /// Counts replacements and reseedings of the action space, so a holder
    /// of a copy knows when to take a new one.
    action_space_generation: u64,
    text_observation: String,
    /// The id of `observation_space` (ids are unique, so comparing them is enough).
    observation_id: String,
    observation_space: Space,
    spec: GymSpec,
    metadata: Metadata,
    render_mode: Option<String>,
    entropy: Entropy,
}

fn is_text(space: &Space) -> bool {
    matches!(space.kind(), SpaceKind::Sequence(s) if s.dtype() == SequenceDType::Str)
}

fn dict(entries: Vec<(&str, Value)>) -> Value {
    Value::Dict(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// Adds `actionMask` (and `fixedPoint` when it applies) to an info's entries.
fn add_action_mask(env: &CompilerEnv, info: &mut Vec<(&str, Value)>) -> Result<()> {
    if let Some(ActionMask { allowed, fixed_point }) = env.action_mask()? {
        info.push(("actionMask", Value::Array(Array::vector(ArrayData::U8(allowed)))));
        if fixed_point {
            info.push(("fixedPoint", Value::Bool(true)));
        }
    }
    Ok(())
}

impl GymFace {
    /// The face of `env`, registered as `id`. Sets the environment's
    /// observation space to its text observation if it has none. LookupError
    /// for an unknown dataset, ValueError for an unknown render mode,
    /// TypeError when the compiler has no text observation to fall back on.
    pub fn new(env: &mut CompilerEnv, id: &str, options: GymOptions) -> Result<GymFace> {
        if let Some(d) = &options.dataset {
            env.datasets().dataset(d).map_err(|e| e.context("dataset"))?;
        }
        if let Some(mode) = &options.render_mode {
            if !RENDER_MODES.contains(&mode.as_str()) {
                return Err(Error::value(format!(
                    "render mode {mode:?} is not one of {RENDER_MODES:?} (or none)"
                )));
            }
        }
        let text_observation =
            env.observation().spaces().iter().find(|s| is_text(&s.space)).map(|s| s.id.clone()).ok_or_else(
                || Error::type_error("the compiler has no text observation to render or fall back on"),
            )?;
        if env.observation_space().is_none() {
            env.set_observation_space(Some(&text_observation))?;
        }
        let (observation_id, observation_space) = match env.observation_space() {
            Some(spec) => (spec.id.clone(), spec.space.clone()),
            None => return Err(Error::lookup("the observation space vanished")),
        };
        let reward_threshold = env.reward_space().and_then(|r| r.space().success_threshold());
        Ok(GymFace {
            np_random: None,
            np_random_seed: None,
            dataset: options.dataset,
            action_space: env.action_space().space.clone(),
            action_space_generation: 0,
            text_observation,
            observation_id,
            observation_space,
            spec: GymSpec {
                id: id.to_string(),
                max_episode_steps: env.max_episode_steps(),
                nondeterministic: false,
                reward_threshold,
            },
            metadata: Metadata {
                render_modes: RENDER_MODES.iter().map(|m| m.to_string()).collect(),
                render_fps: None,
            },
            render_mode: options.render_mode,
            entropy: options.entropy.unwrap_or(default_entropy),
        })
    }

    /// See the module docs.
    pub fn reset(
        &mut self,
        env: &mut CompilerEnv,
        seed: Option<u64>,
        options: ResetOptions,
    ) -> Result<(Value, Value)> {
        let seed = seed.or_else(|| self.np_random.is_none().then(|| (self.entropy)()));
        let mut rng = match (seed, self.np_random) {
            (Some(s), _) => Rng::seed_from_u64(s),
            (None, Some(rng)) => rng,
            (None, None) => return Err(Error::value("the generator has no seed")),
        };
        let action_seed = seed.map(|_| rng.draw_seed());
        let mut options = options;
        if options.benchmark.is_none() {
            if let Some(d) = &self.dataset {
                options.benchmark = Some(env.datasets().random_benchmark_in(d, &mut rng)?);
            }
        }
        if env.observation_space().is_none() && options.observation_space.is_none() {
            options.observation_space = Some(Some(self.text_observation.clone()));
        }
        let observed = env.reset(options)?;
        self.np_random = Some(rng);
        if seed.is_some() {
            self.np_random_seed = seed;
        }
        self.adopt_spaces(env, true, false, action_seed);
        let observation = observed.ok_or_else(|| Error::value("reset gave no observation"))?;
        let mut info = vec![("benchmark", env.benchmark().map_or(Value::None, |b| Value::Str(b.into())))];
        add_action_mask(env, &mut info)?;
        Ok((observation, dict(info)))
    }

    /// Takes the environment's spaces where they changed, and reseeds the
    /// action space with `action_seed` if given. Comparing spaces costs as
    /// much as a step, so after a step only what may have changed is looked
    /// at (the observation space's id; the action space when the compiler
    /// says it changed); a reset (`full`) compares both.
    fn adopt_spaces(
        &mut self,
        env: &CompilerEnv,
        full: bool,
        action_space_changed: bool,
        action_seed: Option<u64>,
    ) {
        if let Some(spec) = env.observation_space() {
            if spec.id != self.observation_id || (full && spec.space != self.observation_space) {
                self.observation_id = spec.id.clone();
                self.observation_space = spec.space.clone();
            }
        }
        let current = &env.action_space().space;
        let replaced = (full || action_space_changed) && *current != self.action_space;
        if replaced {
            // A new action space continues the old one's stream.
            let rng = self.action_space.rng();
            self.action_space = current.clone();
            self.action_space.set_rng(rng);
        }
        if let Some(s) = action_seed {
            self.action_space.seed(s);
        }
        if replaced || action_seed.is_some() {
            self.action_space_generation += 1;
        }
    }

    pub fn step(&mut self, env: &mut CompilerEnv, action: Value) -> Result<GymStep> {
        let result = env.step(action)?;
        self.adopt_spaces(env, false, result.info.new_action_space, None);
        let observation = match result.observation {
            Observed::One(v) => v,
            _ => Value::None,
        };
        let mut info = vec![
            ("actionHadNoEffect", Value::Bool(result.info.action_had_no_effect)),
            ("newActionSpace", Value::Bool(result.info.new_action_space)),
        ];
        if let Some(e) = &result.info.error {
            info.push((
                "error",
                dict(vec![
                    ("name", Value::Str(e.name().into())),
                    ("message", Value::Str(e.message().into())),
                ]),
            ));
        }
        add_action_mask(env, &mut info)?;
        Ok(GymStep {
            observation,
            reward: result.reward.one().copied().unwrap_or(0.0),
            terminated: result.terminated,
            truncated: result.truncated,
            info: dict(info),
        })
    }

    /// The text observation in the `"ansi"` mode, `None` without a mode.
    pub fn render(&self, env: &CompilerEnv) -> Result<Option<Value>> {
        match self.render_mode {
            None => Ok(None),
            Some(_) => env.observation().get(&self.text_observation).map(Some),
        }
    }

    pub fn action_space(&self) -> &Space {
        &self.action_space
    }
    pub fn action_space_mut(&mut self) -> &mut Space {
        &mut self.action_space
    }
    /// Grows whenever [`GymFace::action_space`] is replaced or reseeded.
    pub fn action_space_generation(&self) -> u64 {
        self.action_space_generation
    }
    pub fn observation_space(&self) -> &Space {
        &self.observation_space
    }
    pub fn spec(&self) -> &GymSpec {
        &self.spec
    }
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }
    pub fn render_mode(&self) -> Option<&str> {
        self.render_mode.as_deref()
    }
    pub fn dataset(&self) -> Option<&str> {
        self.dataset.as_deref()
    }
    /// The generator, seeding it from entropy if it has none yet.
    pub fn np_random(&mut self) -> &mut Rng {
        if self.np_random.is_none() {
            let seed = (self.entropy)();
            self.np_random_seed = Some(seed);
        }
        let seed = self.np_random_seed.unwrap_or(0);
        self.np_random.get_or_insert_with(|| Rng::seed_from_u64(seed))
    }
    /// Replaces the generator (its seed becomes unknown, as in Gymnasium).
    pub fn set_np_random(&mut self, rng: Rng) {
        if self.np_random != Some(rng) {
            self.np_random = Some(rng);
            self.np_random_seed = None;
        }
    }
    pub fn np_random_seed(&self) -> Option<u64> {
        self.np_random_seed
    }
}

/// A `CompilerEnv` with Gymnasium's API.
#[derive(Debug)]
pub struct GymCompilerEnv {
    env: CompilerEnv,
    face: GymFace,
}

impl GymCompilerEnv {
    pub fn new(mut env: CompilerEnv, id: &str, options: GymOptions) -> Result<GymCompilerEnv> {
        let face = GymFace::new(&mut env, id, options)?;
        Ok(GymCompilerEnv { env, face })
    }

    /// The compiler environment, for its own API (views, state, validation).
    pub fn compiler_env(&self) -> &CompilerEnv {
        &self.env
    }
    pub fn compiler_env_mut(&mut self) -> &mut CompilerEnv {
        &mut self.env
    }
    /// The Gymnasium face (its action space's generation, its dataset).
    pub fn face(&self) -> &GymFace {
        &self.face
    }

    /// A copy in the same state on its own session, with a copy of the
    /// generator and of the action space's generator.
    pub fn fork(&mut self) -> Result<GymCompilerEnv> {
        Ok(GymCompilerEnv { env: self.env.fork()?, face: self.face.clone() })
    }
}

impl GymEnv for GymCompilerEnv {
    type ResetOptions = ResetOptions;

    fn reset(&mut self, seed: Option<u64>, options: ResetOptions) -> Result<(Value, Value)> {
        self.face.reset(&mut self.env, seed, options)
    }
    fn step(&mut self, action: &Value) -> Result<GymStep> {
        self.face.step(&mut self.env, action.clone())
    }
    fn action_space(&self) -> &Space {
        self.face.action_space()
    }
    fn action_space_mut(&mut self) -> &mut Space {
        self.face.action_space_mut()
    }
    fn observation_space(&self) -> &Space {
        self.face.observation_space()
    }
    fn reward_range(&self) -> (f64, f64) {
        self.env.reward_range()
    }
    fn spec(&self) -> Option<&GymSpec> {
        Some(self.face.spec())
    }
    fn metadata(&self) -> &Metadata {
        self.face.metadata()
    }
    fn render_mode(&self) -> Option<&str> {
        self.face.render_mode()
    }
    fn render(&mut self) -> Result<Option<Value>> {
        self.face.render(&self.env)
    }
    fn close(&mut self) -> Result<()> {
        self.env.close();
        Ok(())
    }
    fn np_random(&mut self) -> &mut Rng {
        self.face.np_random()
    }
    fn np_random_seed(&self) -> Option<u64> {
        self.face.np_random_seed()
    }
}
