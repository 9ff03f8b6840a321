//! `RewardView`: the reward spaces of an environment by name.

use super::Reward;
use crate::error::{Error, Result};
use crate::views::ObservationView;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Default)]
pub struct RewardView {
    /// Each reward with its state, shared by a fork and its parent until
    /// one of them writes to it (copy on write): a fork copies none of the
    /// core's rewards, and a step after it copies only those it updates.
    spaces: Vec<Rc<Box<dyn Reward>>>,
    by_name: Rc<HashMap<String, usize>>,
}

/// A copy for a fork: shares each reward but those
/// [`Reward::copied_at_fork`] names.
impl Clone for RewardView {
    fn clone(&self) -> RewardView {
        let copy =
            |r: &Rc<Box<dyn Reward>>| if r.copied_at_fork() { Rc::new(r.box_clone()) } else { r.clone() };
        RewardView { spaces: self.spaces.iter().map(copy).collect(), by_name: self.by_name.clone() }
    }
}

impl RewardView {
    pub fn new(rewards: Vec<Box<dyn Reward>>) -> RewardView {
        let mut view = RewardView::default();
        for r in rewards {
            view.add_space(r);
        }
        view
    }

    pub fn spaces(&self) -> impl ExactSizeIterator<Item = &dyn Reward> {
        self.spaces.iter().map(|r| r.as_ref().as_ref())
    }

    /// The position of reward `name`; LookupError if unknown.
    pub fn position(&self, name: &str) -> Result<usize> {
        self.by_name.get(name).copied().ok_or_else(|| Error::lookup(format!("unknown reward space {name:?}")))
    }

    pub fn space(&self, name: &str) -> Result<&dyn Reward> {
        Ok(self.spaces[self.position(name)?].as_ref().as_ref())
    }

    /// Reward `position`, to update: this view's own copy from now on.
    pub fn at_mut(&mut self, position: usize) -> Option<&mut Box<dyn Reward>> {
        self.spaces.get_mut(position).map(Rc::make_mut)
    }

    pub fn at(&self, position: usize) -> Option<&dyn Reward> {
        self.spaces.get(position).map(|r| r.as_ref().as_ref())
    }

    /// Adds a reward, replacing one with the same name.
    pub fn add_space(&mut self, reward: Box<dyn Reward>) {
        let name = reward.name().to_string();
        match self.by_name.get(&name) {
            Some(&i) => self.spaces[i] = Rc::new(reward),
            None => {
                Rc::make_mut(&mut self.by_name).insert(name, self.spaces.len());
                self.spaces.push(Rc::new(reward));
            }
        }
    }

    /// Resets every reward for a new episode on `benchmark`.
    pub fn reset(&mut self, benchmark: &str, observation: &ObservationView) -> Result<()> {
        for r in self.spaces.iter_mut().map(Rc::make_mut) {
            r.reset(benchmark, observation).map_err(|e| e.context(r.name().to_string()))?;
        }
        Ok(())
    }

    /// Computes reward `name` now, as a step with no actions: it is the
    /// reward for whatever happened since it was last computed.
    pub fn get(&mut self, name: &str, observation: &ObservationView) -> Result<f64> {
        let i = self.position(name)?;
        let reward = Rc::make_mut(&mut self.spaces[i]);
        let observations = reward
            .space()
            .observation_spaces()
            .iter()
            .map(|id| observation.get(id))
            .collect::<Result<Vec<_>>>()?;
        reward.update(&[], &observations, observation)
    }
}
