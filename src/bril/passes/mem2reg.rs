//! `-mem2reg`: promotes non-escaping allocations to plain variables.
//!
//! For an allocation of a known small size reached only through its base
//! pointer and `ptradd`s with constant in-bounds offsets (see
//! [`super::alloc_facts`]), each cell becomes a variable: a `store` becomes a
//! copy into it, a `load` a copy out of it, and the `alloc`, `free` and
//! `ptradd`s go. Only done when, on every path, every access happens while
//! the allocation is live through a pointer computed from it, every load
//! reads a cell written before, and the allocation is freed before it is
//! allocated again and before the function returns: then no access could
//! fail and no leak or double free could be hidden, so the variables hold
//! exactly what the cells held. Programs that print pointers are left alone
//! (removing an allocation renumbers the others).

use super::alloc_facts::{allocates_anywhere, prints_pointers, Allocations};
use crate::bril::ir::{Function, Instr, Op, Program, VarId};
use crate::bril::names::FreshNames;
use crate::error::Result;

pub fn mem2reg(program: &mut Program) -> Result<bool> {
    if !allocates_anywhere(program) || prints_pointers(program) {
        return Ok(false);
    }
    let mut changed = false;
    for f in &mut program.functions {
        let allocations = Allocations::of(f);
        if allocations.list.is_empty() {
            continue;
        }
        let promotable: Vec<bool> = allocations
            .lifetimes(f)
            .iter()
            .map(|l| l.balanced && l.accesses_safe && l.loads_initialized)
            .collect();
        if promotable.iter().any(|&p| p) {
            promote(std::sync::Arc::make_mut(f), &allocations, &promotable);
            changed = true;
        }
    }
    Ok(changed)
}

/// Rewrites every access to the `promotable` allocations, in one pass.
fn promote(f: &mut Function, allocations: &Allocations, promotable: &[bool]) {
    let mut names = FreshNames::vars(f);
    // The variable of each cell of each allocation, made on first use.
    let mut cells: Vec<Vec<Option<VarId>>> = allocations.list.iter().map(|c| vec![None; c.cells]).collect();
    for b in 0..f.blocks.len() {
        let instrs = std::mem::take(&mut f.blocks[b].instrs);
        let mut out = Vec::with_capacity(instrs.len());
        for instr in instrs {
            let Some(c) = allocations.touched_by(&instr).filter(|&c| promotable[c]) else {
                out.push(instr);
                continue;
            };
            let candidate = &allocations.list[c];
            let cell = instr.args.first().and_then(|&a| candidate.cell_of(a));
            let mut var = |k: usize, f: &mut Function| match cells[c].get(k).copied().flatten() {
                Some(v) => v,
                None => {
                    let base_name = f.var_name(candidate.base).to_string();
                    let v = names.fresh_var(f, &format!("{base_name}.{k}"));
                    if let Some(slot) = cells[c].get_mut(k) {
                        *slot = Some(v);
                    }
                    v
                }
            };
            match (instr.op, cell) {
                (Op::Store, Some(k)) => {
                    let v = var(k, f);
                    out.push(
                        Instr::value(Op::Id, v, candidate.cell_type, &[instr.args[1]]).with_pos(instr.pos),
                    );
                }
                (Op::Load, Some(k)) => {
                    if let Some(d) = instr.dest {
                        let v = var(k, f);
                        out.push(Instr::value(Op::Id, d.var, d.ty, &[v]).with_pos(instr.pos));
                    }
                }
                // The alloc, free and ptradds of the allocation.
                _ => {}
            }
        }
        f.blocks[b].instrs = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, suite, to_text};

    fn promoted(src: &str) -> (bool, String) {
        let mut p = parse_text(src).unwrap();
        let changed = mem2reg(&mut p).unwrap();
        (changed, to_text(&p))
    }

    #[test]
    fn a_scratch_array_with_constant_offsets_becomes_variables() {
        let b = suite::all().iter().find(|b| b.name == "nonescaping-alloc").unwrap();
        let (changed, text) = promoted(b.source);
        assert!(changed);
        for op in ["alloc", "free", "ptradd", "load", "store"] {
            assert!(!text.contains(&format!(" {op} ")), "{op} left:\n{text}");
        }
        assert!(text.contains("cell.1: int = id sq;") && text.contains("b: int = id cell.1;"), "{text}");
    }

    #[test]
    fn a_load_that_may_read_an_unwritten_cell_blocks_promotion() {
        let src = "@main(c: bool) {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  br c .w .r;\n.w:\n  store p one;\n.r:\n  x: int = load p;\n  free p;\n  print x;\n}\n";
        assert_eq!(promoted(src), (false, src.to_string()));
    }

    #[test]
    fn a_leak_or_an_escape_blocks_promotion() {
        let leak = "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  store p one;\n  x: int = load p;\n  print x;\n}\n";
        assert_eq!(promoted(leak), (false, leak.to_string()));
        let escape = "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  store p one;\n  call @f p;\n  free p;\n}\n@f(q: ptr<int>) {\n  x: int = load q;\n  print x;\n}\n";
        assert_eq!(promoted(escape), (false, escape.to_string()));
        let realloc = "@main {\n  one: int = const 1;\n  i: int = const 0;\n.l:\n  p: ptr<int> = alloc one;\n  store p i;\n  i: int = add i one;\n  c: bool = lt i one;\n  br c .l .e;\n.e:\n  free p;\n}\n";
        assert_eq!(promoted(realloc), (false, realloc.to_string()));
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| mem2reg(p));
    }
}
