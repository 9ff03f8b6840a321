//! `-specialize`: function specialisation on constant arguments.
//!
//! A call passing constants to some parameters of a small function calls a
//! copy of it instead, made for those values: the copy drops the
//! parameters and starts by writing each constant into its variable. Calls
//! passing the same constants share one copy, and a copy identical to an
//! existing function is not made again (a recursion passing a constant
//! along ends up calling its own copy). Constant propagation and dead code
//! elimination then fold what the constants decide inside the copy.
//!
//! An argument is constant when the caller writes it with a `const` earlier
//! in the call's block, or when its only definition is a `const` and it is
//! certainly assigned at the call. Only parameters the callee reads are
//! specialised. Growth is bounded: callees of at most [`MAX_CALLEE`]
//! instructions, at most [`MAX_COPIES`] copies and [`COPY_BUDGET`]
//! instructions per run, and none once the program has [`MAX_FUNCTIONS`]
//! functions.
//!
//! Why it is safe: the copy runs the callee's code with the parameters
//! holding the values the call passed; the caller's reads of constant
//! arguments are dropped only where the variable is certainly assigned.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::{bits_literal, const_bits};
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::insert_block;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Marks;
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{Block, BlockId, FuncId, Function, Instr, Op, Program, VarId};
use crate::bril::names::FreshNames;
use crate::bril::print::function_prints_same;
use crate::error::Result;
use std::sync::Arc;

/// Largest callee (static instructions) worth copying.
pub const MAX_CALLEE: usize = 60;
/// Most copies made by one run.
pub const MAX_COPIES: usize = 8;
/// Most instructions copied by one run.
pub const COPY_BUDGET: usize = 400;
/// No copies are made in programs with this many functions.
pub const MAX_FUNCTIONS: usize = 256;

/// A callee and the constant bits passed to each parameter (`None`: not constant).
type Key = (FuncId, Vec<Option<u64>>);

/// A call to redirect: where it is and what it passes.
struct Call {
    caller: usize,
    block: BlockId,
    index: usize,
    key: Key,
}

/// `-specialize`.
pub fn specialize(program: &mut Program) -> Result<bool> {
    let n = program.functions.len();
    if n >= MAX_FUNCTIONS {
        return Ok(false);
    }
    let passed = passed_constants(program);
    let worth: Vec<Vec<bool>> = program
        .functions
        .iter()
        .zip(passed)
        .map(|(g, passed)| if passed { worth_specialising(g) } else { vec![false; g.params.len()] })
        .collect();
    let mut calls = Vec::new();
    for caller in 0..n {
        constant_calls(program, caller, &worth, &mut calls);
    }
    if calls.is_empty() {
        return Ok(false);
    }
    let mut copies: FxHashMap<Key, FuncId> = FxHashMap::default();
    let mut made = 0;
    let mut budget = COPY_BUDGET;
    let mut names = FreshNames::functions(program);
    let mut changed = false;
    for call in calls {
        let target = match copies.get(&call.key) {
            Some(&id) => id,
            None => {
                let (callee, values) = (&call.key.0, &call.key.1);
                let original = &program.functions[callee.index()];
                if made == MAX_COPIES || original.instr_count() > budget {
                    continue;
                }
                let Some(mut copy) = specialised_copy(original, values) else { continue };
                let id = match existing_equal(program, &copy) {
                    Some(id) => id,
                    None => {
                        made += 1;
                        budget -= original.instr_count();
                        copy.name = names.numbered(&format!("{}.spec", original.name));
                        program.functions.push(Arc::new(copy));
                        FuncId::new(program.functions.len() - 1)
                    }
                };
                copies.insert(call.key.clone(), id);
                id
            }
        };
        let instr =
            &mut program.function_mut(FuncId::new(call.caller)).blocks[call.block.index()].instrs[call.index];
        let args: Vec<VarId> =
            instr.args.iter().zip(&call.key.1).filter(|(_, v)| v.is_none()).map(|(&a, _)| a).collect();
        instr.args = args.as_slice().into();
        instr.func = Some(target);
        changed = true;
    }
    Ok(changed)
}

/// For each function, whether some call passes it a variable that some
/// `const` defines: only those calls can pass a constant, so only those
/// callees are worth the liveness [`worth_specialising`] asks for.
fn passed_constants(program: &Program) -> Vec<bool> {
    let mut passed = vec![false; program.functions.len()];
    let mut constant = Vec::new();
    for f in &program.functions {
        constant.clear();
        constant.resize(f.vars.len(), false);
        for instr in f.instrs().filter(|i| i.op == Op::Const) {
            if let Some(d) = instr.def() {
                constant[d.index()] = true;
            }
        }
        for instr in f.instrs().filter(|i| i.op == Op::Call) {
            if let Some(callee) = instr.func {
                if instr.args.iter().any(|a| constant[a.index()]) {
                    passed[callee.index()] = true;
                }
            }
        }
    }
    passed
}

/// Which parameters of `g` have their incoming value read (a constant for
/// one that is not decides nothing), when `g` is small enough to copy.
fn worth_specialising(g: &Function) -> Vec<bool> {
    if g.instr_count() > MAX_CALLEE || g.blocks.is_empty() {
        return vec![false; g.params.len()];
    }
    let live = Liveness::of_vars(g, &Cfg::new(g), g.params.iter().map(|p| p.var));
    g.params.iter().map(|p| live.live_in.get(0).contains(p.var.index())).collect()
}

/// The calls `caller` makes passing at least one useful constant.
fn constant_calls(program: &Program, caller: usize, worth: &[Vec<bool>], out: &mut Vec<Call>) {
    let f = &program.functions[caller];
    let has_candidate = f.instrs().any(|i| {
        i.op == Op::Call && i.func.and_then(|c| worth.get(c.index())).is_some_and(|w| w.contains(&true))
    });
    if !has_candidate {
        return;
    }
    // Variables whose only definition is a `const` (parameters excluded).
    let mut defs = vec![0u32; f.vars.len()];
    let mut single: Vec<Option<u64>> = vec![None; f.vars.len()];
    for p in &f.params {
        defs[p.var.index()] += 1;
    }
    for instr in f.instrs() {
        if let Some(d) = instr.def() {
            defs[d.index()] += 1;
            single[d.index()] = const_bits(instr);
        }
    }
    // Definite assignment of those variables alone: a call reads its
    // arguments, so they are live there, where `definite` answers.
    let tracked: Vec<bool> = (0..f.vars.len()).map(|v| defs[v] == 1 && single[v].is_some()).collect();
    let cfg = Cfg::new(f);
    let definite = Definite::new(f, &cfg, &Liveness::of(f, &cfg, &tracked));
    let mut scratch = Marks::new(f.vars.len());
    for b in f.block_ids().filter(|&b| cfg.is_reachable(b)) {
        let mut local: FxHashMap<VarId, Option<u64>> = FxHashMap::default();
        definite.walk(f, b, &mut scratch, |index, instr, assigned| {
            let useful =
                instr.func.filter(|_| instr.op == Op::Call).and_then(|c| Some((c, worth.get(c.index())?)));
            if let Some((callee, useful)) = useful.filter(|(_, w)| w.len() == instr.args.len()) {
                let value = |a: &VarId| match local.get(a) {
                    Some(&v) => v,
                    None if tracked[a.index()] && assigned.contains(*a) => single[a.index()],
                    None => None,
                };
                let values: Vec<Option<u64>> =
                    instr.args.iter().zip(useful).map(|(a, &w)| value(a).filter(|_| w)).collect();
                let representable = values
                    .iter()
                    .zip(&program.function(callee).params)
                    .all(|(v, p)| v.is_none_or(|bits| bits_literal(bits, p.ty).is_some()));
                if values.iter().any(Option::is_some) && representable {
                    out.push(Call { caller, block: b, index, key: (callee, values) });
                }
            }
            if let Some(d) = instr.def() {
                local.insert(d, const_bits(instr));
            }
        });
    }
}

/// `g` with the parameters given a value dropped and written at its start.
fn specialised_copy(g: &Function, values: &[Option<u64>]) -> Option<Function> {
    let mut copy = g.clone();
    let mut consts = Vec::new();
    for (p, v) in g.params.iter().zip(values) {
        if let Some(bits) = v {
            consts.push(Instr::constant(p.var, p.ty, bits_literal(*bits, p.ty)?));
        }
    }
    let mut k = 0;
    copy.params.retain(|_| {
        k += 1;
        values[k - 1].is_none()
    });
    let entry_is_target = copy.instrs().any(|i| i.labels.contains(&BlockId(0)));
    if entry_is_target || copy.blocks.is_empty() {
        // A loop may come back to the entry: the constants go before it.
        insert_block(&mut copy, 0, Block::new(None));
    }
    copy.blocks[0].instrs.splice(0..0, consts);
    Some(copy)
}

/// A function of the program that prints exactly as `copy` would under its name.
fn existing_equal(program: &Program, copy: &Function) -> Option<FuncId> {
    program
        .functions
        .iter()
        .position(|e| {
            e.params.len() == copy.params.len() && e.instr_count() == copy.instr_count() && {
                let mut renamed = copy.clone();
                renamed.name = e.name.clone();
                function_prints_same(program, &renamed, e)
            }
        })
        .map(FuncId::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::{check_corpus, Rerun};
    use crate::bril::{parse_text, to_text};

    #[test]
    fn calls_with_constants_call_a_copy_made_for_them() {
        let src = "@main(x: int) {\n  two: int = const 2;\n  a: int = call @scale x two;\n  b: int = call @scale a two;\n  c: int = call @scale a x;\n  print a b c;\n}\n@scale(v: int, k: int): int {\n  r: int = mul v k;\n  ret r;\n}\n";
        let mut p = parse_text(src).unwrap();
        let args = ["5".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(specialize(&mut p).unwrap());
        let text = to_text(&p);
        assert!(
            text.contains(
                "a: int = call @scale.spec1 x;\n  b: int = call @scale.spec1 a;\n  c: int = call @scale a x;"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "@scale.spec1(v: int): int {\n  k: int = const 2;\n  r: int = mul v k;\n  ret r;\n}\n"
            ),
            "{text}"
        );
        assert_eq!(run(&p, &args, &Limits::default()).stdout, before.stdout);
        assert!(!specialize(&mut p).unwrap());
    }

    #[test]
    fn a_recursion_passing_its_constant_along_calls_its_own_copy() {
        let src = "@main(n: int) {\n  s: int = const 3;\n  r: int = call @f n s;\n  print r;\n}\n@f(n: int, s: int): int {\n  zero: int = const 0;\n  done: bool = le n zero;\n  br done .base .rec;\n.base:\n  ret zero;\n.rec:\n  one: int = const 1;\n  m: int = sub n one;\n  r: int = call @f m s;\n  r: int = add r s;\n  ret r;\n}\n";
        let mut p = parse_text(src).unwrap();
        let args = ["4".to_string()];
        assert!(specialize(&mut p).unwrap());
        assert_eq!(p.functions.len(), 3, "{}", to_text(&p));
        assert!(specialize(&mut p).unwrap(), "the copy's own call now goes to the copy");
        assert_eq!(p.functions.len(), 3, "{}", to_text(&p));
        let text = to_text(&p);
        assert!(text.contains("r: int = call @f.spec1 m;\n  r: int = add r s;"), "{text}");
        assert_eq!(run(&p, &args, &Limits::default()).stdout, "12\n");
        assert!(!specialize(&mut p).unwrap());
    }

    #[test]
    fn a_loop_at_the_entry_keeps_its_constants_before_it() {
        let src = "@main {\n  k: int = const 3;\n  call @count k;\n}\n@count(k: int) {\n.top:\n  print k;\n  one: int = const 1;\n  k: int = sub k one;\n  zero: int = const 0;\n  more: bool = gt k zero;\n  br more .top .end;\n.end:\n}\n";
        let mut p = parse_text(src).unwrap();
        assert!(specialize(&mut p).unwrap());
        assert!(to_text(&p).contains("@count.spec1 {\n  k: int = const 3;\n.top:\n"), "{}", to_text(&p));
        assert_eq!(run(&p, &[], &Limits::default()).stdout, "3\n2\n1\n");
    }

    #[test]
    fn unknown_arguments_unused_parameters_and_maybe_unassigned_constants_stay() {
        let sources = [
            "@main(x: int) {\n  y: int = call @f x;\n  print y;\n}\n@f(v: int): int {\n  ret v;\n}\n",
            "@main {\n  one: int = const 1;\n  call @g one;\n}\n@g(v: int) {\n  v: int = const 2;\n  print v;\n}\n",
            "@main(c: bool) {\n  br c .a .b;\n.a:\n  one: int = const 1;\n.b:\n  call @g one;\n}\n@g(v: int) {\n  print v;\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!specialize(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        // A run makes at most MAX_COPIES copies, and redirects the copies'
        // own calls only in the next: a second run may change more.
        check_corpus(&|p| specialize(p), Rerun::MayChange);
    }
}
