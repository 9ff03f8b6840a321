//! `-tail-call`: turns self-recursive calls in tail position into a loop.
//!
//! `v = call @f args; ret v` (or `call @f args; ret`, or a void call falling
//! off the end) inside `@f` becomes a parallel assignment of the arguments to
//! the parameters and a jump back to the start of the body. A fresh, empty
//! entry block keeps the entry free of predecessors. The parallel assignment
//! is sequenced with a temporary per cycle, and an argument computed just
//! before the call and used nowhere else is computed straight into its
//! parameter instead of copied.
//!
//! Safe because the callee frame would start with exactly those parameter
//! values and return its result unchanged: only functions whose every read is
//! preceded by a definition on every path (a fresh frame's zeroed registers
//! are never read, so values left from the previous iteration are never
//! seen) and without SSA shadow variables are transformed.

use super::facts::{all_reads_defined, def_counts, use_counts, uses_ssa_ops};
use crate::bril::ir::{Block, BlockId, FuncId, Function, Instr, Op, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::error::Result;

pub fn tail_call(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    for (i, f) in program.functions.iter_mut().enumerate() {
        // Planned on the function as it is: only one with a call to turn
        // into a loop is written to (and so copied).
        let plans = plan(f, FuncId::new(i));
        if !plans.is_empty() {
            loop_tail_calls(std::sync::Arc::make_mut(f), plans);
            changed = true;
        }
    }
    Ok(changed)
}

/// Blocks ending in a self-call in tail position: (block, index of the call,
/// instructions the call costs: the `call`, and the `ret` if there is one).
fn tail_call_sites(f: &Function, me: FuncId) -> Vec<(usize, usize, usize)> {
    let last_block = f.blocks.len().saturating_sub(1);
    let mut sites = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        let n = block.instrs.len();
        let is_self_call =
            |i: usize| block.instrs.get(i).is_some_and(|c| c.op == Op::Call && c.func == Some(me));
        if n >= 2 && is_self_call(n - 2) {
            let (call, ret) = (&block.instrs[n - 2], &block.instrs[n - 1]);
            if ret.op == Op::Ret && call.def() == ret.args.first().copied() {
                sites.push((b, n - 2, 2));
            }
        } else if n >= 1 && is_self_call(n - 1) && b == last_block && f.ret.is_none() {
            sites.push((b, n - 1, 1));
        }
    }
    sites
}

/// One site to rewrite: its block, the code before the call (arguments
/// possibly computed straight into parameters) and the copies still needed.
struct Plan {
    block: usize,
    code: Vec<Instr>,
    moves: Vec<(VarId, VarId, Type)>,
    pos: crate::bril::ir::Pos,
}

/// The self-calls in tail position of `f` (whose id is `me`) worth turning
/// into jumps back to the entry.
fn plan(f: &Function, me: FuncId) -> Vec<Plan> {
    let sites = tail_call_sites(f, me);
    if sites.is_empty() || uses_ssa_ops(f) || !all_reads_defined(f) {
        return Vec::new();
    }
    let (uses, defs) = (use_counts(f), def_counts(f));
    let is_param = |v: VarId| f.params.iter().any(|p| p.var == v);
    // A function returning a value keeps one `ret`: the verifier wants it,
    // even where every path loops (the rets left being tail calls).
    let mut rets_left = f.instrs().filter(|i| i.op == Op::Ret).count();
    let mut plans = Vec::new();
    for (b, i, call_cost) in sites {
        if call_cost == 2 && f.ret.is_some() && rets_left <= 1 {
            continue;
        }
        let call = &f.blocks[b].instrs[i];
        // The call's result is read only by its `ret`, unless another write
        // defines it: a read elsewhere (in code that never runs, as every
        // read here is defined) would be left with no definition at all.
        if call.def().is_some_and(|v| uses[v.index()] > 1 && defs[v.index()] == 1) {
            continue;
        }
        let mut code = f.blocks[b].instrs[..i].to_vec();
        let mut moves: Vec<(VarId, VarId, Type)> = f
            .params
            .iter()
            .zip(call.args.iter())
            .filter(|(p, &a)| p.var != a)
            .map(|(p, &a)| (p.var, a, p.ty))
            .collect();
        let mut k = 0;
        while k < moves.len() {
            let (p, a, _) = moves[k];
            let other_reads_p = moves.iter().any(|&(_, s, _)| s == p);
            let single = uses[a.index()] == 1 && defs[a.index()] == 1 && !is_param(a);
            if single && !other_reads_p && compute_into(&mut code, a, p) {
                moves.remove(k);
            } else {
                k += 1;
            }
        }
        // The loop's copies and jump must not cost more than the call did.
        let copies = sequence_parallel_copy(moves.clone(), |_, _| VarId(u32::MAX)).len();
        if copies < call_cost {
            plans.push(Plan { block: b, code, moves, pos: call.pos });
            rets_left -= call_cost - 1;
        }
    }
    plans
}

/// Turns the calls `plans` names (made on `f` as it stands) into jumps to a
/// loop header that was the entry.
fn loop_tail_calls(f: &mut Function, plans: Vec<Plan>) {
    // A new empty entry; the old entry becomes the loop header.
    for instr in f.instrs_mut() {
        instr.labels.iter_mut().for_each(|l| *l = BlockId::new(l.index() + 1));
    }
    f.blocks.insert(0, Block::new(None));
    if f.blocks[1].label.is_none() {
        f.blocks[1].label = Some(FreshNames::labels(f).fresh("tail.loop"));
    }
    let header = BlockId::new(1);
    let mut names = FreshNames::vars(f);
    for plan in plans {
        let copies = sequence_parallel_copy(plan.moves, |d, _| {
            let name = format!("{}.prev", f.var_name(d));
            names.fresh_var(f, &name)
        });
        let block = &mut f.blocks[plan.block + 1];
        block.instrs = plan.code;
        block.instrs.extend(copies);
        block.instrs.push(Instr::jmp(header).with_pos(plan.pos));
    }
}

/// Retargets the definition of `a` in `instrs` to write `p` directly, when
/// nothing after it in the block reads or writes `p`. True if done.
fn compute_into(instrs: &mut [Instr], a: VarId, p: VarId) -> bool {
    let Some(j) = instrs.iter().rposition(|i| i.def() == Some(a)) else { return false };
    let touches_p = |i: &Instr| i.def() == Some(p) || i.uses().contains(&p);
    if instrs[j + 1..].iter().any(touches_p) {
        return false;
    }
    if let Some(d) = instrs[j].dest.as_mut() {
        d.var = p;
    }
    true
}

/// Copies performing `dst := src` for all moves at once: a move is emitted
/// once no pending move still reads its destination; a cycle is broken by
/// saving one destination in a temporary from `temp`.
fn sequence_parallel_copy(
    mut moves: Vec<(VarId, VarId, Type)>,
    mut temp: impl FnMut(VarId, Type) -> VarId,
) -> Vec<Instr> {
    let mut out = Vec::new();
    while !moves.is_empty() {
        let ready = moves.iter().position(|&(d, _, _)| !moves.iter().any(|&(_, s, _)| s == d));
        match ready {
            Some(k) => {
                let (d, s, ty) = moves.remove(k);
                out.push(Instr::value(Op::Id, d, ty, &[s]));
            }
            None => {
                let (d, _, ty) = moves[0];
                let tmp = temp(d, ty);
                out.push(Instr::value(Op::Id, tmp, ty, &[d]));
                for m in &mut moves {
                    if m.1 == d {
                        m.1 = tmp;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn a_tail_recursive_function_becomes_a_loop() {
        let src = "@main {\n  n: int = const 10;\n  one: int = const 1;\n  r: int = call @fact n one;\n  print r;\n}\n@fact(n: int, acc: int): int {\n  zero: int = const 0;\n  done: bool = eq n zero;\n  br done .base .rec;\n.base:\n  ret acc;\n.rec:\n  acc2: int = mul acc n;\n  one: int = const 1;\n  n2: int = sub n one;\n  r: int = call @fact n2 acc2;\n  ret r;\n}\n";
        let mut p = parse_text(src).unwrap();
        let before = run(&p, &[], &Limits::default());
        assert!(tail_call(&mut p).unwrap());
        let text = to_text(&p);
        assert!(text.contains("acc: int = mul acc n;") && text.contains("n: int = sub n one;"), "{text}");
        assert!(text.contains("jmp .tail.loop;") && !text.contains("call @fact n2"), "{text}");
        let after = run(&p, &[], &Limits::default());
        assert_eq!(after.stdout, before.stdout);
        assert!(after.dyn_inst < before.dyn_inst, "{} !< {}", after.dyn_inst, before.dyn_inst);
        assert!(!tail_call(&mut p).unwrap());
    }

    #[test]
    fn a_site_whose_copies_would_cost_more_than_the_call_is_kept() {
        let src = "@main {\n  a: int = const 3;\n  b: int = const 0;\n  call @swap a b;\n}\n@swap(x: int, y: int) {\n  print x y;\n  zero: int = const 0;\n  stop: bool = eq x zero;\n  br stop .end .go;\n.go:\n  one: int = const 1;\n  y: int = sub x one;\n  call @swap y x;\n  ret;\n.end:\n}\n";
        let mut p = parse_text(src).unwrap();
        assert!(!tail_call(&mut p).unwrap());
        assert_eq!(to_text(&p), src);
    }

    #[test]
    fn a_cyclic_parallel_copy_goes_through_one_temporary() {
        let (x, y, z, t) = (VarId(0), VarId(1), VarId(2), VarId(9));
        // x, y, z := y, z, x
        let moves = vec![(x, y, Type::INT), (y, z, Type::INT), (z, x, Type::INT)];
        let copies = sequence_parallel_copy(moves, |_, _| t);
        assert_eq!(copies.len(), 4);
        let mut regs = [1, 2, 3, 0, 0, 0, 0, 0, 0, 0];
        for c in &copies {
            regs[c.dest.unwrap().var.index()] = regs[c.args[0].index()];
        }
        assert_eq!(&regs[..3], &[2, 3, 1]);
    }

    #[test]
    fn calls_not_in_tail_position_are_kept() {
        let src = "@main {\n  n: int = const 4;\n  r: int = call @f n;\n  print r;\n}\n@f(n: int): int {\n  zero: int = const 0;\n  b: bool = eq n zero;\n  br b .z .r;\n.z:\n  ret zero;\n.r:\n  one: int = const 1;\n  m: int = sub n one;\n  r: int = call @f m;\n  s: int = add r one;\n  ret s;\n}\n";
        let mut p = parse_text(src).unwrap();
        assert!(!tail_call(&mut p).unwrap());
        assert_eq!(to_text(&p), src);
    }

    /// Unreachable code reading the call's result keeps a definition to read.
    #[test]
    fn keeps_the_only_definition_of_a_result_read_elsewhere() {
        let src = "@fib(n: int): int {\n  two: int = const 2;\n  small: bool = lt n two;\n.base:\n  ret n;\n.rec:\n  s: int = add y y;\n  one: int = const 1;\n  a: int = sub n one;\n  y: int = call @fib a;\n  ret y;\n}\n@main {\n  five: int = const 5;\n  r: int = call @fib five;\n  print r;\n}";
        let mut p = crate::bril::parse_text(src).unwrap();
        tail_call(&mut p).unwrap();
        crate::bril::verify(&p).unwrap();
    }

    /// A function whose only `ret` follows a self-call keeps it (found by
    /// the pass_mutants fuzz target, under -Oz).
    #[test]
    fn keeps_the_last_ret_of_a_function_returning_a_value() {
        let src = "@f(n: int): int {\n.top:\n  one: int = const 1;\n  m: int = sub n one;\n  y: int = call @f m;\n  ret y;\n}\n@main {\n  print;\n}";
        let mut p = crate::bril::parse_text(src).unwrap();
        tail_call(&mut p).unwrap();
        crate::bril::verify(&p).unwrap();
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| tail_call(p));
    }
}
