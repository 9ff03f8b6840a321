//! `-sccp`: conditional constant propagation (Wegman–Zadeck), run densely
//! over the CFG so it works on any program, SSA or not.
//!
//! Each variable (and each `set`/`get` shadow, so SSA form is no barrier) is
//! Top (no value seen yet), a constant, or Bottom (unknown) at each block
//! entry, kept only for what is live there (so the states stay as small as
//! the live sets); only edges a branch can take are followed,
//! so constants flow through code that a constant branch rules out. Then
//! instructions whose result is a known constant become `const`, branches on
//! known conditions become jumps, and blocks never reached are removed.
//!
//! Why it is safe: folding uses the interpreter's own arithmetic (and never
//! folds a trap such as division by zero); at the entry every variable but
//! none is Bottom, so a variable undefined on some path is never treated as
//! a constant; an instruction is replaced only when every run computes that
//! same constant there.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::{bits_literal, const_bits, fold};
use crate::bril::analysis::edit::{remove_blocks, rewrite_functions};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Set;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::error::Result;

/// `-sccp`.
pub fn sccp(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| sccp_function(f))
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Lat {
    Top,
    Const(u64),
    Bottom,
}

fn meet(a: Lat, b: Lat) -> Lat {
    match (a, b) {
        (Lat::Top, x) | (x, Lat::Top) => x,
        (Lat::Const(x), Lat::Const(y)) if x == y => a,
        _ => Lat::Bottom,
    }
}

/// Whether the interpreter's arithmetic decides this op's result from its
/// arguments alone (so constant arguments give a constant).
fn foldable(op: Op) -> bool {
    (op.is_pure() && op != Op::Const && op != Op::PtrAdd) || matches!(op, Op::Div | Op::Int2Char)
}

/// The value `instr` gives its destination in `state`.
fn evaluate(instr: &Instr, state: &[Lat]) -> Lat {
    if let Some(bits) = const_bits(instr) {
        return Lat::Const(bits);
    }
    if !foldable(instr.op) {
        return Lat::Bottom;
    }
    let mut args = Vec::with_capacity(instr.args.len());
    let mut top = false;
    for a in instr.args.iter() {
        match state.get(a.index()).copied().unwrap_or(Lat::Bottom) {
            Lat::Const(b) => args.push(b),
            Lat::Top => top = true,
            Lat::Bottom => return Lat::Bottom,
        }
    }
    if top {
        return Lat::Top;
    }
    fold(instr.op, &args).map_or(Lat::Bottom, Lat::Const)
}

/// Moves `state` across `instr`. The state holds every variable and then,
/// at `n + x`, the shadow of `x` that `set x` writes and `x = get` reads.
fn step(instr: &Instr, state: &mut [Lat], n: usize) {
    let (slot, value) = match instr.op {
        Op::Set => match (instr.shadow_target(), instr.args.get(1)) {
            (Some(t), Some(v)) => (n + t.index(), state.get(v.index()).copied().unwrap_or(Lat::Bottom)),
            _ => return,
        },
        Op::Get => match instr.def() {
            Some(d) => (d.index(), state.get(n + d.index()).copied().unwrap_or(Lat::Bottom)),
            None => return,
        },
        _ => match instr.def() {
            Some(d) => (d.index(), evaluate(instr, state)),
            None => return,
        },
    };
    if let Some(s) = state.get_mut(slot) {
        *s = value;
    }
}

/// The successors a block's end can go to, given the state there.
fn feasible(f: &Function, b: BlockId, state: &[Lat]) -> Vec<BlockId> {
    match f.block(b).terminator() {
        Some(t) if t.op == Op::Br => {
            let cond = t.args.first().and_then(|c| state.get(c.index())).copied().unwrap_or(Lat::Bottom);
            match (cond, t.labels.first(), t.labels.get(1)) {
                (Lat::Const(c), Some(&then), Some(&otherwise)) => vec![if c != 0 { then } else { otherwise }],
                (Lat::Top, _, _) => Vec::new(),
                _ => t.labels.to_vec(),
            }
        }
        _ => f.successors(b).to_vec(),
    }
}

/// The lattice value of each slot live at a block boundary, in the order
/// of the live set there (what is not live is never read again).
type State = Vec<Lat>;

struct Solution {
    live: Liveness,
    /// State on entry to each block, over its live-in slots; `None` if never reached.
    entry: Vec<Option<State>>,
}

/// Loads a block-entry state into the dense `scratch` (every other slot of
/// it is stale, but nothing reads a slot before the block writes it unless
/// it is live on entry).
fn load(scratch: &mut [Lat], live: Set, state: &[Lat]) {
    for (slot, &value) in live.iter().zip(state) {
        scratch[slot] = value;
    }
}

fn solve(f: &Function) -> Solution {
    let n = f.blocks.len();
    let cfg = Cfg::new(f);
    let live = Liveness::with_shadows(f, &cfg);
    let mut entry: Vec<Option<State>> = vec![None; n];
    let mut exits: Vec<Option<(State, Vec<BlockId>)>> = vec![None; n];
    let mut work = vec![BlockId(0)];
    let mut queued = vec![false; n];
    queued[0] = true;
    let mut scratch = vec![Lat::Bottom; 2 * f.vars.len()];
    while let Some(b) = work.pop() {
        queued[b.index()] = false;
        // Every variable is unknown on entry to the function.
        let live_in = live.live_in.get(b.index());
        let mut state: Option<State> = (b.index() == 0).then(|| vec![Lat::Bottom; live_in.len()]);
        for &p in &cfg.preds[b.index()] {
            let Some((out, succs)) = &exits[p.index()] else { continue };
            if !succs.contains(&b) {
                continue;
            }
            // The predecessor's exit state is over its live-out slots, a superset.
            let live_out = live.live_out.get(p.index()).as_slice();
            let mut k = 0;
            let arriving = live_in.as_slice().iter().map(|&slot| {
                while live_out.get(k).is_some_and(|&s| s < slot) {
                    k += 1;
                }
                if live_out.get(k) == Some(&slot) {
                    out[k]
                } else {
                    Lat::Bottom
                }
            });
            state = Some(match state {
                None => arriving.collect(),
                Some(s) => s.iter().zip(arriving).map(|(&x, y)| meet(x, y)).collect(),
            });
        }
        let Some(state) = state else { continue };
        load(&mut scratch, live_in, &state);
        entry[b.index()] = Some(state);
        for instr in &f.block(b).instrs {
            step(instr, &mut scratch, f.vars.len());
        }
        let succs = feasible(f, b, &scratch);
        let out: State = live.live_out.get(b.index()).iter().map(|slot| scratch[slot]).collect();
        let new = Some((out, succs));
        if exits[b.index()] != new {
            let targets: Vec<BlockId> = new.as_ref().map(|(_, s)| s.clone()).unwrap_or_default();
            exits[b.index()] = new;
            for s in targets {
                if !queued[s.index()] {
                    queued[s.index()] = true;
                    work.push(s);
                }
            }
        }
    }
    Solution { live, entry }
}

fn sccp_function(f: &mut Function) -> Result<()> {
    if f.blocks.is_empty() {
        return Ok(());
    }
    let solution = solve(f);
    let n = f.vars.len();
    let mut state = vec![Lat::Bottom; 2 * n];
    for b in f.block_ids() {
        let Some(entry) = &solution.entry[b.index()] else { continue };
        load(&mut state, solution.live.live_in.get(b.index()), entry);
        for instr in &mut f.block_mut(b).instrs {
            let value = instr.def().map(|_| evaluate(instr, &state));
            if let (Some(Lat::Const(bits)), Some(d)) = (value, instr.dest) {
                if instr.op != Op::Const {
                    if let Some(lit) = bits_literal(bits, d.ty) {
                        *instr = Instr::constant(d.var, d.ty, lit).with_pos(instr.pos);
                    }
                }
            }
            if instr.op == Op::Br {
                let cond = instr.args.first().and_then(|c| state.get(c.index())).copied();
                if let (Some(Lat::Const(c)), Some(&then), Some(&otherwise)) =
                    (cond, instr.labels.first(), instr.labels.get(1))
                {
                    *instr = Instr::jmp(if c != 0 { then } else { otherwise }).with_pos(instr.pos);
                }
            }
            step(instr, &mut state, n);
        }
    }
    let keep: Vec<bool> = solution.entry.iter().map(Option::is_some).collect();
    if keep.iter().any(|&k| !k) {
        remove_blocks(f, &keep)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn run(src: &str) -> (bool, String) {
        let mut p = parse_text(src).unwrap();
        let changed = sccp(&mut p).unwrap();
        (changed, to_text(&p))
    }

    #[test]
    fn folds_through_a_constant_branch_and_removes_the_dead_arm() {
        let (changed, text) = run("@main {\n  a: int = const 4;\n  b: int = const 5;\n  c: bool = lt a b;\n  br c .yes .no;\n.yes:\n  x: int = add a b;\n  jmp .end;\n.no:\n  x: int = const 0;\n.end:\n  y: int = mul x a;\n  print y;\n}");
        assert!(changed);
        assert!(text.contains("c: bool = const true;"), "{text}");
        assert!(text.contains("jmp .yes;") && !text.contains(".no:"), "{text}");
        assert!(text.contains("y: int = const 36;"), "{text}");
    }

    #[test]
    fn loop_variables_are_not_constants_but_loop_invariants_are() {
        let (_, text) = run("@main {\n  i: int = const 0;\n  k: int = const 2;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  k: int = mul k one;\n  c: bool = lt i k;\n  br c .loop .end;\n.end:\n  print i k;\n}");
        assert!(text.contains("i: int = add i one;"), "{text}");
        assert!(text.contains("k: int = const 2;\n  c:"), "k stays 2 around the loop: {text}");
    }

    #[test]
    fn never_folds_a_trap_or_an_undefined_path() {
        let src = "@main(n: int) {\n  z: int = const 0;\n  one: int = const 1;\n  q: int = div one z;\n  print q;\n}";
        let (_, text) = run(src);
        assert!(text.contains("q: int = div one z;"), "{text}");
        let src = "@main(n: int) {\n  c: bool = lt n n;\n  br c .def .use;\n.def:\n  x: int = const 3;\n.use:\n  y: int = add x x;\n  print y;\n}";
        let (_, text) = run(src);
        assert!(text.contains("y: int = add x x;"), "x is undefined on one path: {text}");
    }

    #[test]
    fn constants_flow_through_set_and_get() {
        let src = "@main {\n  a: int = const 4;\n  set x a;\n  jmp .next;\n.next:\n  x: int = get;\n  y: int = add x x;\n  print y;\n}";
        let (changed, text) = run(src);
        assert!(changed && text.contains("y: int = const 8;") && text.contains("x: int = get;"), "{text}");
    }

    #[test]
    fn folds_a_constant_branch_once() {
        let src = "@main {\n  a: int = const 4;\n  b: bool = const false;\n  br b .x .y;\n.x:\n  print a;\n.y:\n  print a;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(sccp(&mut p).unwrap());
        assert!(!sccp(&mut p).unwrap());
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| sccp(p));
    }
}
