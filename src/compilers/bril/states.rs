//! The programs a benchmark becomes under passes, remembered.
//!
//! Passes are deterministic: the program a pass makes of a program is
//! always the same. So each [`ProgramState`] remembers, per pass, what that
//! pass did to it: nothing, a new state, or not tried yet. Every session on
//! a benchmark (forks, later episodes) walks the same tree from the same
//! root, and a step whose transition is known costs no pass at all. Agents
//! revisit states constantly — every episode starts at the root, and a
//! random policy mostly repeats passes that already did their work.
//!
//! The tree only grows by states that differ from their parent, so it has
//! no cycles and frees itself with its root. [`StateBudget`] bounds it: past
//! the budget, new states are still made but no longer remembered.

use super::RunSummary;
use crate::bril::passes::{registry, PassInfo};
use crate::bril::Program;
use crate::error::Result;
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

/// What a pass did to a state.
#[derive(Clone)]
enum Transition {
    Untried,
    Unchanged,
    To(Rc<ProgramState>),
}

pub struct ProgramState {
    program: Program,
    next: RefCell<Vec<Transition>>,
    /// The run under the benchmark's own arguments and default limits.
    run: OnceCell<Rc<RunSummary>>,
}

/// How many states a benchmark's tree may still remember.
pub struct StateBudget(Cell<usize>);

/// States remembered per benchmark: enough for the shallow trees random and
/// learning agents explore; small programs, so a few megabytes at most.
pub const STATES_PER_BENCHMARK: usize = 4096;

impl StateBudget {
    pub fn new(states: usize) -> StateBudget {
        StateBudget(Cell::new(states))
    }

    /// Takes one state from the budget; false when it is spent.
    fn take(&self) -> bool {
        let left = self.0.get();
        self.0.set(left.saturating_sub(1));
        left > 0
    }
}

impl ProgramState {
    pub fn new(program: Program) -> ProgramState {
        ProgramState {
            program,
            next: RefCell::new(vec![Transition::Untried; registry().len()]),
            run: OnceCell::new(),
        }
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Marks in `no_effect` the passes known to leave this program unchanged.
    pub fn mark_unchanged(&self, no_effect: &mut [bool]) {
        for (slot, transition) in no_effect.iter_mut().zip(self.next.borrow().iter()) {
            *slot |= matches!(transition, Transition::Unchanged);
        }
    }

    /// The remembered run of this program, made by `run` the first time.
    pub fn run(&self, run: impl FnOnce(&Program) -> RunSummary) -> Rc<RunSummary> {
        self.run.get_or_init(|| Rc::new(run(&self.program))).clone()
    }

    /// Moves `state` to the state pass `index` leads to; true if that is a
    /// different program. Runs the pass only if no session on this tree ran
    /// it here before; a pass that fails is not remembered. A state nobody
    /// else holds (one past the budget) is changed in place, not copied.
    pub fn apply(
        state: &mut Rc<ProgramState>,
        index: usize,
        pass: &PassInfo,
        budget: &StateBudget,
    ) -> Result<bool> {
        let known = state.next.borrow().get(index).cloned().unwrap_or(Transition::Untried);
        match known {
            Transition::Unchanged => return Ok(false),
            Transition::To(next) => {
                *state = next;
                return Ok(true);
            }
            Transition::Untried => {}
        }
        if let Some(only) = Rc::get_mut(state) {
            return only.apply_in_place(index, pass);
        }
        let mut program = state.program.clone();
        if !(pass.run)(&mut program)? {
            state.remember(index, Transition::Unchanged);
            return Ok(false);
        }
        let next = Rc::new(ProgramState::new(program));
        if budget.take() {
            state.remember(index, Transition::To(next.clone()));
        }
        *state = next;
        Ok(true)
    }

    /// Runs a pass on a state no one shares: a change makes it a new state.
    fn apply_in_place(&mut self, index: usize, pass: &PassInfo) -> Result<bool> {
        let outcome = (pass.run)(&mut self.program);
        if matches!(outcome, Ok(false)) {
            self.remember(index, Transition::Unchanged);
        } else {
            // Changed, or failed halfway: either way what was known is stale.
            *self = ProgramState::new(std::mem::take(&mut self.program));
        }
        outcome
    }

    fn remember(&self, index: usize, transition: Transition) {
        if let Some(slot) = self.next.borrow_mut().get_mut(index) {
            *slot = transition;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_any;
    use crate::bril::passes::registry;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn pass(flag: &str) -> (usize, &'static PassInfo) {
        registry().iter().enumerate().find(|(_, p)| p.flag == flag).unwrap()
    }

    fn root() -> Rc<ProgramState> {
        let program =
            parse_any("@main {\n  x: int = const 1;\n  y: int = add x x;\n  print x;\n}\n").unwrap();
        Rc::new(ProgramState::new(program))
    }

    /// Applies `flag` to a session at `state`; returns where it went and whether it moved.
    fn step(state: &Rc<ProgramState>, flag: &str, budget: &StateBudget) -> (Rc<ProgramState>, bool) {
        let (index, info) = pass(flag);
        let mut at = state.clone();
        let changed = ProgramState::apply(&mut at, index, info, budget).unwrap();
        (at, changed)
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_transition_is_computed_once_and_shared() {
        let (root, budget) = (root(), StateBudget::new(10));
        let (first, changed) = step(&root, "-dce", &budget);
        assert!(changed, "y is dead");
        let (again, _) = step(&root, "-dce", &budget);
        assert!(Rc::ptr_eq(&first, &again), "the second application reuses the first's result");
        assert_eq!(first.program().instr_count(), 2);
        let (same, changed) = step(&first, "-dce", &budget);
        assert!(!changed && Rc::ptr_eq(&same, &first), "nothing left to remove");
        assert_eq!(root.program().instr_count(), 3, "the parent is untouched");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_state_knows_which_passes_left_it_unchanged() {
        let (root, budget) = (root(), StateBudget::new(10));
        let (dce, _) = pass("-dce");
        let mut known = vec![false; registry().len()];
        root.mark_unchanged(&mut known);
        assert!(known.iter().all(|&k| !k), "nothing tried yet");
        let (first, _) = step(&root, "-dce", &budget);
        step(&first, "-dce", &budget);
        root.mark_unchanged(&mut known);
        assert!(!known[dce], "-dce changed the root");
        first.mark_unchanged(&mut known);
        assert!(known[dce] && known.iter().filter(|&&k| k).count() == 1, "-dce is done at its result");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn past_the_budget_states_are_made_but_not_remembered() {
        let (root, budget) = (root(), StateBudget::new(0));
        let (first, _) = step(&root, "-dce", &budget);
        let (second, _) = step(&root, "-dce", &budget);
        assert!(!Rc::ptr_eq(&first, &second));
        assert_eq!(crate::bril::to_text(first.program()), crate::bril::to_text(second.program()));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_state_no_one_shares_changes_in_place() {
        let budget = StateBudget::new(0);
        let mut only = Rc::new(ProgramState::new(root().program().clone()));
        let before = Rc::as_ptr(&only);
        let (dce, info) = pass("-dce");
        assert!(ProgramState::apply(&mut only, dce, info, &budget).unwrap());
        assert_eq!(Rc::as_ptr(&only), before, "no copy");
        assert_eq!(only.program().instr_count(), 2);
        assert!(!ProgramState::apply(&mut only, dce, info, &budget).unwrap(), "and what it learnt is fresh");
    }
}
