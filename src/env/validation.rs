//! An environment's state, replaying a state, and validating one: replay it
//! on a fresh session, check the reward, and ask the compiler whether the
//! program still behaves as the benchmark did.

use super::compiler_env::{CompilerEnv, ResetOptions, StepOptions};
use super::state::CompilerEnvState;
use crate::error::{Error, Result};

/// One problem found by [`CompilerEnv::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// What kind of problem: `"Action replay failed"`, `"Reward mismatch"`,
    /// `"Semantics"`.
    pub kind: String,
    pub details: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ValidationResult {
    pub state: CompilerEnvState,
    pub walltime: f64,
    pub actions_replay_failed: bool,
    pub reward_validated: bool,
    pub reward_validation_failed: bool,
    pub benchmark_semantics_validated: bool,
    pub benchmark_semantics_validation_failed: bool,
    pub errors: Vec<ValidationError>,
}

impl ValidationResult {
    /// No problem was found.
    pub fn okay(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Python's `math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-10)`.
fn is_close(a: f64, b: f64) -> bool {
    (a - b).abs() <= f64::max(1e-5 * f64::max(a.abs(), b.abs()), 1e-10)
}

impl CompilerEnv {
    /// The state of the current (or last) episode.
    pub fn state(&self) -> Result<CompilerEnvState> {
        let benchmark =
            self.benchmark().ok_or_else(|| Error::session_not_found("no episode yet: call reset() first"))?;
        Ok(CompilerEnvState {
            benchmark: benchmark.to_string(),
            commandline: self.commandline()?,
            walltime: self.episode_walltime(),
            reward: self.episode_reward(),
        })
    }

    /// Resets to the state's benchmark and replays its commandline. A
    /// failure of the compiler while replaying is a ValueError.
    pub fn apply(&mut self, state: &CompilerEnvState) -> Result<()> {
        self.reset(ResetOptions { benchmark: Some(state.benchmark.clone()), ..Default::default() })?;
        let actions = self.commandline_to_actions(&state.commandline)?;
        if actions.is_empty() {
            return Ok(());
        }
        let result = self.multistep(&actions, &StepOptions::default())?;
        match result.info.error {
            Some(e) => Err(Error::value(format!("replaying the state failed: {e}"))),
            None => Ok(()),
        }
    }

    /// Replays `state` (default: this episode's) on a new session of the
    /// same service, leaving this episode as it is, and reports what differs.
    pub fn validate(&self, state: Option<&CompilerEnvState>) -> Result<ValidationResult> {
        let state = match state {
            Some(s) => s.clone(),
            None => self.state()?,
        };
        let clock = self.clock();
        let start = clock();
        let mut replay = self.sibling();
        let mut result = ValidationResult {
            state: state.clone(),
            walltime: 0.0,
            actions_replay_failed: false,
            reward_validated: false,
            reward_validation_failed: false,
            benchmark_semantics_validated: false,
            benchmark_semantics_validation_failed: false,
            errors: Vec::new(),
        };
        if let Err(e) = replay.apply(&state) {
            result.actions_replay_failed = true;
            result
                .errors
                .push(ValidationError { kind: "Action replay failed".into(), details: e.to_string() });
        } else {
            let deterministic = replay.reward_space().is_some_and(|r| r.space().deterministic());
            if let (true, Some(expected), Some(actual)) =
                (deterministic, state.reward, replay.episode_reward())
            {
                result.reward_validated = true;
                if !is_close(expected, actual) {
                    result.reward_validation_failed = true;
                    result.errors.push(ValidationError {
                        kind: "Reward mismatch".into(),
                        details: format!("expected reward {expected} but received reward {actual}"),
                    });
                }
            }
            let id = replay.link().require_session()?;
            if let Some(problems) = replay.link().with_service(|s| s.validate_session(id))? {
                result.benchmark_semantics_validated = true;
                result.benchmark_semantics_validation_failed = !problems.is_empty();
                result.errors.extend(
                    problems.into_iter().map(|details| ValidationError { kind: "Semantics".into(), details }),
                );
            }
        }
        replay.close();
        result.walltime = (clock() - start).max(0.0);
        Ok(result)
    }
}
