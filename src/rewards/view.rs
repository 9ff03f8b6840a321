//! `RewardView`: the reward spaces of an environment by name.

use super::Reward;
use crate::error::{Error, Result};
use crate::views::ObservationView;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone, Default)]
pub struct RewardView {
    /// Cloning clones each reward with its state: forks get their own.
    spaces: Vec<Box<dyn Reward>>,
    by_name: Rc<HashMap<String, usize>>,
}

impl RewardView {
    pub fn new(rewards: Vec<Box<dyn Reward>>) -> RewardView {
        let mut view = RewardView::default();
        for r in rewards {
            view.add_space(r);
        }
        view
    }

    pub fn spaces(&self) -> &[Box<dyn Reward>] {
        &self.spaces
    }

    /// The position of reward `name`; LookupError if unknown.
    pub fn position(&self, name: &str) -> Result<usize> {
        self.by_name.get(name).copied().ok_or_else(|| Error::lookup(format!("unknown reward space {name:?}")))
    }

    pub fn space(&self, name: &str) -> Result<&dyn Reward> {
        Ok(self.spaces[self.position(name)?].as_ref())
    }

    pub fn at_mut(&mut self, position: usize) -> Option<&mut Box<dyn Reward>> {
        self.spaces.get_mut(position)
    }

    pub fn at(&self, position: usize) -> Option<&dyn Reward> {
        self.spaces.get(position).map(|r| r.as_ref())
    }

    /// Adds a reward, replacing one with the same name.
    pub fn add_space(&mut self, reward: Box<dyn Reward>) {
        let name = reward.name().to_string();
        match self.by_name.get(&name) {
            Some(&i) => self.spaces[i] = reward,
            None => {
                Rc::make_mut(&mut self.by_name).insert(name, self.spaces.len());
                self.spaces.push(reward);
            }
        }
    }

    /// Resets every reward for a new episode on `benchmark`.
    pub fn reset(&mut self, benchmark: &str, observation: &ObservationView) -> Result<()> {
        for r in &mut self.spaces {
            r.reset(benchmark, observation).map_err(|e| e.context(r.name().to_string()))?;
        }
        Ok(())
    }

    /// Computes reward `name` now, as a step with no actions: it is the
    /// reward for whatever happened since it was last computed.
    pub fn get(&mut self, name: &str, observation: &ObservationView) -> Result<f64> {
        let i = self.position(name)?;
        let reward = &mut self.spaces[i];
        let observations = reward
            .space()
            .observation_spaces()
            .iter()
            .map(|id| observation.get(id))
            .collect::<Result<Vec<_>>>()?;
        reward.update(&[], &observations, observation)
    }
}
