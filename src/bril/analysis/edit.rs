//! Structural edits of a function's block list that keep every jump target
//! pointing at the same block: inserting and removing blocks, labeling.
//!
//! These helpers only renumber; the caller keeps fallthrough right (a block
//! without a terminator flows into whatever block follows it in layout).

use crate::bril::ir::{Block, BlockId, Function, Instr, Name, Op, Program};
use crate::bril::names::FreshNames;
use crate::bril::print::function_prints_same;
use crate::bril::verify::verify_function;
use crate::error::{Error, Result};
use std::sync::Arc;

/// Inserts `block` at layout position `at`, shifting later blocks and every
/// jump to them. Jumps inside `block` itself must already use the new numbering.
pub fn insert_block(f: &mut Function, at: usize, block: Block) {
    let at = at.min(f.blocks.len());
    for instr in f.instrs_mut() {
        for l in instr.labels.iter_mut() {
            if l.index() >= at {
                *l = BlockId::new(l.index() + 1);
            }
        }
    }
    f.blocks.insert(at, block);
}

/// Removes the blocks whose `keep` entry is false. A jump from a kept block to
/// a removed one is an error (and nothing is changed).
pub fn remove_blocks(f: &mut Function, keep: &[bool]) -> Result<()> {
    if keep.len() != f.blocks.len() {
        return Err(Error::service("remove_blocks: one flag per block is needed"));
    }
    let mut new_index = vec![None; keep.len()];
    let mut next = 0usize;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            new_index[i] = Some(next);
            next += 1;
        }
    }
    for (b, block) in f.blocks.iter().enumerate() {
        if keep[b]
            && block.instrs.iter().flat_map(|i| i.labels.iter()).any(|l| new_index[l.index()].is_none())
        {
            return Err(Error::service(format!("@{}: a kept block jumps to a removed one", f.name)));
        }
    }
    let mut i = 0;
    f.blocks.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    for instr in f.instrs_mut() {
        for l in instr.labels.iter_mut() {
            if let Some(n) = new_index[l.index()] {
                *l = BlockId::new(n);
            }
        }
    }
    Ok(())
}

/// Gives `b` a fresh label (starting with `hint`) if it has none, so it can
/// be a jump target; returns the label.
pub fn ensure_label(f: &mut Function, b: BlockId, labels: &mut FreshNames, hint: &str) -> Name {
    if let Some(l) = &f.block(b).label {
        return l.clone();
    }
    let label = labels.fresh(hint);
    f.block_mut(b).label = Some(label.clone());
    label
}

/// Whether `b` ends without a terminator and so flows into the next block.
pub fn falls_through(f: &Function, b: BlockId) -> bool {
    f.block(b).terminator().is_none()
}

/// Redirects every edge `from -> old` to `from -> new` (labels only; a
/// fallthrough edge is the caller's business).
pub fn retarget(f: &mut Function, from: BlockId, old: BlockId, new: BlockId) {
    if let Some(t) = f.block_mut(from).instrs.last_mut().filter(|i| i.is_terminator()) {
        for l in t.labels.iter_mut() {
            if *l == old {
                *l = new;
            }
        }
    }
}

/// Makes the fallthrough out of `b`, if any, an explicit `jmp` to the next
/// block (labeling it). Returns false when `b` is the last block and falls
/// off the function's end (nothing to jump to).
pub fn make_fallthrough_explicit(f: &mut Function, b: BlockId, labels: &mut FreshNames) -> bool {
    if !falls_through(f, b) {
        return true;
    }
    let next = b.index() + 1;
    if next >= f.blocks.len() {
        return false;
    }
    ensure_label(f, BlockId::new(next), labels, "b");
    f.block_mut(b).instrs.push(Instr::jmp(BlockId::new(next)));
    true
}

/// A `jmp` to the very next block is a no-op that still costs an instruction.
pub fn is_jump_to_next(f: &Function, b: BlockId) -> bool {
    matches!(f.block(b).terminator(), Some(t) if t.op == Op::Jmp && t.labels.first().map(|l| l.index()) == Some(b.index() + 1))
}

/// Runs `transform` on a copy of each function in turn and keeps the copy
/// only if it still verifies and prints differently; true if any function
/// changed. A transformation whose result fails verification (say, a read
/// left with no definition) is dropped: not proven safe, not made.
pub fn rewrite_functions(
    program: &mut Program,
    transform: impl FnMut(&Program, &mut Function) -> Result<()>,
) -> Result<bool> {
    rewrite_functions_where(program, |_| true, transform)
}

/// [`rewrite_functions`] on the functions `may_change` picks: a cheap test
/// that the transformation has something to work on (a loop, a branch),
/// so the others are not even copied.
pub fn rewrite_functions_where(
    program: &mut Program,
    may_change: impl Fn(&Function) -> bool,
    mut transform: impl FnMut(&Program, &mut Function) -> Result<()>,
) -> Result<bool> {
    rewrite_drafts_where(program, may_change, |program, draft| transform(program, draft.make_mut()))
}

/// [`rewrite_functions`] for a transformation that looks before it writes:
/// it gets each function as a [`Draft`], copied only when it first asks to
/// write, so a function it leaves alone is neither copied, compared nor
/// verified. A written copy goes through the same checks as ever.
pub fn rewrite_drafts(
    program: &mut Program,
    transform: impl FnMut(&Program, &mut Draft<'_>) -> Result<()>,
) -> Result<bool> {
    rewrite_drafts_where(program, |_| true, transform)
}

/// [`rewrite_drafts`] on the functions `may_change` picks.
pub fn rewrite_drafts_where(
    program: &mut Program,
    may_change: impl Fn(&Function) -> bool,
    mut transform: impl FnMut(&Program, &mut Draft<'_>) -> Result<()>,
) -> Result<bool> {
    let mut changed = false;
    for i in 0..program.functions.len() {
        if !may_change(&program.functions[i]) {
            continue;
        }
        let mut draft = Draft::new(&program.functions[i]);
        transform(program, &mut draft)?;
        let Some(f) = draft.into_copy() else { continue };
        if function_prints_same(program, &f, &program.functions[i]) {
            continue;
        }
        if verify_function(program, &f).is_err() {
            #[cfg(test)]
            DROPPED.with(|d| d.set(d.get() + 1));
            continue;
        }
        program.functions[i] = Arc::new(f);
        changed = true;
    }
    Ok(changed)
}

/// A function a pass may rewrite, copied on the pass's first write: until
/// then it is the original, read in place.
pub struct Draft<'a> {
    original: &'a Function,
    copy: Option<Function>,
}

impl<'a> Draft<'a> {
    pub fn new(original: &'a Function) -> Draft<'a> {
        Draft { original, copy: None }
    }

    /// The function as it stands: the copy once written, else the original.
    pub fn get(&self) -> &Function {
        self.copy.as_ref().unwrap_or(self.original)
    }

    /// The function as it was given, whatever has been written since (its
    /// borrow does not hold the draft, so a pass can read it and then write).
    pub fn original(&self) -> &'a Function {
        self.original
    }

    /// Whether the pass has asked to write (and so holds a copy).
    pub fn is_written(&self) -> bool {
        self.copy.is_some()
    }

    /// The written copy, if the pass wrote.
    pub fn into_copy(self) -> Option<Function> {
        self.copy
    }

    /// The function with only the instructions `keep` marks (one flag per
    /// instruction, by block), to write to further. Unwritten, only the
    /// kept instructions are copied; written, the others are removed in place.
    pub fn write_kept(&mut self, keep: &[Vec<bool>]) -> &mut Function {
        if self.copy.is_none() {
            let f = self.original;
            let blocks = f
                .blocks
                .iter()
                .zip(keep)
                .map(|(block, keep)| Block {
                    label: block.label.clone(),
                    label_pos: block.label_pos,
                    instrs: block
                        .instrs
                        .iter()
                        .zip(keep)
                        .filter(|(_, &k)| k)
                        .map(|(i, _)| i.clone())
                        .collect(),
                })
                .collect();
            #[cfg(test)]
            COPIED.with(|c| c.set(c.get() + 1));
            self.copy = Some(Function {
                name: f.name.clone(),
                params: f.params.clone(),
                ret: f.ret,
                blocks,
                vars: f.vars.clone(),
                pos: f.pos,
            });
        } else {
            for (block, keep) in self.make_mut().blocks.iter_mut().zip(keep) {
                let mut i = 0;
                block.instrs.retain(|_| {
                    i += 1;
                    keep[i - 1]
                });
            }
        }
        self.make_mut()
    }

    /// Repeats `plan` and `apply` until a plan finds nothing, a sweep
    /// changes nothing or `max_sweeps` have run. The first plan is made on
    /// the original, and the function is copied only when it has
    /// something; each later one on the copy as the sweep before left it.
    pub fn sweep<P>(
        &mut self,
        max_sweeps: usize,
        plan: impl Fn(&Function) -> Option<P>,
        apply: impl Fn(&mut Function, P) -> bool,
    ) {
        let Some(first) = plan(self.original) else { return };
        let f = self.make_mut();
        let mut next = Some(first);
        for round in 1..=max_sweeps {
            let Some(sweep) = next.take() else { break };
            if !apply(f, sweep) || round == max_sweeps {
                break;
            }
            next = plan(f);
        }
    }

    /// The function to write to, copied from the original on the first call.
    pub fn make_mut(&mut self) -> &mut Function {
        let original = self.original;
        self.copy.get_or_insert_with(|| {
            #[cfg(test)]
            COPIED.with(|c| c.set(c.get() + 1));
            original.clone()
        })
    }
}

#[cfg(test)]
thread_local! {
    /// Rewrites [`rewrite_functions`] dropped because they failed verification
    /// (tests check this stays zero where it should).
    pub(crate) static DROPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Functions [`Draft::make_mut`] copied (tests check a pass with nothing
    /// to do copies none).
    pub(crate) static COPIED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Removes every block that cannot be reached from the entry. Always safe:
/// a reachable block never falls through into an unreachable one.
pub fn remove_unreachable(f: &mut Function) -> Result<bool> {
    let cfg = super::cfg::Cfg::new(f);
    remove_unreachable_given(f, &cfg)
}

/// [`remove_unreachable`] with the function's current CFG at hand.
pub fn remove_unreachable_given(f: &mut Function, cfg: &super::cfg::Cfg) -> Result<bool> {
    let keep: Vec<bool> = f.block_ids().map(|b| cfg.is_reachable(b)).collect();
    if keep.iter().all(|&k| k) {
        return Ok(false);
    }
    remove_blocks(f, &keep)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::{parse_text, to_text, verify};

    #[test]
    fn insert_and_remove_keep_targets() {
        let mut p = parse_text("@main {\n  jmp .b;\n.a:\n  jmp .b;\n.b:\n  ret;\n}").unwrap();
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        let mut new = Block::new(Some("n".into()));
        new.instrs.push(Instr::jmp(BlockId(3)));
        insert_block(f, 1, new);
        assert_eq!(f.block(BlockId(0)).instrs[0].labels[0], BlockId(3), "b moved to 3");
        assert_eq!(f.block(BlockId(1)).instrs[0].labels[0], BlockId(3));
        remove_blocks(f, &[true, true, false, true]).unwrap();
        verify(&p).unwrap();
        assert_eq!(to_text(&p), "@main {\n  jmp .b;\n.n:\n  jmp .b;\n.b:\n  ret;\n}\n");
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        assert!(remove_blocks(f, &[true, true, false]).is_err(), "b is still a target");
    }

    #[test]
    fn a_draft_is_copied_on_its_first_write_only() {
        let mut p =
            parse_text("@f {\n  x: int = const 1;\n}\n@main {\n  y: int = const 2;\n  print y;\n}").unwrap();
        let copies = || COPIED.with(|c| c.get());
        let before = copies();
        let changed = rewrite_drafts(&mut p, |_, draft| {
            if draft.get().name.as_ref() == "f" {
                draft.make_mut().blocks[0].instrs.clear();
                assert_eq!(draft.original().instrs().count(), 1, "the original stays as it was");
                draft.make_mut().blocks[0].instrs.push(Instr::new(Op::Nop));
            }
            Ok(())
        })
        .unwrap();
        assert!(changed);
        assert_eq!(copies() - before, 1, "one function written, once copied");
        assert_eq!(to_text(&p), "@f {\n  nop;\n}\n@main {\n  y: int = const 2;\n  print y;\n}\n");
        let before = copies();
        let changed = rewrite_drafts(&mut p, |_, draft| {
            let _ = draft.get().instrs().count();
            Ok(())
        })
        .unwrap();
        assert!(!changed);
        assert_eq!(copies(), before, "only read: nothing copied");
    }

    #[test]
    fn explicit_fallthrough_labels_its_target() {
        let mut p = parse_text("@main {\n  x: int = const 1;\n  jmp .end;\n  print x;\n.end:\n}").unwrap();
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        assert_eq!(f.blocks.len(), 3);
        let mut labels = FreshNames::labels(f);
        assert!(make_fallthrough_explicit(f, BlockId(1), &mut labels));
        assert!(is_jump_to_next(f, BlockId(1)));
        assert!(!make_fallthrough_explicit(f, BlockId(2), &mut labels));
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        assert!(falls_through(f, BlockId(2)));
        verify(&p).unwrap();
    }
}
