//! `-loop-rotate`: loop rotation, from while loops to guarded do-while loops.
//!
//! A loop whose header is a small test (`... ; br c .body .exit`, one target
//! in the loop, one outside) and whose latch ends with `jmp header` gets a
//! copy of the header's code and branch in place of that jump. The original
//! header is then only entered from outside the loop: it became the guard
//! that decides whether the loop runs at all, and the loop proper starts at
//! `.body` and tests at its bottom.
//!
//! ```text
//! .head: c = lt i n; br c .body .exit        .head: c = lt i n; br c .body .exit
//! .body: ...; jmp .head               =>     .body: ...; c = lt i n; br c .body .exit
//! ```
//!
//! Each iteration runs one jump less, and the loop body now runs at least
//! once wherever it is entered, so code motion may treat what it computes
//! as certain (anticipated) at the guard.
//!
//! Why it is safe: the copy is exactly what the jump would have run next,
//! so every run executes the same instructions minus the jumps. Only
//! headers without `get` are copied (a `get` must stay the only definition
//! of its variable), and at most [`MAX_HEADER`] instructions per latch.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::rewrite_functions_where;
use crate::bril::analysis::loops::{find_loops, may_have_loops};
use crate::bril::ir::{BlockId, Function, Op, Program};
use crate::error::Result;

/// Most instructions (the branch included) a header may have to be copied.
pub const MAX_HEADER: usize = 8;

/// `-loop-rotate`.
pub fn loop_rotate(program: &mut Program) -> Result<bool> {
    rewrite_functions_where(program, may_have_loops, |_, f| {
        rotate_function(f);
        Ok(())
    })
}

/// The latches (with their header) whose back jump can become a copy of the header.
fn rotations(f: &Function) -> Vec<(BlockId, BlockId)> {
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    let mut out = Vec::new();
    for lp in find_loops(&cfg, &dom) {
        let header = f.block(lp.header);
        let Some(t) = header.terminator().filter(|t| t.op == Op::Br) else { continue };
        let (Some(&a), Some(&b)) = (t.labels.first(), t.labels.get(1)) else { continue };
        let body = match (lp.contains(a), lp.contains(b)) {
            (true, false) => a,
            (false, true) => b,
            _ => continue,
        };
        let copyable = header.instrs.len() <= MAX_HEADER
            && header.instrs.iter().all(|i| !matches!(i.op, Op::Get | Op::Phi));
        if body == lp.header || !copyable {
            continue;
        }
        for &latch in &lp.latches {
            let jumps = f.block(latch).terminator().is_some_and(|t| t.op == Op::Jmp);
            if latch != lp.header && jumps && cfg.succs[latch.index()] == [lp.header] {
                out.push((latch, lp.header));
            }
        }
    }
    out
}

pub(super) fn rotate_function(f: &mut Function) {
    // A header ends with a branch, a rotated latch with a jump: no block is
    // both, so every copy is taken from an unedited header.
    for (latch, header) in rotations(f) {
        let copy = f.block(header).instrs.clone();
        let instrs = &mut f.block_mut(latch).instrs;
        instrs.pop();
        instrs.extend(copy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    const WHILE: &str = "@main(n: int) {\n  i: int = const 0;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  print i;\n  i: int = add i one;\n  jmp .head;\n.exit:\n  print i;\n}\n";

    #[test]
    fn a_while_loop_becomes_a_guarded_do_while() {
        let mut p = parse_text(WHILE).unwrap();
        let args = ["5".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(loop_rotate(&mut p).unwrap());
        assert_eq!(
            to_text(&p),
            "@main(n: int) {\n  i: int = const 0;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  print i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .body .exit;\n.exit:\n  print i;\n}\n"
        );
        let after = run(&p, &args, &Limits::default());
        assert_eq!(after.stdout, before.stdout);
        assert_eq!(after.dyn_inst + 5, before.dyn_inst, "one jump less per iteration");
        assert!(!loop_rotate(&mut p).unwrap(), "a rotated loop stays as it is");
    }

    #[test]
    fn leaves_large_headers_fallthrough_latches_and_ssa_headers() {
        let big = WHILE.replace("  c: bool = lt i n;\n", &"  c: bool = lt i n;\n".repeat(MAX_HEADER));
        let at_bottom = "@main(n: int) {\n  i: int = const 0;\n  one: int = const 1;\n  jmp .head;\n.body:\n  i: int = add i one;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.exit:\n  print i;\n}\n";
        let ssa = "@main(n: int) {\n  z: int = const 0;\n  set i z;\n.head:\n  i: int = get;\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  one: int = const 1;\n  j: int = add i one;\n  set i j;\n  jmp .head;\n.exit:\n  print i;\n}\n";
        for src in [big.as_str(), at_bottom, ssa] {
            let mut p = parse_text(src).unwrap();
            assert!(!loop_rotate(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| loop_rotate(p));
    }
}
