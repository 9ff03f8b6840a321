//! Every pass and pipeline on arbitrary well-formed programs.
//!
//! The bytes pick a program (a suite benchmark or a generated one) and a few
//! mutations of its IR where passes look hardest: operands, opcodes,
//! destinations, jump targets, constants (zero, extremes, 2^53 + 1, -0.0),
//! instructions copied, moved, swapped, deleted or made up, branches added,
//! blocks split, callees changed. A mutant that does not verify is given to
//! the public entry point, which must answer with a VerifyError; one that
//! verifies goes through every pass, every pipeline and a byte-chosen
//! sequence of passes, each of which must not panic, must succeed, must
//! leave a well-formed program and must keep what it prints and whether it
//! fails (and a single pass must report change truthfully).

use std::sync::OnceLock;

use super::seed_of;
use crate::bril::analysis::edit::{ensure_label, insert_block};
use crate::bril::interp::{Executable, Limits, Outcome};
use crate::bril::ir::{Block, BlockId, FuncId, Function, Instr, Literal, Op, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::bril::passes::{pipelines, registry, run_command_line, run_pipeline, ssa::var_types};
use crate::bril::{generator, suite, to_text, verify};
use crate::error::{ErrorKind, Result};

/// Small bounds: each input runs every pass and pipeline.
const LIMITS: Limits =
    Limits { fuel: 50_000, max_memory_cells: 1 << 12, max_call_depth: 64, max_output_bytes: 1 << 12 };

/// Mutants larger than this are skipped (a split or copy repeated on a
/// large suite program): the target is about shapes, not size.
const MAX_INSTRS: usize = 1_500;

/// `pass_mutants`: see the module documentation.
pub fn pass_mutants(data: &[u8]) {
    let mut choices = Choices(data);
    let Some(mut p) = base_program(&mut choices) else { return };
    for _ in 0..1 + choices.below(8) {
        mutate(&mut p, &mut choices);
    }
    if p.instr_count() > MAX_INSTRS {
        return;
    }
    if let Err(e) = verify(&p) {
        assert_eq!(e.kind(), ErrorKind::Verify, "verify: {e}");
        let before = p.clone();
        let flag = ["-lvn", "-peephole", "-O1", "-O2", "-Oz"][choices.below(5)];
        let outcome = std::panic::catch_unwind(|| run_command_line(&mut p.clone(), &[flag]));
        let e = match outcome {
            Ok(Err(e)) => e,
            Ok(Ok(_)) => panic!("{flag} ran on a program that is not well formed:\n{}", to_text(&before)),
            Err(_) => panic!("{flag} panicked on a program that is not well formed:\n{}", to_text(&before)),
        };
        assert_eq!(e.kind(), ErrorKind::Verify, "{flag}: {e}");
        return;
    }
    let reference = Reference::of(&p);
    for pass in registry() {
        let after = check(&p, pass.flag, &reference, |q| (pass.run)(q));
        let same = to_text(&after.program) == to_text(&p);
        assert_eq!(
            after.changed,
            !same,
            "{} reported changed={} wrongly on\n{}",
            pass.flag,
            after.changed,
            to_text(&p)
        );
    }
    for name in pipelines() {
        check(&p, name, &reference, |q| run_pipeline(q, name));
    }
    let mut applied = Vec::new();
    let mut current = p;
    while applied.len() < 6 && !choices.is_empty() {
        let pass = &registry()[choices.below(registry().len())];
        applied.push(pass.flag);
        current = check(&current, &applied.join(" "), &reference, |q| (pass.run)(q)).program;
    }
}

/// The unoptimised program's arguments and run, when it ends within the limits.
struct Reference {
    args: Vec<String>,
    run: Option<Outcome>,
}

impl Reference {
    fn of(p: &Program) -> Reference {
        let args = p.main_args();
        let run = Executable::new(p).ok().map(|exe| exe.run(&args, &LIMITS));
        // A run that hit a limit is not known to end: nothing to compare.
        let run = run.filter(|r| !matches!(&r.result, Err(e) if e.kind() == ErrorKind::Limit));
        Reference { args, run }
    }
}

struct Checked {
    program: Program,
    changed: bool,
}

/// Runs `apply` on a copy of `p` and checks the contract; returns the copy.
fn check(
    p: &Program,
    what: &str,
    reference: &Reference,
    apply: impl FnOnce(&mut Program) -> Result<bool>,
) -> Checked {
    let mut q = p.clone();
    let changed = match apply(&mut q) {
        Ok(changed) => changed,
        Err(e) => panic!("{what} failed with {e} on a well-formed program:\n{}", to_text(p)),
    };
    if let Err(e) = verify(&q) {
        panic!("{what} broke the program: {e}\n{}\nbecame\n{}", to_text(p), to_text(&q));
    }
    if let Some(before) = &reference.run {
        // Optimised code may run longer (SSA copies, unrolling...): more fuel.
        let loose = Limits { fuel: LIMITS.fuel * 16, max_call_depth: LIMITS.max_call_depth * 2, ..LIMITS };
        let after = Executable::new(&q).expect("verified").run(&reference.args, &loose);
        let same = match (&before.result, &after.result) {
            (Ok(()), Ok(())) => before.stdout == after.stdout,
            // A run that failed must fail the same way after the same output.
            (Err(a), Err(b)) => a.kind() == b.kind() && before.stdout == after.stdout,
            _ => false,
        };
        assert!(
            same,
            "{what} changed the behaviour: {:?} {:?} became {:?} {:?}\n{}\nbecame\n{}",
            before.stdout,
            before.result,
            after.stdout,
            after.result,
            to_text(p),
            to_text(&q)
        );
    }
    Checked { program: q, changed }
}

/// Reads choices from the fuzzer's bytes; zeros once they run out.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        let wide = usize::from(u16::from_le_bytes([self.byte(), self.byte()]));
        if n == 0 {
            0
        } else {
            wide % n
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The suite's programs, read once.
fn suite_programs() -> &'static [Program] {
    static PROGRAMS: OnceLock<Vec<Program>> = OnceLock::new();
    PROGRAMS.get_or_init(|| suite::all().iter().filter_map(|b| b.program().ok()).collect())
}

/// A suite program (first byte below 128) or a generated one.
fn base_program(choices: &mut Choices) -> Option<Program> {
    let pick = choices.byte();
    if pick < 128 {
        let programs = suite_programs();
        return programs.get(usize::from(pick) % programs.len().max(1)).cloned();
    }
    let seed: Vec<u8> = (0..4).map(|_| choices.byte()).collect();
    generator::generate(seed_of(&seed), 1 + u32::from(choices.byte()) % 60).ok()
}

/// Operand values that find edges.
const INTS: [i64; 9] = [0, 1, -1, 2, 63, i64::MIN, i64::MAX, (1 << 53) + 1, 3_000_000_001];
const FLOATS: [f64; 8] = [0.0, -0.0, 1.0, -1.5, 1e308, -1e308, f64::MIN_POSITIVE, 0.1];

/// A literal of type `ty` from the tables above.
fn literal(ty: Type, choices: &mut Choices) -> Option<Literal> {
    use crate::bril::ir::BaseType;
    if ty.is_ptr() {
        return None;
    }
    Some(match ty.base {
        BaseType::Int => Literal::Int(INTS[choices.below(INTS.len())]),
        BaseType::Float => Literal::Float(FLOATS[choices.below(FLOATS.len())]),
        BaseType::Bool => Literal::Bool(choices.byte() % 2 == 0),
        BaseType::Char => Literal::Char(['a', '\0', 'é', '\u{10FFFF}'][choices.below(4)]),
    })
}

/// Opcodes of one signature: one may replace another.
const OP_CLASSES: [&[Op]; 7] = [
    &[Op::Add, Op::Mul, Op::Sub, Op::Div],
    &[Op::Eq, Op::Lt, Op::Gt, Op::Le, Op::Ge],
    &[Op::And, Op::Or],
    &[Op::Fadd, Op::Fmul, Op::Fsub, Op::Fdiv],
    &[Op::Feq, Op::Flt, Op::Fle, Op::Fgt, Op::Fge],
    &[Op::Ceq, Op::Clt, Op::Cle, Op::Cgt, Op::Cge],
    &[Op::Id, Op::Not],
];

/// One mutation of one function of `p`.
fn mutate(p: &mut Program, choices: &mut Choices) {
    if p.functions.is_empty() {
        return;
    }
    let fi = choices.below(p.functions.len());
    let signatures: Vec<(Vec<Type>, Option<Type>)> =
        p.functions.iter().map(|f| (f.params.iter().map(|p| p.ty).collect(), f.ret)).collect();
    let f = std::sync::Arc::make_mut(&mut p.functions[fi]);
    if f.blocks.is_empty() {
        f.blocks.push(Block::new(None));
    }
    let types = var_types(f);
    let kind = choices.below(13);
    let Some((b, i)) = pick_instr(f, choices) else {
        return add_instr(f, &types, &signatures, choices);
    };
    match kind {
        // An operand reads another variable (of the same type, mostly).
        0 => {
            let instr = &f.blocks[b].instrs[i];
            let uses = instr.uses().len();
            if uses > 0 {
                let k = choices.below(uses);
                let old = instr.uses()[k];
                let ty = types.get(old.index()).copied().flatten();
                let new = pick_var(&types, ty.filter(|_| choices.byte() % 4 != 0), choices);
                f.blocks[b].instrs[i].uses_mut()[k] = new;
            }
        }
        // Another opcode of the same signature.
        1 => {
            let op = f.blocks[b].instrs[i].op;
            if let Some(class) = OP_CLASSES.iter().find(|c| c.contains(&op)) {
                f.blocks[b].instrs[i].op = class[choices.below(class.len())];
            }
        }
        2 => {
            f.blocks[b].instrs.remove(i);
        }
        // Copied or moved elsewhere (before any terminator there).
        3 | 4 => {
            let instr = if kind == 3 { f.blocks[b].instrs[i].clone() } else { f.blocks[b].instrs.remove(i) };
            let to = choices.below(f.blocks.len());
            let at = choices.below(body_len(&f.blocks[to]) + 1);
            f.blocks[to].instrs.insert(at, instr);
        }
        // A jump target elsewhere.
        5 => {
            let labels = f.blocks[b].instrs[i].labels.len();
            if labels > 0 {
                let target = BlockId::new(choices.below(f.blocks.len()));
                label(f, target);
                f.blocks[b].instrs[i].labels[choices.below(labels)] = target;
            }
        }
        // Another constant of the same type.
        6 => {
            let instr = &mut f.blocks[b].instrs[i];
            if let (Op::Const, Some(d)) = (instr.op, instr.dest) {
                if let Some(lit) = literal(d.ty, choices) {
                    instr.value = Some(lit);
                }
            }
        }
        // Another destination of the same type: more definitions, fewer paths defining.
        7 => {
            if let Some(ty) = f.blocks[b].instrs[i].dest.map(|d| d.ty) {
                let var = pick_var(&types, Some(ty), choices);
                if let Some(d) = f.blocks[b].instrs[i].dest.as_mut() {
                    d.var = var;
                }
            }
        }
        // Two neighbours swap.
        8 => {
            if i + 1 < body_len(&f.blocks[b]) {
                f.blocks[b].instrs.swap(i, i + 1);
            }
        }
        // The block ends in a branch on some bool instead.
        9 => {
            let cond = pick_var(&types, Some(Type::BOOL), choices);
            if types.get(cond.index()).copied().flatten() == Some(Type::BOOL) {
                let (t, e) = (
                    BlockId::new(choices.below(f.blocks.len())),
                    BlockId::new(choices.below(f.blocks.len())),
                );
                label(f, t);
                label(f, e);
                let block = &mut f.blocks[b];
                if block.terminator().is_some() {
                    block.instrs.pop();
                }
                block.instrs.push(Instr::br(cond, t, e));
            }
        }
        // The block splits in two at the instruction (the first falls through).
        10 => split_block(f, b, i),
        // A call calls another function.
        11 => {
            if f.blocks[b].instrs[i].op == Op::Call {
                f.blocks[b].instrs[i].func = Some(FuncId::new(choices.below(signatures.len())));
            }
        }
        _ => add_instr(f, &types, &signatures, choices),
    }
}

/// Instructions before the block's terminator.
fn body_len(block: &Block) -> usize {
    block.instrs.len() - usize::from(block.terminator().is_some())
}

/// Some instruction of `f`, as (block, index).
fn pick_instr(f: &Function, choices: &mut Choices) -> Option<(usize, usize)> {
    let total = f.instr_count();
    if total == 0 {
        return None;
    }
    let mut k = choices.below(total);
    for (b, block) in f.blocks.iter().enumerate() {
        if k < block.instrs.len() {
            return Some((b, k));
        }
        k -= block.instrs.len();
    }
    None
}

/// A variable of type `ty` when there is one (any variable otherwise).
fn pick_var(types: &[Option<Type>], ty: Option<Type>, choices: &mut Choices) -> VarId {
    let fitting: Vec<usize> = (0..types.len()).filter(|&v| ty.is_none() || types[v] == ty).collect();
    if fitting.is_empty() {
        return VarId::new(choices.below(types.len()));
    }
    VarId::new(fitting[choices.below(fitting.len())])
}

/// Gives a jump target a label.
fn label(f: &mut Function, target: BlockId) {
    let mut labels = FreshNames::labels(f);
    ensure_label(f, target, &mut labels, "fz");
}

fn split_block(f: &mut Function, b: usize, i: usize) {
    if i == 0 {
        return;
    }
    let mut tail: Vec<Instr> = f.blocks[b].instrs.split_off(i);
    for instr in &mut tail {
        for l in instr.labels.iter_mut() {
            if l.index() > b {
                *l = BlockId::new(l.index() + 1);
            }
        }
    }
    let mut labels = FreshNames::labels(f);
    let mut block = Block::new(Some(labels.fresh("fz")));
    block.instrs = tail;
    insert_block(f, b + 1, block);
}

/// A made-up instruction somewhere: a copy, an operation, a constant, a
/// print, a call, a jump or a return, writing an existing or a new variable.
fn add_instr(
    f: &mut Function,
    types: &[Option<Type>],
    signatures: &[(Vec<Type>, Option<Type>)],
    choices: &mut Choices,
) {
    let any = |choices: &mut Choices| pick_var(types, None, choices);
    let of = |ty: Type, choices: &mut Choices| pick_var(types, Some(ty), choices);
    let to = choices.below(f.blocks.len());
    let (int, boolean, float) = (Type::INT, Type::BOOL, Type::FLOAT);
    let dest = |ty: Type, f: &mut Function, choices: &mut Choices| {
        if choices.byte() % 2 == 0 && types.contains(&Some(ty)) {
            of(ty, choices)
        } else {
            let mut names = FreshNames::vars(f);
            names.fresh_var(f, "fz")
        }
    };
    let instr = match choices.below(10) {
        0 => {
            let src = any(choices);
            let ty = types.get(src.index()).copied().flatten().unwrap_or(int);
            let d = dest(ty, f, choices);
            Instr::value(Op::Id, d, ty, &[src])
        }
        1 => {
            let op = [Op::Add, Op::Sub, Op::Mul, Op::Div][choices.below(4)];
            let (a, b) = (of(int, choices), of(int, choices));
            Instr::value(op, dest(int, f, choices), int, &[a, b])
        }
        2 => {
            let op = [Op::Lt, Op::Eq, Op::Ge][choices.below(3)];
            let (a, b) = (of(int, choices), of(int, choices));
            Instr::value(op, dest(boolean, f, choices), boolean, &[a, b])
        }
        3 => {
            let op = [Op::Not, Op::And, Op::Or][choices.below(3)];
            let args: Vec<VarId> =
                (0..if op == Op::Not { 1 } else { 2 }).map(|_| of(boolean, choices)).collect();
            Instr::value(op, dest(boolean, f, choices), boolean, &args)
        }
        4 => {
            let op = [Op::Fadd, Op::Fdiv, Op::Fmul][choices.below(3)];
            let (a, b) = (of(float, choices), of(float, choices));
            Instr::value(op, dest(float, f, choices), float, &[a, b])
        }
        5 => {
            let ty = [int, boolean, float, Type::CHAR][choices.below(4)];
            let Some(lit) = literal(ty, choices) else { return };
            Instr::constant(dest(ty, f, choices), ty, lit)
        }
        6 => Instr::effect(Op::Print, &[any(choices)]),
        7 => {
            let callee = choices.below(signatures.len());
            let (params, ret) = &signatures[callee];
            let args: Vec<VarId> = params.iter().map(|&t| of(t, choices)).collect();
            let d = ret.map(|t| crate::bril::ir::Dest { var: dest(t, f, choices), ty: t });
            Instr::call(FuncId::new(callee), d, &args)
        }
        8 => {
            let target = BlockId::new(choices.below(f.blocks.len()));
            label(f, target);
            let block = &mut f.blocks[to];
            if block.terminator().is_some() {
                block.instrs.pop();
            }
            block.instrs.push(Instr::jmp(target));
            return;
        }
        _ => {
            let value = f.ret.map(|t| of(t, choices));
            let block = &mut f.blocks[to];
            if block.terminator().is_some() {
                block.instrs.pop();
            }
            block.instrs.push(Instr::ret(value));
            return;
        }
    };
    let at = choices.below(body_len(&f.blocks[to]) + 1);
    f.blocks[to].instrs.insert(at, instr);
}
