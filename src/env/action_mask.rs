//! Which actions may still change the program: the action mask of
//! Gymnasium-style infos (`info.actionMask`).
//!
//! An action is masked (0) only when it is *known* to do nothing in the
//! current state, at no cost: no action is tried for the mask.
//!
//! - Per episode: an action that left the program unchanged stays masked
//!   until some action changes the program ([`NoEffectActions`]).
//! - From the compiler: a session may know more
//!   ([`CompilationSession::known_no_effect`](crate::service::CompilationSession::known_no_effect));
//!   Bril's table of states, shared by an environment and its forks,
//!   remembers every pass any of their sessions found to leave this very
//!   program unchanged.
//!
//! The mask never forbids everything: when every action is known to do
//! nothing (the program is a fixed point of every action), every action is
//! allowed again and [`ActionMask::fixed_point`] says so; an agent may then
//! end its episode, since no step can change the program.

use crate::spaces::{Space, SpaceKind};
use crate::value::Value;

/// The number of actions of a discrete action space (Discrete,
/// NamedDiscrete, Commandline); None for other kinds, which get no mask.
pub fn action_count(space: &Space) -> Option<usize> {
    let n = match space.kind() {
        SpaceKind::Discrete(d) => d.n(),
        SpaceKind::NamedDiscrete(d) => d.n(),
        SpaceKind::Commandline(c) => c.n(),
        _ => return None,
    };
    usize::try_from(n).ok()
}

/// The position of `action` in the mask of `space`.
fn position(space: &Space, action: &Value) -> Option<usize> {
    let start = match space.kind() {
        SpaceKind::Discrete(d) => d.start(),
        _ => 0,
    };
    usize::try_from(action.as_int()?.checked_sub(start)?).ok()
}

/// The actions that did nothing in this episode since the program last changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NoEffectActions {
    seen: Vec<bool>,
}

impl NoEffectActions {
    /// Forgets everything (a new episode, or a new action space).
    pub fn clear(&mut self) {
        self.seen.clear();
    }

    /// Records a step of `actions` in `space`: if none of them changed the
    /// program they are all known to do nothing now; otherwise the program
    /// changed and what was known no longer holds.
    pub fn record(&mut self, space: &Space, actions: &[Value], had_no_effect: bool) {
        if !had_no_effect {
            self.clear();
            return;
        }
        let Some(n) = action_count(space) else { return };
        self.seen.resize(n, false);
        for i in actions.iter().filter_map(|a| position(space, a)) {
            if let Some(slot) = self.seen.get_mut(i) {
                *slot = true;
            }
        }
    }

    /// Marks in `no_effect` the actions recorded as doing nothing.
    pub fn mark(&self, no_effect: &mut [bool]) {
        for (slot, &seen) in no_effect.iter_mut().zip(&self.seen) {
            *slot |= seen;
        }
    }
}

/// 1 for an action that may change the program, 0 for one known to do nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionMask {
    pub allowed: Vec<u8>,
    /// Every action was known to do nothing, so `allowed` is all ones.
    pub fixed_point: bool,
}

impl ActionMask {
    /// The mask of the actions not marked in `no_effect`.
    pub fn from_no_effect(no_effect: &[bool]) -> ActionMask {
        let fixed_point = !no_effect.is_empty() && no_effect.iter().all(|&x| x);
        let allowed = no_effect.iter().map(|&x| u8::from(fixed_point || !x)).collect();
        ActionMask { allowed, fixed_point }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::Discrete;

    #[test]
    fn no_effect_actions_stay_masked_until_the_program_changes() {
        let space: Space = Discrete::new("d", 4, 10).unwrap().into();
        let mut seen = NoEffectActions::default();
        seen.record(&space, &[Value::Int(11)], true);
        seen.record(&space, &[Value::Int(13)], true);
        let mut known = vec![false; 4];
        seen.mark(&mut known);
        assert_eq!(known, [false, true, false, true]);
        seen.record(&space, &[Value::Int(10)], false);
        let mut known = vec![false; 4];
        seen.mark(&mut known);
        assert_eq!(known, [false; 4], "a change forgets what did nothing before it");
    }

    #[test]
    fn a_mask_never_forbids_everything() {
        let mask = ActionMask::from_no_effect(&[true, false, true]);
        assert_eq!(mask, ActionMask { allowed: vec![0, 1, 0], fixed_point: false });
        let mask = ActionMask::from_no_effect(&[true, true]);
        assert_eq!(mask, ActionMask { allowed: vec![1, 1], fixed_point: true });
    }
}
