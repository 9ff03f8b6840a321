//! `-licm`: loop-invariant code motion into preheaders.
//!
//! Innermost loops first, an instruction `d = op args` moves to the loop's
//! preheader (made if missing) when:
//! - `op` is pure (no effect, cannot fail), or `div` by a variable whose
//!   every definition is the same nonzero `const`;
//! - no argument is written anywhere in the loop, and each is certainly
//!   assigned there (so the preheader can read it);
//! - the loop writes `d` only here, and `d` is not live on entry to the
//!   header (no read in or after the loop sees an older `d`).
//!
//! Why it is safe: the arguments hold the same values in the preheader as
//! at every iteration, so `d` gets the value it would get in the loop, and
//! every read of `d` the loop's code or its exits make is reached only
//! through this definition. Executing it when the loop would not have is
//! harmless: it cannot fail and has no effect.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::rewrite_drafts_where;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::{ensure_preheaders, find_loops, may_have_loops, Loop};
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

/// `-licm`. A function with no loop is not even looked at, and one with
/// nothing to hoist is not copied.
pub fn licm(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(program, may_have_loops, |_, draft| {
        draft.sweep(MAX_SWEEPS, plan, apply);
        Ok(())
    })
}

/// Sweeps at most: each one hoists everything invariant in every loop; a
/// second finds what the first made invariant (almost never needed).
const MAX_SWEEPS: usize = 8;

/// The variables whose every definition is a `const` of one nonzero value
/// (so a division by them cannot fail); parameters never are.
fn nonzero_constants(f: &Function) -> Vec<bool> {
    let mut value: Vec<Option<Option<u64>>> = vec![None; f.vars.len()];
    for p in &f.params {
        value[p.var.index()] = Some(None);
    }
    for i in f.instrs() {
        let Some(d) = i.def() else { continue };
        let bits = const_bits(i).filter(|&b| b != 0);
        let slot = &mut value[d.index()];
        *slot = match (*slot, bits) {
            (None, b) => Some(b),
            (Some(Some(x)), Some(b)) if x == b => Some(Some(x)),
            _ => Some(None),
        };
    }
    value.into_iter().map(|v| matches!(v, Some(Some(_)))).collect()
}

/// What every loop of one sweep shares: the analyses, and scratch space
/// reused from loop to loop (so no loop costs more than its own size).
struct Sweep<'a> {
    live: &'a Liveness,
    definite: &'a Definite,
    nonzero: Vec<bool>,
    /// Instructions claimed by an enclosing loop, by block.
    claimed: Vec<Vec<bool>>,
    defs_in_loop: Vec<u32>,
    counted: Vec<VarId>,
    hoisted_var: Marks,
    scratch: Marks,
}

/// One sweep: loops outermost first, each claiming the instructions
/// invariant in it ([`plan`]), then every claimed instruction moves to its
/// loop's preheader, made where missing, all in one renumbering ([`apply`]).
/// The plan: for each loop with something to hoist (by index in `loops`),
/// the instructions that move, in order.
struct Plan {
    cfg: Cfg,
    loops: Vec<Loop>,
    moves: Vec<(usize, Vec<(BlockId, usize)>)>,
}

/// The sweep `f` calls for, or `None` when it has nothing to hoist.
fn plan(f: &Function) -> Option<Plan> {
    if f.blocks.is_empty() {
        return None;
    }
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    let loops = find_loops(&cfg, &dom);
    if !may_hoist(f, &loops) {
        return None;
    }
    let live = Liveness::new(f, &cfg);
    let definite = Definite::new(f, &cfg, &live);
    let n = f.vars.len();
    let mut sweep = Sweep {
        live: &live,
        definite: &definite,
        nonzero: nonzero_constants(f),
        claimed: f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect(),
        defs_in_loop: vec![0; n],
        counted: Vec::new(),
        hoisted_var: Marks::new(n),
        scratch: Marks::new(n),
    };
    let mut plans: Vec<(usize, Vec<(BlockId, usize)>)> = Vec::new();
    // `find_loops` lists inner loops before the loops enclosing them.
    for k in (0..loops.len()).rev() {
        let moves = sweep.hoistable(f, &loops[k]);
        for &(b, i) in &moves {
            sweep.claimed[b.index()][i] = true;
        }
        if !moves.is_empty() {
            plans.push((k, moves));
        }
    }
    if plans.is_empty() {
        return None;
    }
    Some(Plan { cfg, loops, moves: plans })
}

/// Whether some loop has an instruction [`Sweep::hoistable`] could take
/// first, judged without liveness: one that may move, is its variable's
/// only definition in the loop, and reads nothing the loop defines. When
/// no loop has one, nothing is hoisted, and liveness is not worth computing.
fn may_hoist(f: &Function, loops: &[Loop]) -> bool {
    let mut defs_in_loop = vec![0u32; f.vars.len()];
    let mut counted: Vec<VarId> = Vec::new();
    loops.iter().any(|lp| {
        for v in counted.drain(..) {
            defs_in_loop[v.index()] = 0;
        }
        let body = || lp.body.iter().flat_map(|&b| f.block(b).instrs.iter());
        for d in body().filter_map(Instr::def) {
            if defs_in_loop[d.index()] == 0 {
                counted.push(d);
            }
            defs_in_loop[d.index()] += 1;
        }
        body().any(|instr| {
            instr.def().is_some_and(|d| defs_in_loop[d.index()] == 1)
                && (instr.op.is_pure() || instr.op == Op::Div)
                && instr.args.iter().all(|a| defs_in_loop[a.index()] == 0)
        })
    })
}

/// Carries out `plan` (made on `f` as it stands): makes the preheaders and
/// moves the code. Whether `f` changed.
fn apply(f: &mut Function, plan: Plan) -> bool {
    let Plan { cfg, loops, moves: plans } = plan;
    let wanted: Vec<&Loop> = plans.iter().map(|(k, _)| &loops[*k]).collect();
    let made = ensure_preheaders(f, &cfg, &wanted);
    let mut remove: Vec<Vec<bool>> = f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect();
    let mut hoisted: Vec<(BlockId, Vec<Instr>)> = Vec::new();
    for ((_, moves), pre) in plans.iter().zip(&made.of_loop) {
        let Some(pre) = *pre else { continue };
        let mut code = Vec::with_capacity(moves.len());
        for &(b, i) in moves {
            let b = made.renumbered[b.index()];
            code.push(f.block(b).instrs[i].clone());
            remove[b.index()][i] = true;
        }
        hoisted.push((pre, code));
    }
    for (block, flags) in f.blocks.iter_mut().zip(&remove) {
        let mut i = 0;
        block.instrs.retain(|_| {
            i += 1;
            !flags[i - 1]
        });
    }
    let moved = !hoisted.is_empty();
    for (pre, code) in hoisted {
        let block = f.block_mut(pre);
        let at = block.instrs.len() - usize::from(block.terminator().is_some());
        block.instrs.splice(at..at, code);
    }
    moved || made.changed
}

impl Sweep<'_> {
    /// The instructions of `lp` (not claimed by an enclosing loop) that may
    /// move to its preheader, in an order that keeps each after the
    /// invariants it reads.
    fn hoistable(&mut self, f: &Function, lp: &Loop) -> Vec<(BlockId, usize)> {
        for v in self.counted.drain(..) {
            self.defs_in_loop[v.index()] = 0;
        }
        for &b in &lp.body {
            let claimed = &self.claimed[b.index()];
            for (i, instr) in f.block(b).instrs.iter().enumerate() {
                if let (Some(d), false) = (instr.def(), claimed[i]) {
                    if self.defs_in_loop[d.index()] == 0 {
                        self.counted.push(d);
                    }
                    self.defs_in_loop[d.index()] += 1;
                }
            }
        }
        // Which arguments of each candidate are certainly assigned where it is
        // (bit k for argument k).
        let mut assigned_args: Vec<Vec<u64>> = Vec::with_capacity(lp.body.len());
        for &b in &lp.body {
            let mut row = vec![0u64; f.block(b).instrs.len()];
            self.definite.walk(f, b, &mut self.scratch, |i, instr, assigned| {
                if instr.def().is_some() {
                    for (k, &a) in instr.args.iter().enumerate().take(64) {
                        if assigned.contains(a) {
                            row[i] |= 1 << k;
                        }
                    }
                }
            });
            assigned_args.push(row);
        }
        self.hoisted_var.clear();
        let live_in_header = self.live.live_in.get(lp.header.index());
        let mut order = Vec::new();
        let mut taken: Vec<Vec<bool>> =
            lp.body.iter().map(|&b| vec![false; f.block(b).instrs.len()]).collect();
        // Moving one instruction can make those reading its result invariant: repeat.
        loop {
            let mut progress = false;
            for (k, &b) in lp.body.iter().enumerate() {
                for (i, instr) in f.block(b).instrs.iter().enumerate() {
                    let Some(d) = instr.def() else { continue };
                    if taken[k][i] || self.claimed[b.index()][i] {
                        continue;
                    }
                    let movable = match instr.op {
                        Op::Div => instr.args.get(1).is_some_and(|&v| self.nonzero[v.index()]),
                        op => op.is_pure(),
                    };
                    let invariant_arg = |(j, a): (usize, &VarId)| {
                        self.hoisted_var.contains(a.index())
                            || (self.defs_in_loop[a.index()] == 0
                                && j < 64
                                && assigned_args[k][i] >> j & 1 == 1)
                    };
                    if movable
                        && self.defs_in_loop[d.index()] == 1
                        && !live_in_header.contains(d.index())
                        && instr.args.iter().enumerate().all(invariant_arg)
                    {
                        taken[k][i] = true;
                        self.hoisted_var.insert(d.index());
                        order.push((b, i));
                        progress = true;
                    }
                }
            }
            if !progress {
                return order;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    const LOOP: &str = "@main(n: int, m: int) {\n  i: int = const 0;\n.loop:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  one: int = const 1;\n  k: int = mul m m;\n  t: int = add k one;\n  ten: int = const 10;\n  q: int = div t ten;\n  r: int = div t m;\n  i: int = add i one;\n  print q r;\n  jmp .loop;\n.done:\n  print i;\n}";

    #[test]
    fn hoists_invariant_chains_but_not_a_possibly_failing_division() {
        let mut p = parse_text(LOOP).unwrap();
        let args = ["4".to_string(), "3".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(licm(&mut p).unwrap());
        let after = run(&p, &args, &Limits::default());
        assert_eq!(before.stdout, after.stdout);
        assert_eq!(after.dyn_inst + 5 * 4 - 5, before.dyn_inst, "five instructions run once, not four times");
        let text = to_text(&p);
        let body = &text[text.find(".body:").unwrap()..];
        assert!(body.contains("r: int = div t m;") && !body.contains("q: int"), "{text}");
        assert!(!licm(&mut p).unwrap());
    }

    #[test]
    fn leaves_variables_read_before_their_definition_in_the_loop() {
        let src = "@main {\n  i: int = const 0;\n  x: int = const 5;\n.loop:\n  print x;\n  x: int = const 7;\n  one: int = const 1;\n  i: int = add i one;\n  c: bool = lt i one;\n  br c .loop .done;\n.done:\n}";
        let mut p = parse_text(src).unwrap();
        licm(&mut p).unwrap();
        let text = to_text(&p);
        assert!(text[text.find(".loop:").unwrap()..].contains("x: int = const 7;"), "{text}");
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| licm(p));
    }
}
