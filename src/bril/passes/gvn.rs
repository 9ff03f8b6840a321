//! `-gvn`: global value numbering over SSA values, with a hash table scoped
//! by the dominator tree.
//!
//! An SSA value here is a variable with exactly one definition (or a
//! parameter never redefined) whose definition dominates every read of it:
//! what `-to-ssa` makes of every variable, and what most temporaries already
//! are. Walking the dominator tree, an instruction computing the same
//! operation on the same values (same constant, same operands up to
//! commutativity and `gt`/`lt` mirroring) as one that dominates it is
//! deleted and its variable's reads use the earlier one; a copy of an SSA
//! value is folded into it the same way.
//!
//! Why it is safe: an SSA value never changes after its definition, so the
//! dominating instruction computed the same result on every path. Only pure
//! operations are numbered, plus `div` and `int2char`: a repeat of one of
//! those with the same operands would fail exactly when the dominating one
//! already did.

use crate::bril::hash::FxHashMap;

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::rewrite_functions;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, Type, VarId};
use crate::error::Result;

/// `-gvn`.
pub fn gvn(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        gvn_function(f);
        Ok(())
    })
}

/// The variables that behave as SSA values: one definition that dominates every read.
pub(crate) fn ssa_values(f: &Function, cfg: &Cfg, dom: &Dominators) -> Vec<bool> {
    let n = f.vars.len();
    let mut count = vec![0u32; n];
    // Where the single definition is: None for a parameter.
    let mut site: Vec<Option<(BlockId, usize)>> = vec![None; n];
    for p in &f.params {
        count[p.var.index()] += 1;
    }
    for b in f.block_ids() {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                count[d.index()] += 1;
                site[d.index()] = Some((b, i));
            }
        }
    }
    let mut ok: Vec<bool> = count.iter().map(|&c| c == 1).collect();
    for b in f.block_ids().filter(|&b| cfg.is_reachable(b)) {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            for &u in instr.uses() {
                if let Some((db, di)) = site[u.index()] {
                    if !(dom.dominates(db, b) && (db != b || di < i)) {
                        ok[u.index()] = false;
                    }
                }
            }
        }
    }
    // A definition in unreachable code defines nothing that runs.
    for (v, s) in site.iter().enumerate() {
        if let Some((db, _)) = s {
            if !cfg.is_reachable(*db) {
                ok[v] = false;
            }
        }
    }
    ok
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Const(Type, u64),
    Op(Op, Type, Vec<VarId>),
}

/// `gt a b` is `lt b a`: one spelling for both.
fn mirrored(op: Op) -> Option<Op> {
    Some(match op {
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        Op::Fgt => Op::Flt,
        Op::Fge => Op::Fle,
        Op::Cgt => Op::Clt,
        Op::Cge => Op::Cle,
        _ => return None,
    })
}

fn numbered(op: Op) -> bool {
    (op.is_pure() && op != Op::Id) || matches!(op, Op::Div | Op::Int2Char)
}

fn key(instr: &Instr, leader: &[VarId]) -> Option<Key> {
    let ty = instr.dest?.ty;
    if let Some(bits) = const_bits(instr) {
        return Some(Key::Const(ty, bits));
    }
    let mut args: Vec<VarId> = instr.args.iter().map(|a| leader[a.index()]).collect();
    let mut op = instr.op;
    if let Some(m) = mirrored(op) {
        op = m;
        args.reverse();
    }
    if op.is_commutative() {
        args.sort();
    }
    Some(Key::Op(op, ty, args))
}

fn gvn_function(f: &mut Function) {
    if f.blocks.is_empty() {
        return;
    }
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    let ssa = ssa_values(f, &cfg, &dom);
    let mut leader: Vec<VarId> = (0..f.vars.len()).map(VarId::new).collect();
    let mut table: FxHashMap<Key, VarId> = FxHashMap::default();
    let mut delete: Vec<Vec<bool>> = f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect();

    enum Step {
        Enter(BlockId),
        Leave(Vec<(Key, Option<VarId>)>),
    }
    let mut steps = vec![Step::Enter(BlockId(0))];
    while let Some(step) = steps.pop() {
        let b = match step {
            Step::Leave(undo) => {
                for (k, old) in undo.into_iter().rev() {
                    match old {
                        Some(v) => table.insert(k, v),
                        None => table.remove(&k),
                    };
                }
                continue;
            }
            Step::Enter(b) => b,
        };
        let mut undo = Vec::new();
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            let Some(d) = instr.def() else { continue };
            if !ssa[d.index()] || !instr.args.iter().all(|a| ssa[a.index()]) {
                continue;
            }
            if instr.op == Op::Id {
                if let Some(&a) = instr.args.first() {
                    leader[d.index()] = leader[a.index()];
                    delete[b.index()][i] = true;
                }
                continue;
            }
            if !numbered(instr.op) {
                continue;
            }
            let Some(k) = key(instr, &leader) else { continue };
            match table.get(&k) {
                Some(&e) => {
                    leader[d.index()] = e;
                    delete[b.index()][i] = true;
                }
                None => {
                    undo.push((k.clone(), None));
                    table.insert(k, d);
                }
            }
        }
        steps.push(Step::Leave(undo));
        for &c in dom.children[b.index()].iter().rev() {
            steps.push(Step::Enter(c));
        }
    }
    for (b, block) in f.blocks.iter_mut().enumerate() {
        let mut i = 0;
        block.instrs.retain(|_| {
            i += 1;
            !delete[b][i - 1]
        });
        for instr in &mut block.instrs {
            for u in instr.uses_mut() {
                *u = leader[u.index()];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn a_dominating_expression_is_reused_across_blocks() {
        let src = "@main(a: int, b: int) {\n  x: int = add a b;\n  c: bool = gt a b;\n  br c .l .r;\n.l:\n  y: int = add b a;\n  d: bool = lt b a;\n  print y d;\n  jmp .end;\n.r:\n  z: int = add a b;\n  print z;\n.end:\n  w: int = add a b;\n  print w x;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(gvn(&mut p).unwrap());
        let text = to_text(&p);
        assert_eq!(text.matches("add").count(), 1, "{text}");
        assert!(text.contains("print x c;") && text.contains("print x x;"), "{text}");
        assert!(!gvn(&mut p).unwrap());
    }

    #[test]
    fn siblings_do_not_share_and_redefined_variables_are_left_alone() {
        let src = "@main(a: int, c: bool) {\n  br c .l .r;\n.l:\n  y: int = mul a a;\n  print y;\n  jmp .end;\n.r:\n  z: int = mul a a;\n  print z;\n.end:\n  s: int = mul a a;\n  s: int = mul a a;\n  print s;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(!gvn(&mut p).unwrap(), "{}", to_text(&p));
    }

    #[test]
    fn duplicate_constants_and_copies_fold() {
        let src = "@main {\n  one: int = const 1;\n  c: int = id one;\n  uno: int = const 1;\n  s: int = add c uno;\n  print s;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(gvn(&mut p).unwrap());
        let text = to_text(&p);
        assert!(
            text.contains("s: int = add one one;") && !text.contains("uno") && !text.contains("id"),
            "{text}"
        );
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| gvn(p));
        check_pass(&|p| {
            let a = crate::bril::passes::ssa::to_ssa(p)?;
            Ok(gvn(p)? | a)
        });
    }
}
