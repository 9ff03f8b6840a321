//! `-dead-args`: dead argument and return value elimination, across the
//! whole program.
//!
//! - A parameter whose incoming value no path reads (it is not live at the
//!   function's entry) is dropped from the function's signature and from
//!   every call. A read that only passes the parameter back to the same
//!   position of a call to the same function does not count, so a value
//!   threaded through a recursion unused is dropped too.
//! - A return value no call keeps (every call has no destination or one
//!   that is dead after the call) is dropped: the function becomes void,
//!   its `ret v` become `ret` and its calls lose their destinations.
//!
//! `@main` keeps its signature (its arguments come from the command line),
//! and functions nothing calls are left alone. The computations that fed
//! the dropped values are left for dead code elimination.
//!
//! Why it is safe: a dropped parameter becomes an ordinary variable that is
//! written before every read; a dropped argument or returned value was
//! never used. Reading an unassigned variable is an error, so an argument
//! or returned variable is only dropped where it is certainly assigned
//! (dropping the read could otherwise make a failing program succeed).

use crate::bril::analysis::bitset::BitSet;
use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::dataflow::{solve, Dataflow, Direction};
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::liveness::{step_back, Liveness};
use crate::bril::ir::{BlockId, FuncId, Function, Op, Program, VarId};
use crate::bril::verify::verify_function;
use crate::error::Result;

/// `-dead-args`.
pub fn dead_args(program: &mut Program) -> Result<bool> {
    let n = program.functions.len();
    let main = program.main();
    let mut sites: Vec<Vec<Site>> = vec![Vec::new(); n];
    for (g, f) in program.functions.iter().enumerate() {
        for b in f.block_ids() {
            for (i, instr) in f.block(b).instrs.iter().enumerate() {
                if let (Op::Call, Some(c)) = (instr.op, instr.func) {
                    if let Some(list) = sites.get_mut(c.index()) {
                        list.push(Site { caller: FuncId::new(g), block: b, index: i });
                    }
                }
            }
        }
    }
    let candidate = |c: usize| Some(FuncId::new(c)) != main && !sites[c].is_empty();
    let mut dead: Vec<Vec<bool>> = (0..n)
        .map(|c| match candidate(c) {
            true => unread_params(&program.functions[c], FuncId::new(c)),
            false => vec![false; program.functions[c].params.len()],
        })
        .collect();
    let mut void: Vec<bool> = (0..n)
        .map(|c| {
            candidate(c) && program.functions[c].ret.is_some() && returns_assigned(&program.functions[c])
        })
        .collect();
    check_call_sites(program, &sites, &mut dead, &mut void);
    if dead.iter().all(|d| !d.contains(&true)) && !void.contains(&true) {
        return Ok(false);
    }
    let original = program.clone();
    let mut touched = vec![false; n];
    for c in 0..n {
        if !(dead[c].contains(&true) || void[c]) {
            continue;
        }
        let f = &mut program.functions[c];
        let mut k = 0;
        f.params.retain(|_| {
            k += 1;
            !dead[c][k - 1]
        });
        if void[c] {
            f.ret = None;
            for instr in f.instrs_mut().filter(|i| i.op == Op::Ret) {
                instr.args.clear();
            }
        }
        touched[c] = true;
        for site in &sites[c] {
            let instr =
                &mut program.functions[site.caller.index()].blocks[site.block.index()].instrs[site.index];
            let mut k = 0;
            let args: Vec<VarId> = instr
                .args
                .iter()
                .copied()
                .filter(|_| {
                    k += 1;
                    !dead[c][k - 1]
                })
                .collect();
            instr.args = args.as_slice().into();
            if void[c] {
                instr.dest = None;
            }
            touched[site.caller.index()] = true;
        }
    }
    // Every edit above is proven safe; a failed check would be a bug, and
    // the program is then left as it was rather than broken.
    let well_formed =
        (0..n).filter(|&g| touched[g]).all(|g| verify_function(program, &program.functions[g]).is_ok());
    if !well_formed {
        *program = original;
        #[cfg(test)]
        crate::bril::analysis::edit::DROPPED.with(|d| d.set(d.get() + 1));
        return Ok(false);
    }
    Ok(true)
}

/// A call: the function it is in and where.
#[derive(Clone, Copy)]
struct Site {
    caller: FuncId,
    block: BlockId,
    index: usize,
}

/// Which parameters of `f` (whose id is `id`) no path reads before writing
/// them, a read passing a parameter to its own position of a call to `f`
/// not counting. A parameter never written must not be read at all (its
/// type would be lost), even in unreachable code.
fn unread_params(f: &Function, id: FuncId) -> Vec<bool> {
    let problem = ParamsLive::new(f, id);
    let cfg = Cfg::new(f);
    let live = solve(&problem, f, &cfg);
    let entry = live.before.first().cloned().unwrap_or_else(|| BitSet::new(f.params.len()));
    let mut written = vec![false; f.params.len()];
    let mut read = vec![false; f.params.len()];
    for instr in f.instrs() {
        if let Some(k) = instr.def().and_then(|d| problem.param_of(d)) {
            written[k] = true;
        }
        for (pos, &u) in instr.uses().iter().enumerate() {
            if let Some(k) = problem.param_of(u) {
                read[k] |= !problem.passes_back(instr, pos, k);
            }
        }
    }
    (0..f.params.len()).map(|k| !entry.contains(k) && (written[k] || !read[k])).collect()
}

/// Liveness of the parameters alone, indexed by position.
struct ParamsLive {
    id: FuncId,
    /// The position of each variable among the parameters.
    position: Vec<Option<usize>>,
    count: usize,
}

impl ParamsLive {
    fn new(f: &Function, id: FuncId) -> ParamsLive {
        let mut position = vec![None; f.vars.len()];
        for (k, p) in f.params.iter().enumerate() {
            if let Some(slot) = position.get_mut(p.var.index()) {
                *slot = Some(k);
            }
        }
        ParamsLive { id, position, count: f.params.len() }
    }

    fn param_of(&self, v: VarId) -> Option<usize> {
        self.position.get(v.index()).copied().flatten()
    }

    /// Whether argument `pos` of `instr` passes parameter `k` to its own
    /// position of a call to this function.
    fn passes_back(&self, instr: &crate::bril::ir::Instr, pos: usize, k: usize) -> bool {
        instr.op == Op::Call && instr.func == Some(self.id) && pos == k
    }
}

impl Dataflow for ParamsLive {
    type Fact = BitSet;
    const DIRECTION: Direction = Direction::Backward;
    fn boundary(&self, _: &Function) -> BitSet {
        BitSet::new(self.count)
    }
    fn top(&self, _: &Function) -> BitSet {
        BitSet::new(self.count)
    }
    fn meet(&self, acc: &mut BitSet, other: &BitSet) {
        acc.union_with(other);
    }
    fn transfer(&self, f: &Function, block: BlockId, out: &BitSet) -> BitSet {
        let mut live = out.clone();
        for instr in f.block(block).instrs.iter().rev() {
            if let Some(k) = instr.def().and_then(|d| self.param_of(d)) {
                live.remove(k);
            }
            for (pos, &u) in instr.uses().iter().enumerate() {
                if let Some(k) = self.param_of(u).filter(|&k| !self.passes_back(instr, pos, k)) {
                    live.insert(k);
                }
            }
        }
        live
    }
}

/// Whether every `ret v` of `f` returns a certainly assigned variable.
fn returns_assigned(f: &Function) -> bool {
    let cfg = Cfg::new(f);
    let definite = Definite::new(f, &cfg);
    f.block_ids().filter(|&b| cfg.is_reachable(b)).all(|b| {
        let block = f.block(b);
        match block.terminator() {
            Some(t) if t.op == Op::Ret => {
                let mut assigned = definite.before[b.index()].clone();
                for d in block.instrs.iter().filter_map(|i| i.def()) {
                    assigned.insert(d.index());
                }
                t.args.iter().all(|v| assigned.contains(v.index()))
            }
            _ => true,
        }
    })
}

/// Keeps a parameter whose argument some call may pass unassigned, and a
/// return value some call keeps.
fn check_call_sites(program: &Program, sites: &[Vec<Site>], dead: &mut [Vec<bool>], void: &mut [bool]) {
    // The calls each caller makes to a function losing something, by block.
    let n = program.functions.len();
    let mut by_caller: Vec<Vec<(BlockId, usize, FuncId)>> = vec![Vec::new(); n];
    for (c, list) in sites.iter().enumerate() {
        if dead[c].contains(&true) || void[c] {
            for s in list {
                by_caller[s.caller.index()].push((s.block, s.index, FuncId::new(c)));
            }
        }
    }
    for (g, calls) in by_caller.iter_mut().enumerate() {
        if calls.is_empty() {
            continue;
        }
        calls.sort_unstable_by_key(|&(b, i, _)| (b, i));
        let f = &program.functions[g];
        let cfg = Cfg::new(f);
        let definite = Definite::new(f, &cfg);
        let live = calls.iter().any(|&(_, _, c)| void[c.index()]).then(|| Liveness::new(f, &cfg));
        let mut k = 0;
        while k < calls.len() {
            let b = calls[k].0;
            let end = k + calls[k..].iter().take_while(|c| c.0 == b).count();
            let instrs = &f.block(b).instrs;
            // Sweep forward for what is assigned at each call, backward for
            // what is live after it.
            let mut assigned = definite.before[b.index()].clone();
            let mut j = k;
            for (i, instr) in instrs.iter().enumerate() {
                while j < end && calls[j].1 == i {
                    let c = calls[j].2;
                    for (pos, a) in instr.args.iter().enumerate() {
                        if dead[c.index()].get(pos) == Some(&true) && !assigned.contains(a.index()) {
                            dead[c.index()][pos] = false;
                        }
                    }
                    j += 1;
                }
                if let Some(d) = instr.def() {
                    assigned.insert(d.index());
                }
            }
            if let Some(live) = &live {
                let mut after = live.live_out[b.index()].clone();
                let mut j = end;
                for (i, instr) in instrs.iter().enumerate().rev() {
                    while j > k && calls[j - 1].1 == i {
                        let c = calls[j - 1].2;
                        if instr.dest.is_some_and(|d| after.contains(d.var.index())) {
                            void[c.index()] = false;
                        }
                        j -= 1;
                    }
                    step_back(&mut after, instr);
                }
            }
            if !cfg.is_reachable(b) {
                for &(_, i, c) in &calls[k..end] {
                    if instrs[i].dest.is_some() {
                        void[c.index()] = false;
                    }
                }
            }
            k = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn eliminated(src: &str) -> String {
        let mut p = parse_text(src).unwrap();
        let before = run(&p, &[], &Limits::default());
        assert!(dead_args(&mut p).unwrap(), "{src}");
        let after = run(&p, &[], &Limits::default());
        assert_eq!((after.stdout, after.result.is_ok()), (before.stdout, before.result.is_ok()));
        assert!(!dead_args(&mut p).unwrap(), "nothing left to drop");
        to_text(&p)
    }

    #[test]
    fn unused_parameters_and_results_are_dropped_everywhere() {
        let src = "@main {\n  a: int = const 1;\n  b: int = const 2;\n  x: int = call @f a b;\n  print x;\n  y: int = call @f b a;\n}\n@f(u: int, v: int): int {\n  v: int = const 3;\n  r: int = add u v;\n  ret r;\n}\n";
        assert_eq!(
            eliminated(src),
            "@main {\n  a: int = const 1;\n  b: int = const 2;\n  x: int = call @f a;\n  print x;\n  y: int = call @f b;\n}\n@f(u: int): int {\n  v: int = const 3;\n  r: int = add u v;\n  ret r;\n}\n"
        );
        let src = "@main {\n  a: int = const 1;\n  x: int = call @g a;\n  y: int = call @g a;\n}\n@g(u: int): int {\n  print u;\n  ret u;\n}\n";
        assert_eq!(
            eliminated(src),
            "@main {\n  a: int = const 1;\n  call @g a;\n  call @g a;\n}\n@g(u: int) {\n  print u;\n  ret;\n}\n"
        );
    }

    #[test]
    fn a_value_only_passed_along_a_recursion_is_dropped() {
        let src = "@main {\n  n: int = const 3;\n  k: int = const 7;\n  call @down n k;\n}\n@down(n: int, k: int) {\n  zero: int = const 0;\n  done: bool = le n zero;\n  br done .end .more;\n.more:\n  print n;\n  one: int = const 1;\n  m: int = sub n one;\n  call @down m k;\n.end:\n}\n";
        let text = eliminated(src);
        assert!(text.contains("@down(n: int) {") && text.contains("call @down m;"), "{text}");
    }

    #[test]
    fn main_used_values_and_maybe_unassigned_arguments_stay() {
        let sources = [
            "@main(x: int) {\n  print x;\n  call @main x;\n}\n",
            "@main {\n  a: int = const 1;\n  x: int = call @id a;\n  print x;\n}\n@id(u: int): int {\n  ret u;\n}\n",
            // The argument is unassigned on one path: the call must still fail there.
            "@main(c: bool) {\n  br c .set .go;\n.set:\n  a: int = const 1;\n.go:\n  call @f a;\n}\n@f(u: int) {\n}\n",
            "@f(u: int) {\n  print u;\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!dead_args(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| dead_args(p));
    }
}
