//! `-dce`: trivial dead code elimination.
//!
//! Deletes, until nothing more goes, (1) instructions whose result no
//! instruction of the function reads, and (2) definitions overwritten later in
//! the same block before any read, plus every `nop`. Only instructions that
//! cannot fail and have no effect are deleted: pure operations, and `div` or
//! `int2char` whose operands are known constants that make them safe, and
//! none that reads a variable maybe undefined there (that read fails).
//! Nothing can observe a value nobody reads, so output and errors stay the same.

use crate::bril::hash::FxHashMap;
use std::cell::OnceCell;

use super::facts::{global_constants, use_counts};
use super::fold::{cannot_fail, safety_reads_operands, Value};
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;
use std::sync::Arc;

pub fn dce(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    for f in &mut program.functions {
        while dce_round(f) {
            changed = true;
        }
    }
    Ok(changed)
}

/// One sweep of both rules; true if it deleted something (a function with
/// nothing dead is not copied).
fn dce_round(f: &mut Arc<Function>) -> bool {
    let Some(dead) = dead_code(f) else { return false };
    for (block, dead) in Arc::make_mut(f).blocks.iter_mut().zip(&dead) {
        let mut i = 0;
        block.instrs.retain(|_| {
            i += 1;
            !dead[i - 1]
        });
    }
    true
}

/// What one sweep of both rules deletes, by block and instruction; `None`
/// if nothing. A deletion that leaves a variable unread makes its
/// definitions dead in the same sweep, so a chain of dead computations goes
/// at once, not one link per sweep.
fn dead_code(f: &Function) -> Option<Vec<Vec<bool>>> {
    let mut uses = use_counts(f);
    // Constants known everywhere: a dataflow analysis too, asked only when
    // a `div` or `int2char` may be safe to delete.
    let globals = OnceCell::new();
    let global = |v: VarId| globals.get_or_init(|| global_constants(f)).get(v.index()).copied().flatten();
    // Which reads may fail is a dataflow analysis: asked only of an
    // instruction about to go, so a function with nothing dead skips it.
    let failing = OnceCell::new();
    let may_fail =
        |b: usize, i: usize| failing.get_or_init(|| MaybeUndefinedReads::of(f)).at(BlockId::new(b), i);
    let mut dead: Vec<Vec<bool>> = Vec::with_capacity(f.blocks.len());
    let mut removable: Vec<Vec<bool>> = Vec::with_capacity(f.blocks.len());
    for (b, block) in f.blocks.iter().enumerate() {
        let (d, r) = dead_in_block(&block.instrs, &uses, global, |i| may_fail(b, i));
        dead.push(d);
        removable.push(r);
    }
    let mut defs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); f.vars.len()];
    let mut work = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                defs[d.index()].push((b, i));
            }
            if dead[b][i] {
                work.push((b, i));
            }
        }
    }
    if work.is_empty() {
        return None;
    }
    while let Some((b, i)) = work.pop() {
        for u in f.blocks[b].instrs[i].uses() {
            let Some(count) = uses.get_mut(u.index()) else { continue };
            *count = count.saturating_sub(1);
            if *count == 0 {
                for &(db, di) in &defs[u.index()] {
                    if removable[db][di] && !dead[db][di] && !may_fail(db, di) {
                        dead[db][di] = true;
                        work.push((db, di));
                    }
                }
            }
        }
    }
    Some(dead)
}

/// Which instructions of one block are dead by either rule, and which could
/// go if their result were unread (pure ones: `may_fail`, asked only of an
/// instruction about to go, vetoes a read that may fail).
fn dead_in_block(
    instrs: &[Instr],
    uses: &[u32],
    global: impl Fn(VarId) -> Option<Value>,
    may_fail: impl Fn(usize) -> bool,
) -> (Vec<bool>, Vec<bool>) {
    let mut dead = vec![false; instrs.len()];
    // Whether each instruction could go if its result were unread.
    let mut removable = vec![false; instrs.len()];
    let mut local_consts: FxHashMap<VarId, Value> = FxHashMap::default();
    // The latest definition of each variable not yet read in this block.
    let mut unread_def: FxHashMap<VarId, usize> = FxHashMap::default();
    let mut operands: Vec<Option<Value>> = Vec::new();
    for (i, instr) in instrs.iter().enumerate() {
        let known = |v: &VarId| local_consts.get(v).copied().or_else(|| global(*v));
        operands.clear();
        if safety_reads_operands(instr.op) {
            operands.extend(instr.uses().iter().map(known));
        }
        removable[i] = instr.dest.is_some() && cannot_fail(instr.op, &operands);
        for u in instr.uses() {
            unread_def.remove(u);
        }
        if instr.op == Op::Nop {
            dead[i] = true;
            continue;
        }
        let Some(d) = instr.def() else { continue };
        if removable[i] && uses.get(d.index()).copied().unwrap_or(0) == 0 && !may_fail(i) {
            dead[i] = true;
        }
        if let Some(earlier) = unread_def.insert(d, i) {
            dead[earlier] |= removable[earlier] && !may_fail(earlier);
        }
        match (instr.op, instr.value.zip(instr.dest)) {
            (Op::Const, Some((lit, dest))) => match Value::from_literal(lit, dest.ty) {
                Some(v) => local_consts.insert(d, v),
                None => local_consts.remove(&d),
            },
            _ => local_consts.remove(&d),
        };
    }
    (dead, removable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn run(src: &str) -> (bool, String) {
        let mut p = parse_text(src).unwrap();
        let changed = dce(&mut p).unwrap();
        (changed, to_text(&p))
    }

    #[test]
    fn removes_unused_chains_and_killed_definitions() {
        let (changed, text) = run(
            "@main(n: int) {\n  a: int = add n n;\n  b: int = mul a a;\n  x: int = const 1;\n  x: int = const 2;\n  nop;\n  print x;\n}",
        );
        assert!(changed);
        assert_eq!(text, "@main(n: int) {\n  x: int = const 2;\n  print x;\n}\n");
    }

    #[test]
    fn keeps_effects_and_operations_that_may_fail() {
        let src = "@main(n: int) {\n  d: int = div n n;\n  p: ptr<int> = alloc n;\n  c: char = int2char n;\n  r: int = call @f;\n  free p;\n}\n@f: int {\n  one: int = const 1;\n  ret one;\n}\n";
        assert_eq!(run(src), (false, src.to_string()));
    }

    #[test]
    fn division_by_a_known_non_zero_constant_is_removable() {
        let (_, text) = run(
            "@main(n: int) {\n  k: int = const 3;\n  d: int = div n k;\n  z: int = const 0;\n  e: int = div n z;\n}",
        );
        assert_eq!(text, "@main(n: int) {\n  z: int = const 0;\n  e: int = div n z;\n}\n");
    }

    #[test]
    fn a_read_keeps_a_definition_even_when_redefined_later() {
        let src = "@main {\n  x: int = const 1;\n  x: int = add x x;\n  print x;\n}\n";
        assert_eq!(run(src), (false, src.to_string()));
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| dce(p));
    }
}
