//! `-outline`: IR outlining. A run of instructions that occurs with the same
//! shape at several places becomes a new function, and each place a call to
//! it: the size optimisation for repeated code that inlining undoes.
//!
//! A window is 2 to [`MAX_LEN`] instructions of one block, none of them a
//! jump, branch, return, call or SSA instruction. Two windows have the same
//! shape when their instructions have the same operations, types and
//! constants, and each reads the same thing: the result of the same earlier
//! instruction of the window, or the same input (a variable read before the
//! window writes it, numbered by first appearance, of the same type). At
//! most one variable the window writes may be live after it: the function
//! returns it. A shape found `k` times, `L` instructions long, saves
//! `k * (L - 1)` instructions for a function of `L` (plus its `ret`); shapes
//! are taken greedily by saving, each window at most once, and the pass
//! repeats until nothing more pays.
//!
//! Why it is safe: the call passes the inputs' values, the new function runs
//! the same instructions in the same order on them (so effects, traps and
//! output are the same), and returns the one value read afterwards. Windows
//! are taken only from functions where every read is certainly preceded by
//! a write, so reading all inputs at the call cannot fail where the window's
//! own reads would not have. The cost is one frame deeper at most, and a
//! call and a return per run of the window.
//!
//! Cost: every window of every block is hashed once (at most `MAX_LEN`
//! windows of at most `MAX_LEN` instructions per instruction), then sorted:
//! near-linear in the program.

use std::collections::HashSet;
use std::hash::Hasher;
use std::sync::Arc;

use super::facts::uses_ssa_ops;
use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::definite::every_read_assigned;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Marks;
use crate::bril::hash::FxHasher;
use crate::bril::ir::{Block, FuncId, Function, Instr, Op, Param, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::bril::verify::verify_function;
use crate::error::Result;

/// Longest window outlined.
pub const MAX_LEN: usize = 8;
/// Shortest window outlined.
const MIN_LEN: usize = 2;
/// No functions are made once the program has this many.
const MAX_FUNCTIONS: usize = 256;
/// Rounds at most: a round can leave a shape that pays only once the next
/// sees the new functions' bodies.
const MAX_ROUNDS: usize = 4;

/// `-outline`.
pub fn outline(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        if !outline_round(program)? {
            break;
        }
        changed = true;
    }
    Ok(changed)
}

/// One window: where it is, and which instruction's result it returns.
#[derive(Clone, Copy, Debug)]
struct Window {
    hash: u64,
    func: u32,
    block: u32,
    start: u32,
    len: u8,
    /// The window's instruction (index from `start`) whose result is live after it.
    output: Option<u8>,
}

impl Window {
    fn cells(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        (self.start..self.start + u32::from(self.len)).map(|i| (self.func, self.block, i))
    }

    fn saving_per_call(&self) -> usize {
        usize::from(self.len) - 1
    }

    /// Instructions of the new function.
    fn body_cost(&self) -> usize {
        usize::from(self.len) + usize::from(self.output.is_some())
    }
}

/// A window's shape (its tokens: two windows with equal tokens are
/// interchangeable), and what it reads.
struct Shape {
    tokens: Vec<u64>,
    /// The variables it reads before writing them, in first-read order.
    inputs: Vec<VarId>,
    /// The window's last write of each variable so far, and where (scratch).
    written: Vec<(VarId, usize)>,
}

fn outline_round(program: &mut Program) -> Result<bool> {
    if program.functions.len() >= MAX_FUNCTIONS {
        return Ok(false);
    }
    let types: Vec<Vec<Option<Type>>> = program.functions.iter().map(|f| var_types(f)).collect();
    let mut windows = Vec::new();
    for (fi, f) in program.functions.iter().enumerate() {
        if uses_ssa_ops(f) {
            continue;
        }
        let cfg = Cfg::new(f);
        let live = Liveness::new(f, &cfg);
        if every_read_assigned(f, &live) {
            collect_windows(fi, f, &types[fi], &cfg, &live, &mut windows);
        }
    }
    // Same hash, same length and output, then in program order.
    windows.sort_unstable_by_key(|w| (w.hash, w.len, w.output, w.func, w.block, w.start));
    let mut groups: Vec<Vec<Window>> = Vec::new();
    for run in windows.chunk_by(|a, b| (a.hash, a.len, a.output) == (b.hash, b.len, b.output)) {
        if let Some(group) = same_shape(program, &types, run) {
            groups.push(group);
        }
    }
    // Most saving first; ties in program order, so the result is deterministic.
    groups.sort_by_key(|g| (std::cmp::Reverse(saving(g)), g[0].func, g[0].block, g[0].start));

    let mut claimed: HashSet<(u32, u32, u32)> = HashSet::new();
    let mut chosen: Vec<Vec<Window>> = Vec::new();
    for group in groups {
        if program.functions.len() + chosen.len() >= MAX_FUNCTIONS {
            break;
        }
        let mut kept: Vec<Window> = Vec::new();
        for w in group {
            let overlaps_kept = kept.last().is_some_and(|k| {
                (k.func, k.block) == (w.func, w.block) && w.start < k.start + u32::from(k.len)
            });
            if !overlaps_kept && !w.cells().any(|c| claimed.contains(&c)) {
                kept.push(w);
            }
        }
        if saving(&kept) > 0 {
            claimed.extend(kept.iter().flat_map(Window::cells));
            chosen.push(kept);
        }
    }
    if chosen.is_empty() {
        return Ok(false);
    }
    // Only the functions the windows are in change (and the new ones are
    // added): those are kept to go back to, and checked.
    let mut touched: Vec<usize> = chosen.iter().flatten().map(|w| w.func as usize).collect();
    touched.sort_unstable();
    touched.dedup();
    let kept: Vec<Arc<Function>> = touched.iter().map(|&i| program.functions[i].clone()).collect();
    let count = program.functions.len();
    rewrite(program, &types, &chosen);
    let mut checked = touched.iter().copied().chain(count..program.functions.len());
    if let Some(e) = checked.find_map(|i| verify_function(program, &program.functions[i]).err()) {
        // A bug, never the program's fault: tests fail on it; users keep their program.
        debug_assert!(false, "-outline made an ill-formed program: {e}");
        program.functions.truncate(count);
        for (i, f) in touched.into_iter().zip(kept) {
            program.functions[i] = f;
        }
        return Ok(false);
    }
    Ok(true)
}

/// Instructions saved by outlining every window of `group`.
fn saving(group: &[Window]) -> usize {
    let Some(first) = group.first() else { return 0 };
    (group.len() * first.saving_per_call()).saturating_sub(first.body_cost())
}

/// The type of each variable of `f`, `None` where it has more than one.
fn var_types(f: &Function) -> Vec<Option<Type>> {
    let mut types: Vec<Option<Option<Type>>> = vec![None; f.vars.len()];
    let mut note = |v: VarId, ty: Type| {
        let slot = &mut types[v.index()];
        *slot = match *slot {
            None => Some(Some(ty)),
            Some(Some(t)) if t == ty => Some(Some(t)),
            Some(_) => Some(None),
        };
    };
    for p in &f.params {
        note(p.var, p.ty);
    }
    for d in f.instrs().filter_map(|i| i.dest) {
        note(d.var, d.ty);
    }
    types.into_iter().map(Option::flatten).collect()
}

fn may_outline(instr: &Instr) -> bool {
    !matches!(
        instr.op,
        Op::Jmp | Op::Br | Op::Ret | Op::Call | Op::Set | Op::Get | Op::Undef | Op::Phi | Op::Nop
    )
}

/// Every window of `f` with at most one result live after it.
fn collect_windows(
    fi: usize,
    f: &Function,
    types: &[Option<Type>],
    cfg: &Cfg,
    live: &Liveness,
    out: &mut Vec<Window>,
) {
    let mut scratch = Marks::new(f.vars.len());
    let mut shape = Shape::new();
    // Liveness starts from the entry, so a read in a block it never reaches
    // keeps no write live; but the verifier still wants that variable
    // written somewhere. It counts as live after every window, so a window
    // returns it rather than taking its last write away.
    let mut read_unreachable = vec![false; f.vars.len()];
    for b in f.block_ids().filter(|&b| !cfg.is_reachable(b)) {
        for a in f.block(b).instrs.iter().flat_map(|i| i.args.iter()) {
            read_unreachable[a.index()] = true;
        }
    }
    for b in f.block_ids() {
        let instrs = &f.block(b).instrs;
        // How many instructions that may be outlined end at each index.
        let mut run = vec![0usize; instrs.len()];
        let mut length = 0;
        for (i, instr) in instrs.iter().enumerate() {
            length = if may_outline(instr) { length + 1 } else { 0 };
            run[i] = length;
        }
        live.walk_back(f, b, &mut scratch, |end, _, live_after| {
            for len in MIN_LEN..=run[end].min(MAX_LEN) {
                let start = end + 1 - len;
                let window = &instrs[start..=end];
                let live = |v: VarId| live_after.contains(v.index()) || read_unreachable[v.index()];
                let Some(output) = live_result(window, live) else { continue };
                if !shape.read(window, types, output) {
                    continue;
                }
                out.push(Window {
                    hash: hash(&shape.tokens),
                    func: fi as u32,
                    block: b.index() as u32,
                    start: start as u32,
                    len: len as u8,
                    output: output.map(|o| o as u8),
                });
            }
        });
    }
}

/// The index of the one instruction whose result is live after `window`
/// (the last write of its variable), `Some(None)` when none is, `None` when
/// more than one is.
fn live_result(window: &[Instr], live_after: impl Fn(VarId) -> bool) -> Option<Option<usize>> {
    let mut result = None;
    for (j, instr) in window.iter().enumerate() {
        let Some(d) = instr.def() else { continue };
        let last_write = !window[j + 1..].iter().any(|later| later.def() == Some(d));
        if last_write && live_after(d) {
            if result.is_some() {
                return None;
            }
            result = Some(j);
        }
    }
    Some(result)
}

const INTERNAL: u64 = 1 << 32;
const INPUT: u64 = 2 << 32;
/// No destination, no constant, or no output (the op token tells which).
const ABSENT: u64 = u64::MAX;

fn type_code(ty: Type) -> u64 {
    ((ty.base as u64) << 8) | u64::from(ty.ptr_depth)
}

impl Shape {
    fn new() -> Shape {
        Shape { tokens: Vec::new(), inputs: Vec::new(), written: Vec::new() }
    }

    /// Reads `window`'s shape into the buffers, reused from window to
    /// window; false when an input's type is not known.
    fn read(&mut self, window: &[Instr], types: &[Option<Type>], output: Option<usize>) -> bool {
        let Shape { tokens, inputs, written } = self;
        tokens.clear();
        inputs.clear();
        written.clear();
        for (j, instr) in window.iter().enumerate() {
            tokens.push(instr.op as u64);
            tokens.push(instr.dest.map_or(ABSENT, |d| type_code(d.ty)));
            tokens.push(const_bits(instr).unwrap_or(ABSENT));
            tokens.push(instr.args.len() as u64);
            for &a in instr.args.iter() {
                let token = match written.iter().rev().find(|(v, _)| *v == a) {
                    Some(&(_, k)) => INTERNAL | k as u64,
                    None => {
                        let slot = inputs.iter().position(|&v| v == a).unwrap_or_else(|| {
                            inputs.push(a);
                            inputs.len() - 1
                        });
                        INPUT | slot as u64
                    }
                };
                tokens.push(token);
            }
            if let Some(d) = instr.def() {
                written.push((d, j));
            }
        }
        for &v in inputs.iter() {
            match types.get(v.index()).copied().flatten() {
                Some(ty) => tokens.push(type_code(ty)),
                None => return false,
            }
        }
        tokens.push(output.map_or(ABSENT, |o| o as u64));
        true
    }
}

fn hash(tokens: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    for &t in tokens {
        h.write_u64(t);
    }
    h.finish()
}

fn window_instrs<'p>(program: &'p Program, w: &Window) -> &'p [Instr] {
    let block = &program.functions[w.func as usize].blocks[w.block as usize];
    &block.instrs[w.start as usize..w.start as usize + usize::from(w.len)]
}

fn shape_at(program: &Program, types: &[Vec<Option<Type>>], w: &Window) -> Option<Shape> {
    let mut shape = Shape::new();
    shape.read(window_instrs(program, w), &types[w.func as usize], w.output.map(usize::from)).then_some(shape)
}

/// The windows of `run` (one hash) that have the first one's shape, when
/// outlining them could pay; hash collisions are dropped.
fn same_shape(program: &Program, types: &[Vec<Option<Type>>], run: &[Window]) -> Option<Vec<Window>> {
    if saving(run) == 0 {
        return None;
    }
    let first = shape_at(program, types, &run[0])?.tokens;
    let group: Vec<Window> = run
        .iter()
        .copied()
        .filter(|w| shape_at(program, types, w).is_some_and(|s| s.tokens == first))
        .collect();
    (saving(&group) > 0).then_some(group)
}

/// Makes one function per chosen group and calls it from each window.
fn rewrite(program: &mut Program, types: &[Vec<Option<Type>>], chosen: &[Vec<Window>]) {
    let mut names = FreshNames::functions(program);
    // Calls to place: (function, block, start, len, call).
    let mut calls: Vec<(u32, u32, u32, u8, Instr)> = Vec::new();
    let mut made = Vec::new();
    for group in chosen {
        let id = FuncId::new(program.functions.len() + made.len());
        let first = &group[0];
        let name = names.numbered("outlined.");
        let shapes: Option<Vec<Shape>> = group.iter().map(|w| shape_at(program, types, w)).collect();
        let Some(shapes) = shapes else { continue };
        let Some(function) = new_function(program, types, first, &shapes[0], &name) else { continue };
        for (w, shape) in group.iter().zip(&shapes) {
            let instrs = window_instrs(program, w);
            let dest = w.output.and_then(|o| instrs[usize::from(o)].dest);
            calls.push((w.func, w.block, w.start, w.len, Instr::call(id, dest, &shape.inputs)));
        }
        made.push(function);
    }
    // Each block rebuilt once, windows in order: splicing one at a time
    // would cost a block's length per call.
    calls.sort_by_key(|c| (c.0, c.1, c.2));
    for block_calls in calls.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (func, block) = (block_calls[0].0 as usize, block_calls[0].1 as usize);
        let old = std::mem::take(&mut program.function_mut(FuncId::new(func)).blocks[block].instrs);
        let mut instrs = Vec::with_capacity(old.len());
        let mut next = block_calls.iter().peekable();
        let mut skip = 0;
        for (i, instr) in old.into_iter().enumerate() {
            if let Some((_, _, _, len, call)) = next.next_if(|c| c.2 as usize == i) {
                instrs.push(call.clone().with_pos(instr.pos));
                skip = usize::from(*len);
            }
            if skip > 0 {
                skip -= 1;
            } else {
                instrs.push(instr);
            }
        }
        program.function_mut(FuncId::new(func)).blocks[block].instrs = instrs;
    }
    program.functions.extend(made.into_iter().map(Arc::new));
}

/// The function a window's code becomes: its inputs as parameters (named
/// as in the window), its instructions, and a `ret` of its result.
fn new_function(
    program: &Program,
    types: &[Vec<Option<Type>>],
    w: &Window,
    shape: &Shape,
    name: &str,
) -> Option<Function> {
    let source = &program.functions[w.func as usize];
    let mut g = Function::new(name);
    let rename = |g: &mut Function, v: VarId| g.var(source.var_name(v));
    for &input in &shape.inputs {
        let ty = types[w.func as usize][input.index()]?;
        let var = rename(&mut g, input);
        g.params.push(Param { var, ty });
    }
    let mut body = Vec::with_capacity(usize::from(w.len) + 1);
    for instr in window_instrs(program, w) {
        let mut copy = instr.clone();
        for a in copy.uses_mut() {
            *a = rename(&mut g, *a);
        }
        if let Some(d) = copy.dest.as_mut() {
            d.var = rename(&mut g, d.var);
        }
        body.push(copy);
    }
    if let Some(o) = w.output {
        let d = body[usize::from(o)].dest?;
        g.ret = Some(d.ty);
        body.push(Instr::ret(Some(d.var)));
    }
    let mut block = Block::new(None);
    block.instrs = body;
    g.blocks.push(block);
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text, verify};

    fn outlined(text: &str) -> Program {
        let mut p = parse_text(text).unwrap();
        outline(&mut p).unwrap();
        verify(&p).unwrap();
        p
    }

    fn output(p: &Program, args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let outcome = run(p, &args, &Limits::default());
        outcome.result.unwrap();
        outcome.stdout
    }

    /// Writes 10, 11, ... into consecutive cells: `ptradd`, `const`,
    /// `store` again and again, the constants differing.
    fn stores(count: usize) -> String {
        let runs: String = (1..=count)
            .map(|k| {
                format!(
                    "  p{k}: ptr<int> = ptradd p{} one;\n  v{k}: int = const {};\n  store p{k} v{k};\n",
                    k - 1,
                    10 + k
                )
            })
            .collect();
        format!("@main {{\n  n: int = const 8;\n  one: int = const 1;\n  p0: ptr<int> = alloc n;\n{runs}  x: int = load p{count};\n  print x;\n  free p0;\n}}")
    }

    #[test]
    fn a_repeated_run_becomes_one_function_and_calls() {
        // A store and the next run's ptradd form the repeated window (each
        // `const` differs, so none is in it): four calls, each passing the
        // pointer, the value and `one`.
        let text = stores(5);
        let before = parse_text(&text).unwrap();
        let after = outlined(&text);
        assert!(after.instr_count() < before.instr_count(), "{}", to_text(&after));
        let g = after.function_named("outlined.1").expect("a new function");
        assert_eq!(after.function(g).params.len(), 3, "{}", to_text(&after));
        let calls = after.functions[0].instrs().filter(|i| i.op == Op::Call).count();
        assert_eq!(calls, 4, "{}", to_text(&after));
        assert_eq!(output(&after, &[]), output(&before, &[]));
    }

    #[test]
    fn windows_with_two_live_results_stay() {
        // Every repeated pair writes two variables that are printed at the end.
        let text = "@main(x: int) {
  one: int = const 1;
  a1: int = add x one;
  b1: int = mul x x;
  a2: int = add b1 one;
  b2: int = mul b1 b1;
  a3: int = add b2 one;
  b3: int = mul b2 b2;
  a4: int = add b3 one;
  b4: int = mul b3 b3;
  print a1 a2 a3 a4 b4;
}";
        let mut p = parse_text(text).unwrap();
        assert!(!outline(&mut p).unwrap(), "{}", to_text(&p));
    }

    #[test]
    fn a_window_reading_a_maybe_unassigned_variable_stays() {
        // `v` is unassigned on the path through .skip: reading it errors, after
        // the first print; a call reading it up front would fail before.
        let run = "  print one;\n  w: int = add v one;\n  print w;\n";
        let text = format!("@main(c: bool) {{\n  br c .set .skip;\n.set:\n  v: int = const 5;\n.skip:\n  one: int = const 1;\n{}}}", run.repeat(4));
        let mut p = parse_text(&text).unwrap();
        assert!(!outline(&mut p).unwrap(), "{}", to_text(&p));
    }

    #[test]
    fn a_variable_read_only_in_unreachable_code_keeps_a_write() {
        // `t` is dead after every run, but the block after `ret` reads it:
        // taking every write of `t` into the new function left a read of a
        // variable written nowhere (found by the pass_mutants fuzz target).
        let run = "  t: int = add x one;
  u: int = mul t x;
  print u;
";
        let text = format!(
            "@main(x: int) {{
  one: int = const 1;
{}  ret;
.dead:
  print t;
}}",
            run.repeat(4)
        );
        let p = outlined(&text);
        assert!(
            p.functions.len() > 1,
            "the runs are still outlined:
{}",
            to_text(&p)
        );
        assert_eq!(output(&p, &["3"]), output(&parse_text(&text).unwrap(), &["3"]));
    }

    #[test]
    fn a_second_run_changes_nothing_and_output_is_kept_everywhere() {
        check_pass(&outline);
    }
}
