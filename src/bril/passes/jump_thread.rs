//! `-jump-thread`: jump threading, for branches whose outcome is known
//! along an incoming edge.
//!
//! A block `B` ending in `br c .t .f` (with at most [`MAX_COPY`] other
//! instructions, none writing `c`) is bypassed on each edge `P -> B` along
//! which the value of `c` is known:
//! - the edge is taken by a branch on `c` (the value is the branch's side);
//! - or `P` last writes `c` with a `const`;
//! - or `P` does not write `c` and the same holds of the edge into `P` from
//!   its only predecessor, up to [`MAX_WALK`] blocks up.
//!
//! The edge then goes where `B`'s branch would send it: a `jmp .B` becomes
//! a copy of `B`'s code and a jump to the known target; a branch to an empty
//! `B` is relabeled straight to the target; a branch to a `B` with code gets
//! a copy of that code in a new block placed to fall into the target (only
//! where nothing else falls into it). Blocks left unreachable are removed.
//!
//! Loop headers (targets of retreating edges) are never threaded through:
//! that would give the loop a second entry.
//!
//! Why it is safe: along a threaded edge the run executes the same
//! instructions as before minus `B`'s branch (and a jump), and the branch's
//! read of `c` is only dropped where `c` was certainly written or read just
//! before (so reading it could not fail).

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::edit::{is_jump_to_next, remove_unreachable, rewrite_drafts_where};
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{Block, BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

use crate::bril::names::FreshNames;

/// Most instructions besides the branch that a threaded block may have.
pub const MAX_COPY: usize = 6;

/// `-jump-thread`.
pub fn jump_thread(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(program, branches, |_, draft| {
        // The first plan reads the function in place: most have no edge to thread.
        let edits = plan(draft.get());
        if edits.is_empty() {
            return Ok(());
        }
        let f = draft.make_mut();
        if !thread_edges(f, edits)? {
            return Ok(());
        }
        for _ in 1..ROUNDS {
            if !thread_function(f)? {
                break;
            }
        }
        Ok(())
    })
}

/// Whether `f` has a branch: the only thing threading bypasses.
fn branches(f: &Function) -> bool {
    f.blocks.iter().any(|b| b.terminator().is_some_and(|t| t.op == Op::Br))
}

/// Rounds per run: a threaded edge may lead to another branch its value
/// decides (a chain of tests on one flag), each round in time
/// proportional to the function.
const ROUNDS: usize = 8;

/// What happens to one edge into a bypassed block.
enum Edit {
    /// Slot `slot` of `from`'s branch goes to `to` instead.
    Relabel { from: BlockId, slot: usize, to: BlockId },
    /// `from`'s `jmp` becomes a copy of `code`'s instructions and a jump to `to`.
    Inline { from: BlockId, code: BlockId, to: BlockId },
    /// Slot `slot` of `from`'s branch goes to a copy of `code`'s instructions
    /// placed right before `to`, falling into it.
    CopyBefore { from: BlockId, slot: usize, code: BlockId, to: BlockId },
}

/// Blocks walked up from an edge to find what decides its condition.
const MAX_WALK: usize = 8;

/// The last instruction of each block writing each variable, its
/// terminator aside.
fn last_writes(f: &Function) -> Vec<FxHashMap<VarId, usize>> {
    f.blocks
        .iter()
        .map(|b| {
            let mut last = FxHashMap::default();
            for (i, instr) in b.instrs.iter().enumerate().filter(|(_, i)| !i.is_terminator()) {
                if let Some(d) = instr.def() {
                    last.insert(d, i);
                }
            }
            last
        })
        .collect()
}

/// The value of `c` on the edge leaving `p` by `slot` of its terminator
/// (`None`: by falling through), when known: the edge is taken by a branch
/// on `c`, or `c` was last written with a `const`; if `p` does not write
/// `c`, the same question is asked of the edge into `p` from its only
/// predecessor, up to [`MAX_WALK`] blocks up.
fn known_on_edge(
    f: &Function,
    cfg: &Cfg,
    writes: &[FxHashMap<VarId, usize>],
    p: BlockId,
    slot: Option<usize>,
    c: VarId,
) -> Option<bool> {
    let (mut block, mut slot) = (p, slot);
    for _ in 0..MAX_WALK {
        let term = f.block(block).terminator();
        if let Some(value) = term.zip(slot).and_then(|(t, k)| branch_value(t, c, k)) {
            return Some(value);
        }
        if let Some(&i) = writes[block.index()].get(&c) {
            let def = &f.block(block).instrs[i];
            return (def.op == Op::Const).then(|| const_bits(def)).flatten().map(|b| b != 0);
        }
        let mut preds = cfg.reachable_preds(block);
        let (Some(q), None) = (preds.next(), preds.next()) else { return None };
        if q == block {
            return None;
        }
        slot = match f.block(q).terminator() {
            Some(t) => {
                let mut slots = (0..t.labels.len()).filter(|&k| t.labels[k] == block);
                match (slots.next(), slots.next()) {
                    (Some(k), None) => Some(k),
                    _ => None,
                }
            }
            None => None,
        };
        block = q;
    }
    None
}

/// What `c` is when the branch `t` leaves by `slot`, if `t` branches on `c`
/// to two different blocks.
fn branch_value(t: &Instr, c: VarId, slot: usize) -> Option<bool> {
    let differ = t.labels.first() != t.labels.get(1);
    (t.op == Op::Br && t.args.first() == Some(&c) && differ && slot < 2).then_some(slot == 0)
}

/// The blocks that may be bypassed: a branch on two different targets
/// after a little code that does not write the condition, not entered by
/// a retreating edge.
fn candidate(f: &Function, cfg: &Cfg, loop_entry: &[bool], b: BlockId) -> Option<(VarId, [BlockId; 2])> {
    if !cfg.is_reachable(b) || loop_entry[b.index()] {
        return None;
    }
    let block = f.block(b);
    let t = block.terminator().filter(|t| t.op == Op::Br)?;
    let (&c, &then, &otherwise) = (t.args.first()?, t.labels.first()?, t.labels.get(1)?);
    let code = &block.instrs[..block.instrs.len() - 1];
    let copyable = code.len() <= MAX_COPY
        && code.iter().all(|i| i.def() != Some(c) && !matches!(i.op, Op::Get | Op::Phi));
    (then != otherwise && copyable).then_some((c, [then, otherwise]))
}

fn plan(f: &Function) -> Vec<Edit> {
    let cfg = Cfg::new(f);
    let mut loop_entry = vec![false; f.blocks.len()];
    for &p in &cfg.rpo {
        for &s in &cfg.succs[p.index()] {
            if cfg.rpo_index[s.index()] <= cfg.rpo_index[p.index()] {
                loop_entry[s.index()] = true;
            }
        }
    }
    let mut copy_before = vec![false; f.blocks.len()];
    let writes = last_writes(f);
    let mut edits = Vec::new();
    for b in f.block_ids() {
        let Some((c, targets)) = candidate(f, &cfg, &loop_entry, b) else { continue };
        let has_code = f.block(b).instrs.len() > 1;
        for p in cfg.reachable_preds(b) {
            let Some(t) = f.block(p).terminator() else { continue };
            for slot in (0..t.labels.len()).filter(|&k| t.labels[k] == b) {
                let Some(value) = known_on_edge(f, &cfg, &writes, p, Some(slot), c) else { continue };
                let to = targets[usize::from(!value)];
                match t.op {
                    Op::Jmp if has_code => edits.push(Edit::Inline { from: p, code: b, to }),
                    Op::Jmp | Op::Br if !has_code => edits.push(Edit::Relabel { from: p, slot, to }),
                    Op::Br => {
                        // The copy falls into the target: only one may, and only
                        // where the block before the target does not.
                        let free = to.index() > 0
                            && !copy_before[to.index()]
                            && f.block(BlockId::new(to.index() - 1)).terminator().is_some();
                        if free {
                            copy_before[to.index()] = true;
                            edits.push(Edit::CopyBefore { from: p, slot, code: b, to });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    edits
}

/// One round of threading; true if any edge was threaded.
pub(super) fn thread_function(f: &mut Function) -> Result<bool> {
    let edits = plan(f);
    if edits.is_empty() {
        return Ok(false);
    }
    thread_edges(f, edits)
}

/// Makes the planned `edits` (not empty); whether anything changed.
fn thread_edges(f: &mut Function, edits: Vec<Edit>) -> Result<bool> {
    let code_of = |b: BlockId| {
        let instrs = &f.block(b).instrs;
        instrs[..instrs.len() - 1].to_vec()
    };
    // Copies of bypassed code, taken before any edit, and where they go.
    let mut labels = FreshNames::labels(f);
    let mut before: Vec<Option<Block>> = vec![None; f.blocks.len()];
    let mut inlined: Vec<Vec<Instr>> = Vec::with_capacity(edits.len());
    for edit in &edits {
        match *edit {
            Edit::CopyBefore { code, to, .. } => {
                let hint = format!("{}.thread", f.block(code).label.as_deref().unwrap_or("b"));
                let mut block = Block::new(Some(labels.fresh(&hint)));
                block.instrs = code_of(code);
                before[to.index()] = Some(block);
                inlined.push(Vec::new());
            }
            Edit::Inline { code, .. } => inlined.push(code_of(code)),
            Edit::Relabel { .. } => inlined.push(Vec::new()),
        }
    }
    // Renumber: each copy goes right before its target.
    let mut new_index = Vec::with_capacity(f.blocks.len());
    let mut copy_index = vec![BlockId::default(); f.blocks.len()];
    let mut next = 0;
    for (b, copy) in before.iter().enumerate() {
        if copy.is_some() {
            copy_index[b] = BlockId::new(next);
            next += 1;
        }
        new_index.push(BlockId::new(next));
        next += 1;
    }
    let old = std::mem::take(&mut f.blocks);
    for (mut block, copy) in old.into_iter().zip(before) {
        for l in block.instrs.iter_mut().flat_map(|i| i.labels.iter_mut()) {
            *l = new_index[l.index()];
        }
        f.blocks.extend(copy);
        f.blocks.push(block);
    }
    let mut edited = Vec::with_capacity(edits.len());
    for (edit, code) in edits.into_iter().zip(inlined) {
        let (from, slot, to) = match edit {
            Edit::Relabel { from, slot, to } => (from, slot, new_index[to.index()]),
            Edit::CopyBefore { from, slot, to, .. } => (from, slot, copy_index[to.index()]),
            Edit::Inline { from, to, .. } => {
                let instrs = &mut f.block_mut(new_index[from.index()]).instrs;
                let pos = instrs.pop().map(|j| j.pos).unwrap_or_default();
                instrs.extend(code);
                instrs.push(Instr::jmp(new_index[to.index()]).with_pos(pos));
                edited.push(new_index[from.index()]);
                continue;
            }
        };
        let from = new_index[from.index()];
        if let Some(l) = f.block_mut(from).instrs.last_mut().and_then(|t| t.labels.get_mut(slot)) {
            *l = to;
        }
        edited.push(from);
    }
    for b in edited {
        if is_jump_to_next(f, b) {
            f.block_mut(b).instrs.pop();
        }
    }
    remove_unreachable(f)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn threaded(src: &str, args: &[&str]) -> (String, u64, u64) {
        let mut p = parse_text(src).unwrap();
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let before = run(&p, &args, &Limits::default());
        assert!(jump_thread(&mut p).unwrap(), "{src}");
        crate::bril::verify(&p).unwrap();
        let after = run(&p, &args, &Limits::default());
        assert_eq!(after.stdout, before.stdout);
        (to_text(&p), before.dyn_inst, after.dyn_inst)
    }

    #[test]
    fn a_repeated_test_is_decided_by_the_first() {
        let src = "@main(c: bool) {\n  br c .a .b;\n.a:\n  print c;\n  jmp .join;\n.b:\n  jmp .join;\n.join:\n  br c .t .f;\n.t:\n  print c;\n  ret;\n.f:\n  ret;\n}\n";
        let (text, before, after) = threaded(src, &["true"]);
        assert_eq!(
            text,
            "@main(c: bool) {\n  br c .a .b;\n.a:\n  print c;\n  jmp .t;\n.b:\n  jmp .f;\n.t:\n  print c;\n  ret;\n.f:\n  ret;\n}\n"
        );
        assert_eq!(after + 1, before, "the second test is gone");
    }

    #[test]
    fn the_deciding_branch_may_be_a_few_blocks_up() {
        let src = "@main(c: bool, n: int) {\n  br c .a .b;\n.a:\n  print n;\n  jmp .a2;\n.a2:\n  print n;\n.a3:\n  jmp .join;\n.b:\n  jmp .join;\n.join:\n  br c .t .f;\n.t:\n  print c;\n  ret;\n.f:\n  ret;\n}\n";
        let (text, before, after) = threaded(src, &["true", "1"]);
        assert!(text.contains(".a3:\n  jmp .t;") && !text.contains(".join:"), "{text}");
        assert_eq!(after + 1, before);
    }

    #[test]
    fn a_flag_set_by_a_constant_is_threaded_with_a_copy_of_the_code_before_the_test() {
        let src = "@main(n: int) {\n  zero: int = const 0;\n  neg: bool = lt n zero;\n  br neg .isneg .ispos;\n.isneg:\n  flag: bool = const true;\n  jmp .check;\n.ispos:\n  flag: bool = const false;\n  jmp .check;\n.check:\n  print n;\n  br flag .yes .no;\n.yes:\n  print flag;\n.no:\n  ret;\n}\n";
        for arg in ["-3", "4"] {
            let (text, before, after) = threaded(src, &[arg]);
            assert!(!text.contains(".check:"), "{text}");
            assert!(text.contains(".isneg:\n  flag: bool = const true;\n  print n;\n  jmp .yes;"), "{text}");
            assert_eq!(after + 1, before);
        }
    }

    #[test]
    fn a_branch_on_the_same_condition_gets_a_copy_falling_into_the_target() {
        let src = "@main(c: bool) {\n  x: int = const 1;\n  br c .b .other;\n.other:\n  jmp .b;\n.b:\n  print x;\n  br c .t .f;\n.f:\n  ret;\n.t:\n  print c;\n}\n";
        let (text, before, after) = threaded(src, &["true"]);
        assert!(text.contains("  br c .b.thread .other;"), "{text}");
        assert!(text.contains(".b.thread:\n  print x;\n.t:\n"), "{text}");
        assert_eq!(after + 1, before);
    }

    #[test]
    fn unknown_conditions_loop_headers_and_redefinitions_stay() {
        let sources = [
            // The value along the edges is not known.
            "@main(c: bool, d: bool) {\n  br d .a .b;\n.a:\n  jmp .join;\n.b:\n  jmp .join;\n.join:\n  br c .t .f;\n.t:\n  print c;\n.f:\n  ret;\n}\n",
            // The block writes its condition before testing it.
            "@main(c: bool) {\n  br c .a .b;\n.a:\n  jmp .join;\n.b:\n  jmp .join;\n.join:\n  c: bool = not c;\n  br c .t .f;\n.t:\n  print c;\n.f:\n  ret;\n}\n",
            // A loop header: threading would enter the loop elsewhere.
            "@main {\n  c: bool = const true;\n  i: int = const 0;\n.head:\n  br c .body .exit;\n.body:\n  one: int = const 1;\n  i: int = add i one;\n  three: int = const 3;\n  c: bool = lt i three;\n  jmp .head;\n.exit:\n  print i;\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!jump_thread(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| jump_thread(p));
    }
}
