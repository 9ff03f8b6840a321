//! Small per-function facts the local passes share: how often each variable
//! is read and written, which reads are certainly preceded by a definition,
//! and which variables hold one constant everywhere they are read.

use super::fold::Value;
use crate::bril::analysis::definite::{unassigned_reads, MaybeUndefinedReads};
use crate::bril::ir::{Function, Op};

/// How many times each variable is read, indexed by [`VarId`].
pub(super) fn use_counts(f: &Function) -> Vec<u32> {
    let mut counts = vec![0u32; f.vars.len()];
    for instr in f.instrs() {
        for &u in instr.uses() {
            if let Some(c) = counts.get_mut(u.index()) {
                *c += 1;
            }
        }
    }
    counts
}

/// How many instructions write each variable (parameters not counted).
pub(super) fn def_counts(f: &Function) -> Vec<u32> {
    let mut counts = vec![0u32; f.vars.len()];
    for instr in f.instrs() {
        if let Some(c) = instr.def().and_then(|d| counts.get_mut(d.index())) {
            *c += 1;
        }
    }
    counts
}

/// True when every read in `f` is preceded by a definition on every path:
/// then no read sees a frame's zeroed register, and code may be moved into
/// another frame or loop without changing what it reads.
pub(super) fn all_reads_defined(f: &Function) -> bool {
    unassigned_reads(f, &vec![true; f.vars.len()]).is_empty()
}

/// Variables written once, by a `const`, that are not parameters and are
/// defined on every path to each of their reads: every read sees the constant.
pub(super) fn global_constants(f: &Function) -> Vec<Option<Value>> {
    let mut consts = single_constants(f);
    if consts.iter().all(Option::is_none) {
        return consts;
    }
    let candidates: Vec<bool> = consts.iter().map(Option::is_some).collect();
    for read in unassigned_reads(f, &candidates) {
        consts[read.var.index()] = None;
    }
    consts
}

/// [`global_constants`], given `f`'s reads that may fail (for a pass that
/// needs both: the dataflow analysis behind them runs once). A variable with
/// such a read is one some path reaches unassigned.
pub(super) fn global_constants_given(f: &Function, failing: &MaybeUndefinedReads) -> Vec<Option<Value>> {
    let mut consts = single_constants(f);
    if !failing.is_empty() {
        for (c, fails) in consts.iter_mut().zip(failing.variables(f.vars.len())) {
            if fails {
                *c = None;
            }
        }
    }
    consts
}

/// Of each variable, its value if a single `const` (not a parameter) writes it.
fn single_constants(f: &Function) -> Vec<Option<Value>> {
    let defs = def_counts(f);
    let mut consts: Vec<Option<Value>> = vec![None; f.vars.len()];
    for instr in f.instrs() {
        if let (Op::Const, Some(d), Some(lit)) = (instr.op, instr.dest, instr.value) {
            if defs[d.var.index()] == 1 {
                consts[d.var.index()] = Value::from_literal(lit, d.ty);
            }
        }
    }
    for p in &f.params {
        consts[p.var.index()] = None;
    }
    consts
}

/// Whether the function uses the SSA `get`/`set`/`phi` instructions, whose
/// shadow variables live outside the ordinary variables.
pub(super) fn uses_ssa_ops(f: &Function) -> bool {
    f.instrs().any(|i| matches!(i.op, Op::Get | Op::Set | Op::Phi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn constants_need_a_single_definition_on_every_path() {
        let p = parse_text(
            "@main(c: bool) {\n  k: int = const 4;\n  br c .a .b;\n.a:\n  u: int = const 1;\n  j: int = const 2;\n  j: int = const 3;\n.b:\n  print k u j;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let consts = global_constants(f);
        let value = |name: &str| consts[f.var_named(name).unwrap().index()];
        assert_eq!(value("k"), Some(Value::Int(4)));
        assert_eq!(value("u"), None, "not defined when coming from the entry");
        assert_eq!(value("j"), None, "two definitions");
        assert!(!all_reads_defined(f));
    }

    #[test]
    fn loops_keep_definitions_made_before_them() {
        let p = parse_text(
            "@main {\n  i: int = const 0;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n}",
        )
        .unwrap();
        assert!(all_reads_defined(&p.functions[0]));
    }

    #[test]
    fn passes_keep_reads_of_variables_undefined_on_some_path() {
        use crate::bril::passes::testing::{check_pass_on, Case, Rerun};
        // Reads that see an undefined variable on some inputs: a pass must not
        // replace them with a constant, move them into a loop or another frame.
        let sources = [
            "@main(c: bool) {\n  br c .a .b;\n.a:\n  one: int = const 1;\n.b:\n  two: int = mul one one;\n  three: int = add two one;\n  print two three;\n}",
            "@main(c: bool) {\n  i: int = const 0;\n  n: int = const 3;\n.l:\n  x: int = call @f c i;\n  print x;\n  one: int = const 1;\n  i: int = add i one;\n  go: bool = lt i n;\n  br go .l .e;\n.e:\n}\n@f(c: bool, i: int): int {\n  br c .s .r;\n.s:\n  v: int = id i;\n.r:\n  ret v;\n}",
            "@main(c: bool) {\n  n: int = const 3;\n  r: int = call @g c n;\n  print r;\n}\n@g(c: bool, n: int): int {\n  br c .t .u;\n.t:\n  acc: int = id n;\n.u:\n  zero: int = const 0;\n  done: bool = eq n zero;\n  br done .z .s;\n.z:\n  ret acc;\n.s:\n  one: int = const 1;\n  m: int = sub n one;\n  d: bool = not c;\n  r: int = call @g d m;\n  ret r;\n}",
        ];
        let flags = ["-inline", "-tail-call", "-lvn", "-peephole", "-dce", "-mem2reg", "-dead-store"];
        for src in sources {
            for arg in ["true", "false"] {
                let case = Case {
                    name: format!("{src} {arg}"),
                    program: parse_text(src).unwrap(),
                    args: vec![arg.into()],
                };
                check_pass_on(&case, &|p| crate::bril::passes::run_flags(p, &flags), Rerun::MayChange);
            }
        }
    }
}
