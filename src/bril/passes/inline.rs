//! `-inline`: replaces calls to small non-recursive functions by their body.
//!
//! The caller's block is split at the call; the callee's blocks are copied in
//! between with fresh variable and label names, each `ret` becomes a copy
//! into the call's destination and a jump to the continuation block. A
//! parameter the callee never assigns simply becomes the argument variable
//! (nothing in the copied body writes caller variables); others get an `id`
//! copy, and so do all of a call's arguments when one of them may be
//! undefined there (see [`MaybeUndefinedReads`]): the copies read them where
//! the call did, so a read that fails still fails before the body runs.
//! Callees are processed first, so inlined bodies are already inlined.
//!
//! Safe because the copied body computes exactly what the call did: only
//! callees are taken whose every read is preceded by a definition on every
//! path (a fresh frame's zeroed registers are never read, so running the body
//! again in a loop reads the same values), that do not use SSA shadow
//! variables, that cannot recurse, and, when they return a value, whose last
//! block cannot fall off the end. A size budget bounds growth.

use super::call_graph::CallGraph;
use super::facts::{all_reads_defined, def_counts, use_counts, uses_ssa_ops};
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::ir::{Block, BlockId, FuncId, Function, Instr, Name, Op, Pos, Program, VarId};
use crate::bril::names::FreshNames;
use crate::error::{Error, ErrorKind, Result};
use std::sync::Arc;

/// Largest callee (static instructions) worth copying.
const MAX_CALLEE_INSTRS: usize = 40;
/// A caller stops receiving bodies once it would exceed this size.
const MAX_CALLER_INSTRS: usize = 1000;

pub fn inline(program: &mut Program) -> Result<bool> {
    inline_up_to(program, MAX_CALLEE_INSTRS)
}

/// `-inline` with callees of at most `max_callee` instructions.
pub fn inline_up_to(program: &mut Program, max_callee: usize) -> Result<bool> {
    let graph = CallGraph::new(program);
    let recursive = graph.recursive();
    let mut eligible: Vec<Option<bool>> = vec![None; program.functions.len()];
    let mut changed = false;
    for fid in graph.bottom_up() {
        changed |= inline_into(program, fid, &recursive, &mut eligible, max_callee)?;
        // Callers come later and see the function as it is now.
        eligible[fid.index()] = None;
    }
    Ok(changed)
}

/// Whether calls to `g` may be replaced by its body.
fn inlinable(g: &Function, gid: FuncId, recursive: &[bool], max_callee: usize) -> bool {
    let cannot_fall_off = g.ret.is_none() || g.blocks.last().is_none_or(|b| b.terminator().is_some());
    g.instr_count() <= max_callee
        && cannot_fall_off
        && exit_overhead(g) <= CALL_COST
        && !recursive[gid.index()]
        && !uses_ssa_ops(g)
        && all_reads_defined(g)
        && can_return(g)
}

/// Whether some path through `g` returns (a reachable `ret`, or falling off
/// the end). A body that never returns would leave the code after the call
/// unreachable, and a read there of what only that code defines (say at a
/// loop's top) defined on no path at all.
fn can_return(g: &Function) -> bool {
    let cfg = crate::bril::analysis::cfg::Cfg::new(g);
    g.block_ids().any(|b| {
        cfg.is_reachable(b)
            && match g.block(b).terminator() {
                Some(t) => t.op == Op::Ret,
                None => b.index() + 1 == g.blocks.len(),
            }
    })
}

/// What a call costs beyond the callee's body: the `call` and the `ret`.
const CALL_COST: usize = 2;

/// Instructions an inlined copy executes beyond the callee's body, at most:
/// copies of assigned parameters, and per return a copy of the result
/// (unless it can be computed straight into the destination) and a jump to
/// the continuation (unless the return ends the last block). Kept within
/// [`CALL_COST`] so inlining never makes a run longer.
fn exit_overhead(g: &Function) -> usize {
    let (assigned, reads) = (def_counts(g), use_counts(g));
    let param_copies = g.params.iter().filter(|p| assigned[p.var.index()] > 0).count();
    let last = g.blocks.len().saturating_sub(1);
    let mut worst_return = 0;
    for (b, block) in g.blocks.iter().enumerate() {
        for (k, instr) in block.instrs.iter().enumerate().filter(|(_, i)| i.op == Op::Ret) {
            let jump = usize::from(!(b == last && k + 1 == block.instrs.len()));
            let copy = match instr.args.first() {
                Some(&v) => {
                    let direct = assigned[v.index()] == 1
                        && reads[v.index()] == 1
                        && computed_directly(g, &block.instrs[..k], v);
                    usize::from(!direct)
                }
                None => 0,
            };
            worst_return = worst_return.max(copy + jump);
        }
    }
    param_copies + worst_return
}

/// Whether `v` is defined in `code` (the block before its `ret`) with no
/// parameter read after: then, whatever variable the caller passes, the
/// definition can write the call's destination directly ([`compute_into`]).
fn computed_directly(g: &Function, code: &[Instr], v: VarId) -> bool {
    let Some(j) = code.iter().rposition(|i| i.def() == Some(v)) else { return false };
    code[j + 1..].iter().all(|i| !i.uses().iter().any(|u| g.params.iter().any(|p| p.var == *u)))
}

/// Inlines the eligible calls of `fid`. Callees come first (bottom-up), so
/// a callee is final when asked about: whether it may be inlined is
/// decided once, in `eligible`.
fn inline_into(
    program: &mut Program,
    fid: FuncId,
    recursive: &[bool],
    eligible: &mut [Option<bool>],
    max_callee: usize,
) -> Result<bool> {
    let mut f = std::mem::replace(&mut program.functions[fid.index()], Arc::new(Function::new("")));
    let mut size = f.instr_count();
    let mut names: Option<(FreshNames, FreshNames)> = None;
    let mut changed = false;
    // Of each call, in layout order, whether it reads a variable that may be
    // undefined. The walk below sees the original calls in that order (it
    // steps over the bodies it copies in), counting them in `call`. Asked
    // at the first call to inline, before any edit: most functions have none.
    let mut risky_calls: Option<Vec<bool>> = None;
    let mut call = 0;
    let (mut b, mut i) = (0, 0);
    let result = loop {
        if size > MAX_CALLER_INSTRS {
            break Ok(());
        }
        let Some(block) = f.blocks.get(b) else { break Ok(()) };
        let Some(instr) = block.instrs.get(i) else {
            (b, i) = (b + 1, 0);
            continue;
        };
        if instr.op == Op::Call {
            call += 1;
        }
        let Some(gid) = instr.func.filter(|g| instr.op == Op::Call && g.index() != fid.index()) else {
            i += 1;
            continue;
        };
        let Some(g) = program.functions.get(gid.index()) else {
            i += 1;
            continue;
        };
        let ok = *eligible[gid.index()].get_or_insert_with(|| inlinable(g, gid, recursive, max_callee));
        if !ok || size + g.instr_count() > MAX_CALLER_INSTRS {
            i += 1;
            continue;
        }
        let risky = risky_calls.get_or_insert_with(|| calls_reading_undefined(&f));
        let copy_arguments = risky.get(call - 1).copied().unwrap_or(true);
        let (vars, labels) = names.get_or_insert_with(|| (FreshNames::vars(&f), FreshNames::labels(&f)));
        match inline_call(Arc::make_mut(&mut f), BlockId::new(b), i, g, vars, labels, copy_arguments) {
            Ok(added) => size = size + added - 1,
            Err(e) => break Err(e),
        }
        changed = true;
        // Continue after the copied body, in the continuation block.
        (b, i) = (b + 1 + g.blocks.len(), 0);
    };
    program.functions[fid.index()] = f;
    result.map(|()| changed)
}

/// Of each call of `f`, in layout order, whether it reads a variable that
/// may be undefined there.
fn calls_reading_undefined(f: &Function) -> Vec<bool> {
    let failing = MaybeUndefinedReads::of(f);
    f.block_ids()
        .flat_map(|b| {
            let failing = &failing;
            f.block(b)
                .instrs
                .iter()
                .enumerate()
                .filter(|(_, i)| i.op == Op::Call)
                .map(move |(k, _)| failing.at(b, k))
        })
        .collect()
}

/// Replaces the call at `f.blocks[b].instrs[i]` by the body of `g`; returns
/// how many instructions that added (the call itself not subtracted). With
/// `copy_arguments`, every parameter gets a copy of its argument.
fn inline_call(
    f: &mut Function,
    b: BlockId,
    i: usize,
    g: &Function,
    names: &mut FreshNames,
    labels: &mut FreshNames,
    copy_arguments: bool,
) -> Result<usize> {
    let internal = |m: &str| Error::new(ErrorKind::Service, format!("inline: {m}"));
    let block = &mut f.blocks[b.index()];
    let tail = block.instrs.split_off(i + 1);
    let call = block.instrs.pop().ok_or_else(|| internal("no call"))?;
    if call.args.len() != g.params.len() {
        return Err(internal("argument count differs from the callee's"));
    }

    // Blocks after `b` move down past the copied body and the continuation.
    let n = g.blocks.len();
    let shift = |l: &mut BlockId| {
        if l.index() > b.index() {
            *l = BlockId::new(l.index() + n + 1);
        }
    };
    for instr in f.instrs_mut() {
        instr.labels.iter_mut().for_each(shift);
    }
    let mut tail = tail;
    for instr in &mut tail {
        instr.labels.iter_mut().for_each(shift);
    }

    let mut vars = VarMap { map: vec![None; g.vars.len()], prefix: g.name.clone(), names };
    let mut added = 0;
    let (assigned, reads) = (def_counts(g), use_counts(g));
    for (p, &arg) in g.params.iter().zip(call.args.iter()) {
        if assigned[p.var.index()] == 0 && !copy_arguments {
            vars.map[p.var.index()] = Some(arg);
        } else {
            let copy = vars.get(f, g, p.var);
            f.blocks[b.index()].instrs.push(Instr::value(Op::Id, copy, p.ty, &[arg]));
            added += 1;
        }
    }

    let cont = BlockId::new(b.index() + 1 + n);
    let mut body = Vec::with_capacity(n + 1);
    for (j, gb) in g.blocks.iter().enumerate() {
        let label = gb.label.as_ref().map(|l| labels.fresh(&format!("{}.{l}", g.name)));
        let mut copy = Block::new(label);
        for (k, instr) in gb.instrs.iter().enumerate() {
            if instr.op == Op::Ret {
                if let (Some(d), Some(&v)) = (call.dest, instr.args.first()) {
                    let only_for_return = assigned[v.index()] == 1 && reads[v.index()] == 1;
                    let v = vars.get(f, g, v);
                    if !(only_for_return && compute_into(&mut copy.instrs, v, d.var)) {
                        copy.instrs.push(Instr::value(Op::Id, d.var, d.ty, &[v]).with_pos(call.pos));
                    }
                }
                let falls_into_cont = j + 1 == n && k + 1 == gb.instrs.len();
                if !falls_into_cont {
                    copy.instrs.push(Instr::jmp(cont));
                }
                continue;
            }
            let mut new = instr.clone().with_pos(Pos::UNKNOWN);
            for a in new.args.iter_mut() {
                *a = vars.get(f, g, *a);
            }
            if let Some(d) = new.dest.as_mut() {
                d.var = vars.get(f, g, d.var);
            }
            for l in new.labels.iter_mut() {
                *l = BlockId::new(b.index() + 1 + l.index());
            }
            copy.instrs.push(new);
        }
        body.push(copy);
    }
    added += body.iter().map(|block: &Block| block.instrs.len()).sum::<usize>();
    let mut rest = Block::new(Some(labels.fresh(&format!("{}.done", g.name))));
    rest.instrs = tail;
    body.push(rest);
    let at = b.index() + 1;
    f.blocks.splice(at..at, body);
    Ok(added)
}

/// Makes the definition of `v` in `code` write `dest` directly (the returned
/// value needs no copy), when nothing after it in `code` reads or writes
/// `dest`. True if done.
fn compute_into(code: &mut [Instr], v: VarId, dest: VarId) -> bool {
    let Some(j) = code.iter().rposition(|i| i.def() == Some(v)) else { return false };
    if code[j + 1..].iter().any(|i| i.def() == Some(dest) || i.uses().contains(&dest)) {
        return false;
    }
    match code[j].dest.as_mut() {
        Some(d) => {
            d.var = dest;
            true
        }
        None => false,
    }
}

/// The caller's variable standing for each callee variable, made on demand.
struct VarMap<'a> {
    map: Vec<Option<VarId>>,
    prefix: Name,
    names: &'a mut FreshNames,
}

impl VarMap<'_> {
    fn get(&mut self, f: &mut Function, g: &Function, v: VarId) -> VarId {
        if let Some(Some(mapped)) = self.map.get(v.index()) {
            return *mapped;
        }
        let fresh = self.names.fresh_var(f, &format!("{}.{}", self.prefix, g.var_name(v)));
        if let Some(slot) = self.map.get_mut(v.index()) {
            *slot = Some(fresh);
        }
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::{check_corpus, check_pass, Rerun};
    use crate::bril::{parse_text, to_text};

    fn inlined(src: &str) -> (Program, String) {
        let mut p = parse_text(src).unwrap();
        assert!(inline(&mut p).unwrap());
        let text = to_text(&p);
        (p, text)
    }

    #[test]
    fn a_small_callee_with_several_returns_is_copied_in() {
        let src = "@main {\n  a: int = const 5;\n  b: int = const -3;\n  x: int = call @abs a;\n  y: int = call @abs b;\n  print x y;\n}\n@abs(n: int): int {\n  zero: int = const 0;\n  neg: bool = lt n zero;\n  br neg .flip .keep;\n.flip:\n  m: int = sub zero n;\n  ret m;\n.keep:\n  ret n;\n}\n";
        let before = run(&parse_text(src).unwrap(), &[], &Limits::default());
        let (p, text) = inlined(src);
        let main = &p.functions[0];
        assert!(main.instrs().all(|i| i.op != Op::Call), "{text}");
        assert!(text.contains(".abs.flip:") && text.contains(".abs.flip.1:"), "labels renamed: {text}");
        assert!(
            text.contains("abs.neg: bool = lt a abs.zero;"),
            "unassigned parameter is the argument: {text}"
        );
        let after = run(&p, &[], &Limits::default());
        assert_eq!(after.stdout, before.stdout);
        assert!(after.dyn_inst < before.dyn_inst);
    }

    #[test]
    fn recursive_and_maybe_undefined_callees_stay_calls() {
        let src = "@main {\n  a: int = const 5;\n  x: int = call @f a;\n  call @g;\n  print x;\n}\n@f(n: int): int {\n  r: int = call @f n;\n  ret r;\n}\n@g {\n  c: bool = const true;\n  br c .a .b;\n.a:\n  v: int = const 1;\n.b:\n  print v;\n}\n";
        let mut p = parse_text(src).unwrap();
        assert!(!inline(&mut p).unwrap());
        assert_eq!(to_text(&p), src);
    }

    #[test]
    fn assigned_parameters_get_copies_and_nested_calls_are_flattened() {
        let src = "@main {\n  a: int = const 5;\n  x: int = call @twice a;\n  print x;\n}\n@twice(n: int): int {\n  n: int = call @inc n;\n  n: int = call @inc n;\n  ret n;\n}\n@inc(k: int): int {\n  one: int = const 1;\n  k: int = add k one;\n  ret k;\n}\n";
        let (p, text) = inlined(src);
        assert!(p.functions[0].instrs().all(|i| i.op != Op::Call), "{text}");
        assert!(text.contains("twice.n: int = id a;"), "{text}");
        assert_eq!(run(&p, &[], &Limits::default()).stdout, "7\n");
    }

    #[test]
    fn a_returned_value_is_computed_straight_into_the_destination() {
        let (p, text) = inlined("@main {\n  a: int = const 5;\n  x: int = call @sq a;\n  print x;\n}\n@sq(n: int): int {\n  r: int = mul n n;\n  ret r;\n}\n");
        assert!(text.contains("x: int = mul a a;") && !text.contains(" id "), "{text}");
        assert_eq!(run(&p, &[], &Limits::default()).stdout, "25\n");
    }

    /// The caller's loop back to its top reads `b`, which only the code
    /// after the call defines: inlining a body that never returns would
    /// leave that read defined on no path.
    #[test]
    fn a_callee_that_never_returns_stays_a_call() {
        let src = "@main(c: bool) {\n.top:\n  print b;\n  call @spin c;\n  b: int = const 0;\n  br c .top .end;\n.end:\n}\n@spin(c: bool) {\n.again:\n  jmp .again;\n}";
        let mut p = crate::bril::parse_text(src).unwrap();
        assert!(!inline(&mut p).unwrap());
        crate::bril::verify(&p).unwrap();
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| inline(p));
    }

    #[test]
    fn inlining_then_every_local_pass_keeps_behaviour_on_the_corpus() {
        let flags = [
            "-inline",
            "-tail-call",
            "-mem2reg",
            "-dead-store",
            "-lvn",
            "-peephole",
            "-dce",
            "-dead-functions",
        ];
        // Each pass may expose more work to those before it.
        check_corpus(&|p| crate::bril::passes::run_flags(p, &flags), Rerun::MayChange);
    }
}
