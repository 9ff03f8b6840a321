//! Rewards over a scalar cost observation (an instruction count, a
//! runtime...): the reward of a step is how much it lowered the cost,
//! possibly scaled.
//!
//! * delta: `previous - cost` (CompilerGym's `CostFunctionReward`);
//! * normalised: `(previous - cost) / initial`, the initial cost being the
//!   unoptimised program's (`NormalizedReward`);
//! * baseline-relative: `(previous - cost) / max(cost_O0 - cost_baseline,
//!   BASELINE_FLOOR * cost_O0, 1)`, so an episode that matches the baseline
//!   pipeline earns 1 (`BaselineImprovementNormalizedReward`) wherever the
//!   baseline does a real job.
//!
//! The floor keeps the baseline-relative reward meaningful where the
//! baseline barely improves. CompilerGym's `max(cost_O0 - cost_baseline, 1)`
//! makes one unit of cost worth a whole baseline's improvement there: where
//! the baseline removes one instruction, removing 23 earns 23, while on a
//! program where it removes 40, removing 46 earns 1.15. With the floor, a
//! baseline that improves the program by less than [`BASELINE_FLOOR`] (5%)
//! of its initial cost counts as improving it by 5%: an episode reward of 1
//! always means the cost fell by at least 5% (and by at least 1), and
//! rewards stay comparable across programs. Where the baseline does a real job the reward is CompilerGym's.
//!
//! The divisor is computed anew at every reset, from the observations of
//! the benchmark being reset to: a reward never keeps the baselines of a
//! previous benchmark, even one replaced under the same URI.
//!
//! "previous" starts at the initial cost. With an `init_cost` observation
//! (one that gives the unoptimised cost at any time, like
//! `IrInstructionCountO0`) nothing is computed at reset; without one, reset
//! observes the cost once.

use super::{observation_as_f64, Reward};
use crate::error::Result;
use crate::spaces::RewardSpace;
use crate::value::Value;
use crate::views::ObservationView;
use std::rc::Rc;

/// The least share of the initial cost a baseline-relative reward divides
/// by: a baseline that improves the program by less counts as improving it
/// by this much.
pub const BASELINE_FLOOR: f64 = 0.05;

/// How the change in cost is scaled.
#[derive(Clone, Debug, PartialEq)]
pub enum Normalization {
    /// Not at all.
    None,
    /// By the initial cost (by 1 if that is 0).
    Initial,
    /// By `max(initial - baseline, BASELINE_FLOOR * initial, 1)`, `baseline`
    /// being the cost after the baseline pipeline, read from this
    /// observation space.
    Baseline(Rc<str>),
}

#[derive(Clone, Debug)]
pub struct CostReward {
    space: Rc<RewardSpace>,
    cost: Rc<str>,
    init_cost: Option<Rc<str>>,
    normalization: Normalization,
    previous: Option<f64>,
    /// The divisor of this episode, computed at its first update (or reset).
    scale: Option<f64>,
}

impl CostReward {
    fn new(space: RewardSpace, cost: &str, normalization: Normalization) -> CostReward {
        CostReward {
            space: Rc::new(space.with_observation_spaces(vec![cost.to_string()])),
            cost: cost.into(),
            init_cost: None,
            normalization,
            previous: None,
            scale: None,
        }
    }

    /// `previous - cost`. `space` gives the name and metadata; its
    /// observation spaces are set to `[cost]`.
    pub fn delta(space: RewardSpace, cost: &str) -> CostReward {
        Self::new(space, cost, Normalization::None)
    }

    /// `(previous - cost) / initial cost`.
    pub fn normalized(space: RewardSpace, cost: &str) -> CostReward {
        Self::new(space, cost, Normalization::Initial)
    }

    /// `(previous - cost) / max(init_cost - baseline_cost, BASELINE_FLOOR * init_cost, 1)`.
    pub fn baseline_relative(
        space: RewardSpace,
        cost: &str,
        init_cost: &str,
        baseline_cost: &str,
    ) -> CostReward {
        Self::new(space, cost, Normalization::Baseline(baseline_cost.into())).with_init_cost(init_cost)
    }

    /// Reads the initial cost from this observation space, lazily.
    pub fn with_init_cost(mut self, init_cost: &str) -> CostReward {
        self.init_cost = Some(init_cost.into());
        self
    }

    pub fn normalization(&self) -> &Normalization {
        &self.normalization
    }

    /// The observation whose fall the reward pays for.
    pub fn cost(&self) -> &str {
        &self.cost
    }

    /// The reward of a step lowering the cost from `before` to `after`,
    /// from costs measured elsewhere (the playground runs programs in a
    /// worker): `initial` is the unoptimised cost, `baseline` the cost after
    /// the baseline pipeline, each read only if the normalisation needs it.
    /// The same divisor as a step of the environment.
    pub fn reward_from_costs(
        &self,
        before: f64,
        after: f64,
        initial: impl FnOnce() -> Result<f64>,
        baseline: impl FnOnce(&str) -> Result<f64>,
    ) -> Result<f64> {
        Ok((before - after) / self.normalization.divisor(initial, baseline)?)
    }

    fn observe(&self, view: &ObservationView, id: &str) -> Result<f64> {
        observation_as_f64(&view.get(id)?, self.name(), id)
    }

    fn initial_cost(&self, view: &ObservationView) -> Result<f64> {
        self.observe(view, self.init_cost.as_deref().unwrap_or(&self.cost))
    }

    fn compute_scale(&self, view: &ObservationView, initial: Option<f64>) -> Result<f64> {
        self.normalization.divisor(
            || initial.map_or_else(|| self.initial_cost(view), Ok),
            |baseline| self.observe(view, baseline),
        )
    }
}

impl Normalization {
    /// What a change in cost is divided by, given the initial cost and the
    /// cost after the baseline pipeline (named by `Baseline`), each asked
    /// for only if needed.
    pub fn divisor(
        &self,
        initial: impl FnOnce() -> Result<f64>,
        baseline: impl FnOnce(&str) -> Result<f64>,
    ) -> Result<f64> {
        Ok(match self {
            Normalization::None => 1.0,
            // A zero initial cost cannot scale anything: fall back to 1.
            Normalization::Initial => match initial()? {
                0.0 => 1.0,
                x => x,
            },
            Normalization::Baseline(name) => {
                let initial = initial()?;
                baseline_divisor(initial, baseline(name)?)
            }
        })
    }
}

/// The divisor of a baseline-relative reward: the baseline's improvement,
/// at least [`BASELINE_FLOOR`] of the initial cost and at least 1.
pub fn baseline_divisor(initial: f64, baseline: f64) -> f64 {
    (initial - baseline).max(BASELINE_FLOOR * initial).max(1.0)
}

impl Reward for CostReward {
    fn space(&self) -> &RewardSpace {
        &self.space
    }

    fn reset(&mut self, _benchmark: &str, view: &ObservationView) -> Result<()> {
        self.previous = None;
        // Even the same URI may name another program now: baselines are
        // observed afresh (the compiler remembers them, so this is cheap).
        self.scale = None;
        if self.init_cost.is_none() {
            // Only now is the cost the initial cost.
            let initial = self.observe(view, &self.cost)?;
            self.previous = Some(initial);
            self.scale = Some(self.compute_scale(view, Some(initial))?);
        }
        Ok(())
    }

    fn update(&mut self, _actions: &[Value], observations: &[Value], view: &ObservationView) -> Result<f64> {
        let cost = match observations.first() {
            Some(v) => observation_as_f64(v, self.name(), &self.cost)?,
            None => self.observe(view, &self.cost)?,
        };
        let previous = match self.previous {
            Some(p) => p,
            // Not reset with an init observation: the initial cost is known
            // only through one; without it this first reward is 0.
            None if self.init_cost.is_some() => self.initial_cost(view)?,
            None => cost,
        };
        let scale = match self.scale {
            Some(s) => s,
            None => {
                let s = self.compute_scale(view, None)?;
                self.scale = Some(s);
                s
            }
        };
        self.previous = Some(cost);
        Ok((previous - cost) / scale)
    }

    fn box_clone(&self) -> Box<dyn Reward> {
        Box::new(self.clone())
    }

    fn as_cost(&self) -> Option<&CostReward> {
        Some(self)
    }
}
