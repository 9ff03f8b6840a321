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

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::unassigned_reads;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, FuncId, Function, Instr, Op, Program, VarId};
use crate::bril::verify::verify_function;
use crate::error::Result;

/// Rounds per run: what one round drops can leave more to drop (a value
/// passed on to a dropped parameter, a call result passed as one), so a
/// few rounds run, each in time proportional to the program.
const ROUNDS: usize = 4;

/// `-dead-args`. A program with nothing to drop is not copied.
pub fn dead_args(program: &mut Program) -> Result<bool> {
    let Some(first) = plan(program) else { return Ok(false) };
    let original = program.clone();
    let mut touched = vec![false; program.functions.len()];
    apply(program, first, &mut touched);
    for _ in 1..ROUNDS {
        let Some(drops) = plan(program) else { break };
        apply(program, drops, &mut touched);
    }
    // Every edit is proven safe; a failed check would be a bug, and the
    // program is then left as it was rather than broken.
    let well_formed = (0..program.functions.len())
        .filter(|&g| touched[g])
        .all(|g| verify_function(program, &program.functions[g]).is_ok());
    if !well_formed {
        *program = original;
        #[cfg(test)]
        crate::bril::analysis::edit::DROPPED.with(|d| d.set(d.get() + 1));
        return Ok(false);
    }
    Ok(true)
}

/// What one round drops: for each function, whether its return value goes
/// (`void`) and which parameters (`dead`), and the calls to it (`sites`).
struct Drops {
    sites: Vec<Vec<Site>>,
    void: Vec<bool>,
    dead: Vec<Vec<bool>>,
}

/// One round's drops: return values first (a dropped one no longer reads
/// what `ret` returned), then parameters; `None` if there is nothing to drop.
fn plan(program: &Program) -> Option<Drops> {
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
    let mut void: Vec<bool> = (0..n)
        .map(|c| {
            candidate(c) && program.functions[c].ret.is_some() && returns_assigned(&program.functions[c])
        })
        .collect();
    keep_kept_results(program, &sites, &mut void);
    let mut dead: Vec<Vec<bool>> = (0..n)
        .map(|c| match candidate(c) {
            true => unread_params(&program.functions[c], FuncId::new(c), void[c]),
            false => vec![false; program.functions[c].params.len()],
        })
        .collect();
    keep_maybe_unassigned_arguments(program, &sites, &mut dead);
    if dead.iter().all(|d| !d.contains(&true)) && !void.contains(&true) {
        return None;
    }
    Some(Drops { sites, void, dead })
}

/// Drops what `drops` (planned on `program` as it stands) names, marking the
/// functions it edits in `touched`.
fn apply(program: &mut Program, drops: Drops, touched: &mut [bool]) {
    let Drops { sites, void, dead } = drops;
    for c in 0..program.functions.len() {
        if !(dead[c].contains(&true) || void[c]) {
            continue;
        }
        let f = program.function_mut(FuncId::new(c));
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
            let instr = &mut program.function_mut(site.caller).blocks[site.block.index()].instrs[site.index];
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
/// type would be lost), even in unreachable code. When `void`, the
/// function's `ret`s lose their value and do not count either.
///
/// The liveness of the parameters alone, one parameter at a time as
/// [`Liveness`] computes it: from each block reading the parameter before
/// writing it, back through predecessors until a block writing it. Each
/// parameter costs the blocks where it is live.
fn unread_params(f: &Function, id: FuncId, void: bool) -> Vec<bool> {
    let count = f.params.len();
    let mut position = vec![None; f.vars.len()];
    for (k, p) in f.params.iter().enumerate() {
        if let Some(slot) = position.get_mut(p.var.index()) {
            *slot = Some(k);
        }
    }
    let param_of = |v: VarId| position.get(v.index()).copied().flatten();
    // Whether reading argument `pos` of `instr` does not count: it passes
    // parameter `k` to its own position of a call to this function, or is
    // a returned value about to be dropped.
    let passes_back = |instr: &Instr, pos: usize, k: usize| {
        (instr.op == Op::Call && instr.func == Some(id) && pos == k) || (void && instr.op == Op::Ret)
    };
    let (mut written, mut read) = (vec![false; count], vec![false; count]);
    // (parameter, block) pairs: the blocks reading it first, those writing it.
    let mut reads_first: Vec<(u32, u32)> = Vec::new();
    let mut writers: Vec<(u32, u32)> = Vec::new();
    let (mut touched, mut wrote) = (Marks::new(count), Marks::new(count));
    for (b, block) in f.blocks.iter().enumerate() {
        touched.clear();
        wrote.clear();
        for instr in &block.instrs {
            for (pos, &u) in instr.uses().iter().enumerate() {
                if let Some(k) = param_of(u).filter(|&k| !passes_back(instr, pos, k)) {
                    read[k] = true;
                    if touched.insert(k) {
                        reads_first.push((k as u32, b as u32));
                    }
                }
            }
            if let Some(k) = instr.def().and_then(param_of) {
                written[k] = true;
                touched.insert(k);
                if wrote.insert(k) {
                    writers.push((k as u32, b as u32));
                }
            }
        }
    }
    reads_first.sort_unstable();
    writers.sort_unstable();
    let cfg = Cfg::new(f);
    let blocks = f.blocks.len();
    // Per block, the last parameter found live on entry, and written there.
    let (mut live_in, mut writes_it) = (vec![u32::MAX; blocks], vec![u32::MAX; blocks]);
    let mut live_at_entry = vec![false; count];
    let mut stack = Vec::new();
    let mut w = 0;
    for group in reads_first.chunk_by(|x, y| x.0 == y.0) {
        let k = group[0].0;
        while writers.get(w).is_some_and(|&(j, _)| j < k) {
            w += 1;
        }
        while let Some(&(_, b)) = writers.get(w).filter(|&&(j, _)| j == k) {
            writes_it[b as usize] = k;
            w += 1;
        }
        for &(_, b) in group {
            if live_in[b as usize] != k {
                live_in[b as usize] = k;
                stack.push(b as usize);
            }
        }
        while let Some(b) = stack.pop() {
            for p in cfg.preds[b].iter().map(|p| p.index()) {
                if writes_it[p] != k && live_in[p] != k {
                    live_in[p] = k;
                    stack.push(p);
                }
            }
        }
        live_at_entry[k as usize] = live_in.first() == Some(&k);
    }
    (0..count).map(|k| !live_at_entry[k] && (written[k] || !read[k])).collect()
}

/// Whether every `ret v` of `f` returns a certainly assigned variable.
fn returns_assigned(f: &Function) -> bool {
    let returned: Vec<VarId> =
        f.instrs().filter(|i| i.op == Op::Ret).flat_map(|i| i.args.iter().copied()).collect();
    let mut candidates = vec![false; f.vars.len()];
    returned.iter().for_each(|v| candidates[v.index()] = true);
    unassigned_reads(f, &candidates).iter().all(|r| f.block(r.block).instrs[r.index].op != Op::Ret)
}

/// The calls each function makes to functions `losing` says lose
/// something, sorted by place.
fn calls_by_caller(
    program: &Program,
    sites: &[Vec<Site>],
    losing: impl Fn(usize) -> bool,
) -> Vec<Vec<(BlockId, usize, FuncId)>> {
    let mut by_caller: Vec<Vec<(BlockId, usize, FuncId)>> = vec![Vec::new(); program.functions.len()];
    for (c, list) in sites.iter().enumerate().filter(|&(c, _)| losing(c)) {
        for s in list {
            by_caller[s.caller.index()].push((s.block, s.index, FuncId::new(c)));
        }
    }
    for calls in &mut by_caller {
        calls.sort_unstable_by_key(|&(b, i, _)| (b, i));
    }
    by_caller
}

/// Keeps a return value some call keeps: its destination is live after it,
/// or the call is in unreachable code (its destination would lose its type).
fn keep_kept_results(program: &Program, sites: &[Vec<Site>], void: &mut [bool]) {
    let by_caller = calls_by_caller(program, sites, |c| void[c]);
    for (g, calls) in by_caller.iter().enumerate().filter(|(_, calls)| !calls.is_empty()) {
        let f = &program.functions[g];
        let cfg = Cfg::new(f);
        // Only the calls' destinations are asked about.
        let results = calls.iter().filter_map(|&(b, i, _)| f.block(b).instrs[i].def());
        let live = Liveness::of_vars(f, &cfg, results);
        let mut after = Marks::new(f.vars.len());
        for group in calls.chunk_by(|x, y| x.0 == y.0) {
            let b = group[0].0;
            if !cfg.is_reachable(b) {
                for &(_, i, c) in group {
                    if f.block(b).instrs[i].dest.is_some() {
                        void[c.index()] = false;
                    }
                }
                continue;
            }
            let mut j = group.len();
            live.walk_back(f, b, &mut after, |i, instr, live_after| {
                while j > 0 && group[j - 1].1 >= i {
                    let (_, at, c) = group[j - 1];
                    if at == i && instr.dest.is_some_and(|d| live_after.contains(d.var.index())) {
                        void[c.index()] = false;
                    }
                    j -= 1;
                }
            });
        }
    }
}

/// Keeps a parameter whose argument some call may pass unassigned: the
/// call must still fail there.
fn keep_maybe_unassigned_arguments(program: &Program, sites: &[Vec<Site>], dead: &mut [Vec<bool>]) {
    let by_caller = calls_by_caller(program, sites, |c| dead[c].contains(&true));
    for (g, calls) in by_caller.iter().enumerate().filter(|(_, calls)| !calls.is_empty()) {
        let f = &program.functions[g];
        let mut candidates = vec![false; f.vars.len()];
        for &(b, i, c) in calls {
            for (pos, a) in f.block(b).instrs[i].args.iter().enumerate() {
                if dead[c.index()].get(pos) == Some(&true) {
                    candidates[a.index()] = true;
                }
            }
        }
        for r in unassigned_reads(f, &candidates) {
            let Ok(k) = calls.binary_search_by_key(&(r.block, r.index), |&(b, i, _)| (b, i)) else {
                continue;
            };
            let (c, instr) = (calls[k].2, &f.block(r.block).instrs[r.index]);
            for (pos, a) in instr.args.iter().enumerate() {
                if *a == r.var && dead[c.index()].get(pos) == Some(&true) {
                    dead[c.index()][pos] = false;
                }
            }
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
