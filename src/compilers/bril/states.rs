//! The programs a benchmark becomes under passes, remembered.
//!
//! Passes are deterministic: the program a pass makes of a program is
//! always the same. So each [`ProgramState`] remembers, per pass, what that
//! pass did to it: nothing, a new state, or not tried yet. Every session on
//! a benchmark (forks, later episodes) walks the same graph from the same
//! root, and a step whose transition is known costs no pass at all. Agents
//! revisit states constantly: every episode starts at the root, a random
//! policy mostly repeats passes that already did their work, and passes
//! applied in another order often make the same program.
//!
//! A [`StateTable`] keeps the states of one benchmark by content
//! ([`identity`]): a pass that makes a program already in the table leads
//! to that state, whatever path reached it, so what was learnt about it
//! (its transitions, its run, its features) serves every path. The table
//! owns the states and transitions point to them weakly, so the graph may
//! have cycles (`-inline` then `-outline`) and still frees itself with its
//! table. The table's budget bounds it: past the budget, new states are
//! still made but no longer remembered.
//!
//! Environments on the same benchmark share its table (see
//! [`super::shared_tables`]), so what one learns, another does not redo.
//! What an environment *knows*, for its action mask, stays its own
//! ([`Knowledge`]): a pass it never tried on a program is not masked for it
//! because another environment found it to do nothing there, so a seeded
//! run's masks do not depend on what other environments did.
//!
//! [`identity`]: crate::bril::identity

use super::observations::Obs;
use super::RunSummary;
use crate::bril::identity::{fingerprint, identical};
use crate::bril::passes::{registry, PassInfo};
use crate::bril::Program;
use crate::error::Result;
use crate::value::Value;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

/// What a pass did to a state.
#[derive(Clone)]
enum Transition {
    Untried,
    Unchanged,
    /// A state the table owns.
    To(Weak<ProgramState>),
}

pub struct ProgramState {
    program: Program,
    /// Whether the table holds it (and so every session that reaches this
    /// program reaches this very state). One it does not hold belongs to
    /// the session that made it and its forks.
    remembered: Cell<bool>,
    next: RefCell<Vec<Transition>>,
    /// The run under the benchmark's own arguments and default limits.
    run: OnceCell<Rc<RunSummary>>,
    /// Feature vectors computed on this program (few, small, and each
    /// costs a walk of the program).
    features: RefCell<Vec<(Obs, Value)>>,
}

/// The remembered states of one benchmark, by content.
pub struct StateTable {
    /// How many more states the table may remember.
    left: Cell<usize>,
    by_fingerprint: RefCell<HashMap<u64, Vec<Rc<ProgramState>>>>,
}

/// States remembered per benchmark: enough for the graphs random and
/// learning agents explore; small programs, so a few megabytes at most.
pub const STATES_PER_BENCHMARK: usize = 4096;

impl StateTable {
    /// A table remembering `root` and at most `states - 1` more states.
    pub fn new(root: Program, states: usize) -> (StateTable, Rc<ProgramState>) {
        let table = StateTable { left: Cell::new(states), by_fingerprint: RefCell::default() };
        let (root, _) = table.intern(root);
        (table, root)
    }

    /// The remembered state of `program`, or a new one, remembered while
    /// the budget lasts; true when the state is remembered.
    fn intern(&self, program: Program) -> (Rc<ProgramState>, bool) {
        let key = fingerprint(&program);
        let mut table = self.by_fingerprint.borrow_mut();
        let same = table.get(&key).and_then(|states| states.iter().find(|s| identical(&s.program, &program)));
        if let Some(known) = same {
            return (known.clone(), true);
        }
        let state = Rc::new(ProgramState::new(program));
        let left = self.left.get();
        if left == 0 {
            return (state, false);
        }
        self.left.set(left - 1);
        state.remembered.set(true);
        table.entry(key).or_default().push(state.clone());
        (state, true)
    }

    /// How many states the table remembers.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.by_fingerprint.borrow().values().map(Vec::len).sum()
    }
}

impl ProgramState {
    fn new(program: Program) -> ProgramState {
        ProgramState {
            program,
            remembered: Cell::new(false),
            next: RefCell::new(vec![Transition::Untried; registry().len()]),
            run: OnceCell::new(),
            features: RefCell::default(),
        }
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Marks in `no_effect` the passes `knowledge`'s sessions found to
    /// leave this program unchanged.
    pub fn mark_unchanged(self: &Rc<Self>, knowledge: &Knowledge, no_effect: &mut [bool]) {
        if self.remembered.get() {
            knowledge.mark(self, no_effect);
            return;
        }
        // Only its own session and forks hold it: what it remembers, they found.
        for (slot, transition) in no_effect.iter_mut().zip(self.next.borrow().iter()) {
            *slot |= matches!(transition, Transition::Unchanged);
        }
    }

    /// The remembered run of this program, made by `run` the first time.
    pub fn run(&self, run: impl FnOnce(&Program) -> RunSummary) -> Rc<RunSummary> {
        self.run.get_or_init(|| Rc::new(run(&self.program))).clone()
    }

    /// The feature vector `obs` of this program, computed by `compute` the
    /// first time it gives one.
    pub fn features(&self, obs: Obs, compute: impl FnOnce(&Program) -> Option<Value>) -> Option<Value> {
        if let Some((_, value)) = self.features.borrow().iter().find(|(o, _)| *o == obs) {
            return Some(value.clone());
        }
        let value = compute(&self.program)?;
        self.features.borrow_mut().push((obs, value.clone()));
        Some(value)
    }

    /// Moves `state` to the state pass `index` leads to; true if that is a
    /// different program. Runs the pass only if no session on this table
    /// ran it on this program before; a pass that fails is not remembered.
    /// A state nobody else holds (one the table does not remember) is
    /// changed in place, not copied. A pass that leaves the program
    /// unchanged is noted in `knowledge`.
    pub fn apply(
        state: &mut Rc<ProgramState>,
        index: usize,
        pass: &PassInfo,
        table: &StateTable,
        knowledge: &Knowledge,
    ) -> Result<bool> {
        let changed = Self::step(state, index, pass, table)?;
        if !changed && state.remembered.get() {
            knowledge.note(state, index);
        }
        Ok(changed)
    }

    fn step(state: &mut Rc<ProgramState>, index: usize, pass: &PassInfo, table: &StateTable) -> Result<bool> {
        let known = state.next.borrow().get(index).cloned().unwrap_or(Transition::Untried);
        match known {
            Transition::Unchanged => return Ok(false),
            Transition::To(next) => {
                if let Some(next) = next.upgrade() {
                    *state = next;
                    return Ok(true);
                }
            }
            Transition::Untried => {}
        }
        let program = match Rc::get_mut(state) {
            Some(only) => match (pass.run)(&mut only.program) {
                Ok(false) => {
                    only.remember(index, Transition::Unchanged);
                    return Ok(false);
                }
                Ok(true) => std::mem::take(&mut only.program),
                Err(e) => {
                    // Failed halfway: what was known of it is stale.
                    *only = ProgramState::new(std::mem::take(&mut only.program));
                    return Err(e);
                }
            },
            None => {
                let mut program = state.program.clone();
                if !(pass.run)(&mut program)? {
                    state.remember(index, Transition::Unchanged);
                    return Ok(false);
                }
                program
            }
        };
        let (next, remembered) = table.intern(program);
        if remembered {
            state.remember(index, Transition::To(Rc::downgrade(&next)));
        }
        *state = next;
        Ok(true)
    }

    fn remember(&self, index: usize, transition: Transition) {
        if let Some(slot) = self.next.borrow_mut().get_mut(index) {
            *slot = transition;
        }
    }
}

/// What one environment's sessions (an environment and its forks) found
/// passes to leave unchanged, on the states of a table they share with
/// other environments: a bit per pass, per state. States are known by
/// address, which is theirs while the table lives, and the table outlives
/// the knowledge (whoever holds one holds the other).
#[derive(Default)]
pub struct Knowledge {
    unchanged: RefCell<HashMap<*const ProgramState, Vec<u64>>>,
}

impl Knowledge {
    fn note(&self, state: &Rc<ProgramState>, index: usize) {
        let mut unchanged = self.unchanged.borrow_mut();
        let bits =
            unchanged.entry(Rc::as_ptr(state)).or_insert_with(|| vec![0; registry().len().div_ceil(64)]);
        if let Some(word) = bits.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }

    fn mark(&self, state: &Rc<ProgramState>, no_effect: &mut [bool]) {
        if let Some(bits) = self.unchanged.borrow().get(&Rc::as_ptr(state)) {
            for (index, slot) in no_effect.iter_mut().enumerate() {
                *slot |= bits.get(index / 64).is_some_and(|word| word >> (index % 64) & 1 == 1);
            }
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

    const SOURCE: &str = "@main {\n  x: int = const 1;\n  y: int = add x x;\n  print x;\n}\n";

    /// A table of `SOURCE`, and the test's environment knowing nothing yet (under wasm every test
    /// runs on one thread, and a state of an earlier test's table may have had the same address).
    fn table(states: usize) -> (StateTable, Rc<ProgramState>) {
        KNOWN.with(|known| known.unchanged.borrow_mut().clear());
        StateTable::new(parse_any(SOURCE).unwrap(), states)
    }

    thread_local! {
        /// The knowledge of the one environment a test plays (emptied by [`table`]).
        static KNOWN: Knowledge = Knowledge::default();
    }

    /// Applies `flag` to a session at `state`; returns where it went and whether it moved.
    fn step(state: &Rc<ProgramState>, flag: &str, table: &StateTable) -> (Rc<ProgramState>, bool) {
        KNOWN.with(|known| step_as(known, state, flag, table))
    }

    /// [`step`] by the environment whose knowledge is `known`.
    fn step_as(
        known: &Knowledge,
        state: &Rc<ProgramState>,
        flag: &str,
        table: &StateTable,
    ) -> (Rc<ProgramState>, bool) {
        let (index, info) = pass(flag);
        let mut at = state.clone();
        let changed = ProgramState::apply(&mut at, index, info, table, known).unwrap();
        (at, changed)
    }

    /// The passes the test's environment knows to leave `state` unchanged.
    fn unchanged(state: &Rc<ProgramState>) -> Vec<bool> {
        let mut known = vec![false; registry().len()];
        KNOWN.with(|k| state.mark_unchanged(k, &mut known));
        known
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_transition_is_computed_once_and_shared() {
        let (table, root) = table(10);
        let (first, changed) = step(&root, "-dce", &table);
        assert!(changed, "y is dead");
        let (again, _) = step(&root, "-dce", &table);
        assert!(Rc::ptr_eq(&first, &again), "the second application reuses the first's result");
        assert_eq!(first.program().instr_count(), 2);
        let (same, changed) = step(&first, "-dce", &table);
        assert!(!changed && Rc::ptr_eq(&same, &first), "nothing left to remove");
        assert_eq!(root.program().instr_count(), 3, "the parent is untouched");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_state_knows_which_passes_left_it_unchanged() {
        let (table, root) = table(10);
        let (dce, _) = pass("-dce");
        assert!(unchanged(&root).iter().all(|&k| !k), "nothing tried yet");
        let (first, _) = step(&root, "-dce", &table);
        step(&first, "-dce", &table);
        assert!(!unchanged(&root)[dce], "-dce changed the root");
        let known = unchanged(&first);
        assert!(known[dce] && known.iter().filter(|&&k| k).count() == 1, "-dce is done at its result");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn two_paths_to_one_program_meet_in_one_state() {
        // y is dead and x's uses are copies: -dce and -adce both drop y.
        let (table, root) = table(10);
        let (by_dce, _) = step(&root, "-dce", &table);
        let (by_adce, changed) = step(&root, "-adce", &table);
        assert!(changed);
        assert!(Rc::ptr_eq(&by_dce, &by_adce), "the same program is the same state");
        step(&by_dce, "-lvn", &table);
        assert!(unchanged(&by_adce)[pass("-lvn").0], "what one path learnt, the other knows");
        assert_eq!(table.len(), 2);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_path_back_to_a_known_program_returns_to_its_state() {
        // A transition back into the root, as -inline then -outline can make.
        let (table, root) = table(10);
        let (first, _) = step(&root, "-dce", &table);
        let (again, remembered) = table.intern(root.program().clone());
        assert!(remembered && Rc::ptr_eq(&again, &root));
        first.remember(pass("-lvn").0, Transition::To(Rc::downgrade(&root)));
        let (back, changed) = step(&first, "-lvn", &table);
        assert!(changed && Rc::ptr_eq(&back, &root));
        let weak = Rc::downgrade(&root);
        drop((root, first, back, again, table));
        assert!(weak.upgrade().is_none(), "a cycle of states frees itself with its table");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn past_the_budget_states_are_made_but_not_remembered() {
        let (table, root) = table(1);
        let (first, _) = step(&root, "-dce", &table);
        let (second, _) = step(&root, "-dce", &table);
        assert!(!Rc::ptr_eq(&first, &second));
        assert_eq!(crate::bril::to_text(first.program()), crate::bril::to_text(second.program()));
        assert_eq!(table.len(), 1, "only the root");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_state_no_one_shares_changes_in_place_and_can_rejoin_the_table() {
        let (table, root) = table(1);
        let mut only = Rc::new(ProgramState::new(root.program().clone()));
        let (dce, info) = pass("-dce");
        let known = Knowledge::default();
        assert!(ProgramState::apply(&mut only, dce, info, &table, &known).unwrap());
        assert_eq!(only.program().instr_count(), 2);
        assert!(
            !ProgramState::apply(&mut only, dce, info, &table, &known).unwrap(),
            "and what it learnt is fresh"
        );
        let mut marked = vec![false; registry().len()];
        only.mark_unchanged(&known, &mut marked);
        assert!(marked[dce], "a state the table does not hold keeps what its session found");
        let (back, remembered) = table.intern(root.program().clone());
        assert!(remembered && Rc::ptr_eq(&back, &root), "the root is found by content");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn environments_sharing_a_table_share_its_work_but_each_knows_only_what_it_tried() {
        let (table, root) = table(10);
        let (first, second) = (Knowledge::default(), Knowledge::default());
        let (done, _) = step_as(&first, &root, "-dce", &table);
        let (dce, _) = pass("-dce");
        assert!(!step_as(&first, &done, "-dce", &table).1);
        // The second finds the first's states (no pass runs again)...
        let (same, changed) = step_as(&second, &root, "-dce", &table);
        assert!(changed && Rc::ptr_eq(&same, &done));
        // ...but its mask knows only what it tried itself.
        let marks = |known: &Knowledge| {
            let mut marked = vec![false; registry().len()];
            done.mark_unchanged(known, &mut marked);
            marked[dce]
        };
        assert!(marks(&first) && !marks(&second));
        assert!(!step_as(&second, &done, "-dce", &table).1);
        assert!(marks(&second));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn features_are_computed_once_per_state() {
        let (_table, root) = table(1);
        let calls = Cell::new(0);
        let count = |p: &Program| {
            calls.set(calls.get() + 1);
            Some(Value::Int(p.instr_count() as i64))
        };
        assert_eq!(root.features(Obs::InstCount, count), Some(Value::Int(3)));
        assert_eq!(root.features(Obs::InstCount, count), Some(Value::Int(3)));
        assert_eq!(calls.get(), 1);
    }
}
