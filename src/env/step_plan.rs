//! Which observations one step asks the service for and where each result
//! goes, worked out once per choice of spaces so a step allocates nothing.

use crate::error::Result;
use crate::rewards::RewardView;
use crate::views::ObservationView;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepPlan {
    /// Service observation indices to compute, without repeats.
    pub service_indices: Vec<usize>,
    /// `(spec position, raw position)` of each requested observation.
    pub observations: Vec<(usize, usize)>,
    /// Each requested reward and the `(spec position, raw position)` of its inputs.
    pub rewards: Vec<(usize, Vec<(usize, usize)>)>,
}

impl StepPlan {
    pub fn new(
        view: &ObservationView,
        rewards_view: &RewardView,
        observations: &[usize],
        rewards: &[usize],
    ) -> Result<StepPlan> {
        let mut plan = StepPlan::default();
        let slot = |spec: usize, plan: &mut StepPlan| -> Result<(usize, usize)> {
            let index =
                view.spec_at(spec).ok_or_else(|| crate::Error::lookup("unknown observation space"))?.index;
            let raw = match plan.service_indices.iter().position(|&i| i == index) {
                Some(r) => r,
                None => {
                    plan.service_indices.push(index);
                    plan.service_indices.len() - 1
                }
            };
            Ok((spec, raw))
        };
        for &spec in observations {
            let s = slot(spec, &mut plan)?;
            plan.observations.push(s);
        }
        for &r in rewards {
            let reward = rewards_view.at(r).ok_or_else(|| crate::Error::lookup("unknown reward space"))?;
            let inputs = reward
                .space()
                .observation_spaces()
                .iter()
                .map(|id| view.position(id).and_then(|spec| slot(spec, &mut plan)))
                .collect::<Result<Vec<_>>>()?;
            plan.rewards.push((r, inputs));
        }
        Ok(plan)
    }
}
