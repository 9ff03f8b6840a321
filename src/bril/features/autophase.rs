//! `Autophase`: structural features of a program, after LLVM's Autophase
//! feature set, for Bril.
//!
//! Block-shape features count blocks of every function by their number of
//! distinct predecessor and successor blocks; an entry block counts no
//! implicit predecessor. A "constant variable" is one whose every
//! definition is a `const` (and is no parameter): Bril has no immediate
//! operands, so an operand is constant when it names such a variable.
//! [`Feature`] lists every feature with its meaning; [`NAMES`] and
//! [`DESCRIPTIONS`] give them in vector order.

use super::shape::BlockShape;
use crate::bril::ir::{Function, Literal, Op, Program, Type};

macro_rules! features {
    ($($variant:ident = $name:literal : $doc:literal,)*) => {
        /// One Autophase feature; its discriminant is its index in the vector.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Feature {
            $(#[doc = $doc] $variant,)*
        }

        impl Feature {
            pub const ALL: [Feature; LEN] = [$(Feature::$variant,)*];
        }

        /// Feature names, in vector order.
        pub const NAMES: [&str; LEN] = [$($name,)*];
        /// What each feature counts, in vector order.
        pub const DESCRIPTIONS: [&str; LEN] = [$($doc,)*];
        /// Length of the Autophase vector.
        pub const LEN: usize = [$($name,)*].len();
    };
}

features! {
    BlocksNoPred = "BlocksNoPred": "Blocks with no predecessor: entries and unreachable blocks.",
    BlocksOnePred = "BlocksOnePred": "Blocks with exactly one predecessor.",
    BlocksTwoPreds = "BlocksTwoPreds": "Blocks with exactly two predecessors.",
    BlocksManyPreds = "BlocksManyPreds": "Blocks with more than two predecessors.",
    BlocksNoSucc = "BlocksNoSucc": "Blocks with no successor: they return or fall off the function's end.",
    BlocksOneSucc = "BlocksOneSucc": "Blocks with exactly one successor.",
    BlocksTwoSuccs = "BlocksTwoSuccs": "Blocks with two successors (a `br` to two different labels).",
    BlocksOnePredOneSucc = "BlocksOnePredOneSucc": "Blocks with one predecessor and one successor.",
    BlocksOnePredTwoSuccs = "BlocksOnePredTwoSuccs": "Blocks with one predecessor and two successors.",
    BlocksTwoPredsOneSucc = "BlocksTwoPredsOneSucc": "Blocks with two predecessors and one successor.",
    BlocksTwoPredsTwoSuccs = "BlocksTwoPredsTwoSuccs": "Blocks with two predecessors and two successors.",
    Edges = "Edges": "Control-flow edges between blocks (distinct source-target pairs).",
    CriticalEdges = "CriticalEdges": "Edges from a block with several successors to a block with several predecessors.",
    LayoutBackEdges = "LayoutBackEdges": "Edges to a block at or before their source in layout order (loops, in structured code).",
    UnreachableBlocks = "UnreachableBlocks": "Blocks no path from the function's entry reaches.",
    EmptyBlocks = "EmptyBlocks": "Blocks without instructions (a label alone).",
    BlocksSmall = "BlocksSmall": "Blocks with fewer than 15 instructions.",
    BlocksMid = "BlocksMid": "Blocks with 15 to 500 instructions.",
    BlocksLarge = "BlocksLarge": "Blocks with more than 500 instructions.",
    BlocksStartingWithGet = "BlocksStartingWithGet": "Blocks whose first instruction is a `get` (an SSA join, like an LLVM phi).",
    CondBranches = "CondBranches": "Conditional branches (`br`).",
    UncondBranches = "UncondBranches": "Unconditional jumps (`jmp`).",
    FallThroughs = "FallThroughs": "Blocks without a terminator that fall through to the next block.",
    Returns = "Returns": "`ret` instructions.",
    ReturnsValue = "ReturnsValue": "`ret` instructions that return a value.",
    ReturnsVoid = "ReturnsVoid": "`ret` instructions without a value.",
    ConstZero = "ConstZero": "Integer constants equal to 0.",
    ConstOne = "ConstOne": "Integer constants equal to 1.",
    ConstOtherInt = "ConstOtherInt": "Integer constants other than 0 and 1.",
    Const32Bit = "Const32Bit": "Integer constants that fit in 32 signed bits.",
    Const64Bit = "Const64Bit": "Integer constants that need more than 32 bits.",
    ConstBool = "ConstBool": "Boolean constants.",
    ConstFloat = "ConstFloat": "Float constants (of type float, whatever the literal's form).",
    ConstChar = "ConstChar": "Char constants.",
    BinaryOpsConstArg = "BinaryOpsConstArg": "Two-operand arithmetic, comparison or logic instructions with at least one constant-variable operand.",
    IntArith = "IntArith": "Integer arithmetic: add, sub, mul, div.",
    IntCompare = "IntCompare": "Integer comparisons: eq, lt, gt, le, ge.",
    LogicOps = "LogicOps": "Boolean logic: not, and, or.",
    FloatArith = "FloatArith": "Float arithmetic: fadd, fsub, fmul, fdiv.",
    FloatCompare = "FloatCompare": "Float comparisons: feq, flt, fgt, fle, fge.",
    CharOps = "CharOps": "Char comparisons and conversions: ceq, clt, cgt, cle, cge, char2int, int2char.",
    MemAlloc = "MemAlloc": "`alloc` instructions.",
    MemFree = "MemFree": "`free` instructions.",
    MemLoad = "MemLoad": "`load` instructions.",
    MemStore = "MemStore": "`store` instructions.",
    MemPtrAdd = "MemPtrAdd": "`ptradd` instructions.",
    MemTotal = "MemTotal": "Memory instructions: alloc, free, load, store, ptradd.",
    Calls = "Calls": "`call` instructions.",
    CallsWithResult = "CallsWithResult": "`call` instructions that assign a result.",
    IdCopies = "IdCopies": "`id` copies.",
    Prints = "Prints": "`print` instructions.",
    Nops = "Nops": "`nop` instructions.",
    SsaOps = "SsaOps": "SSA instructions: set, get, undef, phi.",
    PointerDefs = "PointerDefs": "Instructions that define a pointer-typed variable.",
    TotalInsts = "TotalInsts": "Instructions (labels excluded).",
    TotalBlocks = "TotalBlocks": "Basic blocks.",
    TotalFuncs = "TotalFuncs": "Functions.",
    TotalParams = "TotalParams": "Function parameters.",
    TotalVars = "TotalVars": "Distinct variables over all functions (parameters included).",
    MaxBlockInsts = "MaxBlockInsts": "Instructions in the largest block.",
}

/// Reusable buffers, so computing features allocates only when a function
/// is larger than every one seen before.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    shape: BlockShape,
    /// Per block: reached from the entry.
    reached: Vec<bool>,
    stack: Vec<u32>,
    /// Per variable: bit 0 defined by a `const`, bit 1 defined otherwise or a parameter.
    var_defs: Vec<u8>,
}

/// The feature vector, in [`NAMES`] order.
pub fn features(program: &Program) -> [i64; LEN] {
    features_with(program, &mut Scratch::default())
}

/// [`features`] with caller-owned buffers (for repeated observations).
pub fn features_with(program: &Program, scratch: &mut Scratch) -> [i64; LEN] {
    let mut v = [0i64; LEN];
    v[Feature::TotalFuncs as usize] = program.functions.len() as i64;
    for f in &program.functions {
        add_block_shape(f, scratch, &mut v);
        add_instructions(f, scratch, &mut v);
    }
    v
}

/// The features as `(name, value)` pairs, in vector order.
pub fn dict(program: &Program) -> Vec<(&'static str, i64)> {
    NAMES.iter().copied().zip(features(program)).collect()
}

fn bump(v: &mut [i64; LEN], feature: Feature) {
    v[feature as usize] += 1;
}

fn add_block_shape(f: &Function, scratch: &mut Scratch, v: &mut [i64; LEN]) {
    use Feature::*;
    scratch.shape.compute(f);
    let shape = &scratch.shape;
    mark_reached(shape, &mut scratch.reached, &mut scratch.stack);
    v[TotalBlocks as usize] += f.blocks.len() as i64;
    for (b, block) in f.blocks.iter().enumerate() {
        let succs = shape.succs[b].as_slice();
        let (preds, n_succs) = (shape.pred_count[b], succs.len());
        match preds {
            0 => bump(v, BlocksNoPred),
            1 => bump(v, BlocksOnePred),
            2 => bump(v, BlocksTwoPreds),
            _ => bump(v, BlocksManyPreds),
        }
        match n_succs {
            0 => bump(v, BlocksNoSucc),
            1 => bump(v, BlocksOneSucc),
            _ => bump(v, BlocksTwoSuccs),
        }
        match (preds, n_succs) {
            (1, 1) => bump(v, BlocksOnePredOneSucc),
            (1, 2) => bump(v, BlocksOnePredTwoSuccs),
            (2, 1) => bump(v, BlocksTwoPredsOneSucc),
            (2, 2) => bump(v, BlocksTwoPredsTwoSuccs),
            _ => {}
        }
        for &s in succs {
            bump(v, Edges);
            if n_succs > 1 && shape.pred_count[s as usize] > 1 {
                bump(v, CriticalEdges);
            }
            if s as usize <= b {
                bump(v, LayoutBackEdges);
            }
        }
        if !scratch.reached[b] {
            bump(v, UnreachableBlocks);
        }
        let len = block.instrs.len();
        if len == 0 {
            bump(v, EmptyBlocks);
        }
        match len {
            0..=14 => bump(v, BlocksSmall),
            15..=500 => bump(v, BlocksMid),
            _ => bump(v, BlocksLarge),
        }
        let max = &mut v[MaxBlockInsts as usize];
        *max = (*max).max(len as i64);
        if block.instrs.first().is_some_and(|i| i.op == Op::Get) {
            bump(v, BlocksStartingWithGet);
        }
        if block.terminator().is_none() && b + 1 < f.blocks.len() {
            bump(v, FallThroughs);
        }
    }
}

/// Marks the blocks reachable from block 0 (depth-first, iterative).
fn mark_reached(shape: &BlockShape, reached: &mut Vec<bool>, stack: &mut Vec<u32>) {
    reached.clear();
    reached.resize(shape.len(), false);
    stack.clear();
    if shape.is_empty() {
        return;
    }
    reached[0] = true;
    stack.push(0);
    while let Some(b) = stack.pop() {
        for &s in shape.succs[b as usize].as_slice() {
            if !reached[s as usize] {
                reached[s as usize] = true;
                stack.push(s);
            }
        }
    }
}

const DEF_CONST: u8 = 1;
const DEF_OTHER: u8 = 2;

fn add_instructions(f: &Function, scratch: &mut Scratch, v: &mut [i64; LEN]) {
    use Feature::*;
    v[TotalParams as usize] += f.params.len() as i64;
    v[TotalVars as usize] += f.vars.len() as i64;
    let defs = &mut scratch.var_defs;
    defs.clear();
    defs.resize(f.vars.len(), 0);
    let mut mark = |var: usize, how: u8| {
        if let Some(d) = defs.get_mut(var) {
            *d |= how;
        }
    };
    for p in &f.params {
        mark(p.var.index(), DEF_OTHER);
    }
    for instr in f.instrs() {
        if let Some(dest) = instr.dest {
            mark(dest.var.index(), if instr.op == Op::Const { DEF_CONST } else { DEF_OTHER });
        }
        if let Some(shadow) = instr.shadow_target() {
            mark(shadow.index(), DEF_OTHER);
        }
    }
    let is_const_var = |var: usize| defs.get(var) == Some(&DEF_CONST);
    for instr in f.instrs() {
        v[TotalInsts as usize] += 1;
        if instr.dest.is_some_and(|d| d.ty.is_ptr()) {
            bump(v, PointerDefs);
        }
        match instr.op {
            Op::Const => count_constant(instr.value, instr.dest.map(|d| d.ty), v),
            Op::Add | Op::Sub | Op::Mul | Op::Div => bump(v, IntArith),
            Op::Eq | Op::Lt | Op::Gt | Op::Le | Op::Ge => bump(v, IntCompare),
            Op::Not | Op::And | Op::Or => bump(v, LogicOps),
            Op::Fadd | Op::Fsub | Op::Fmul | Op::Fdiv => bump(v, FloatArith),
            Op::Feq | Op::Flt | Op::Fgt | Op::Fle | Op::Fge => bump(v, FloatCompare),
            Op::Ceq | Op::Clt | Op::Cgt | Op::Cle | Op::Cge | Op::Char2Int | Op::Int2Char => bump(v, CharOps),
            Op::Jmp => bump(v, UncondBranches),
            Op::Br => bump(v, CondBranches),
            Op::Ret => {
                bump(v, Returns);
                bump(v, if instr.args.is_empty() { ReturnsVoid } else { ReturnsValue });
            }
            Op::Call => {
                bump(v, Calls);
                if instr.dest.is_some() {
                    bump(v, CallsWithResult);
                }
            }
            Op::Alloc => bump(v, MemAlloc),
            Op::Free => bump(v, MemFree),
            Op::Load => bump(v, MemLoad),
            Op::Store => bump(v, MemStore),
            Op::PtrAdd => bump(v, MemPtrAdd),
            Op::Id => bump(v, IdCopies),
            Op::Print => bump(v, Prints),
            Op::Nop => bump(v, Nops),
            Op::Set | Op::Get | Op::Undef | Op::Phi => bump(v, SsaOps),
        }
        if matches!(instr.op, Op::Alloc | Op::Free | Op::Load | Op::Store | Op::PtrAdd) {
            bump(v, MemTotal);
        }
        if is_binary_value_op(instr.op)
            && instr.args.len() == 2
            && instr.args.iter().any(|a| is_const_var(a.index()))
        {
            bump(v, BinaryOpsConstArg);
        }
    }
}

/// Two-operand arithmetic, comparison and logic opcodes.
fn is_binary_value_op(op: Op) -> bool {
    matches!(
        op,
        Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Eq
            | Op::Lt
            | Op::Gt
            | Op::Le
            | Op::Ge
            | Op::And
            | Op::Or
            | Op::Fadd
            | Op::Fsub
            | Op::Fmul
            | Op::Fdiv
            | Op::Feq
            | Op::Flt
            | Op::Fgt
            | Op::Fle
            | Op::Fge
            | Op::Ceq
            | Op::Clt
            | Op::Cgt
            | Op::Cle
            | Op::Cge
    )
}

fn count_constant(value: Option<Literal>, ty: Option<Type>, v: &mut [i64; LEN]) {
    use Feature::*;
    // `const 0` on a float is an integer literal: the type decides.
    if ty == Some(Type::FLOAT) {
        bump(v, ConstFloat);
        return;
    }
    match value {
        Some(Literal::Int(i)) => {
            bump(
                v,
                match i {
                    0 => ConstZero,
                    1 => ConstOne,
                    _ => ConstOtherInt,
                },
            );
            bump(v, if i32::try_from(i).is_ok() { Const32Bit } else { Const64Bit });
        }
        Some(Literal::Bool(_)) => bump(v, ConstBool),
        Some(Literal::Float(_)) => bump(v, ConstFloat),
        Some(Literal::Char(_)) => bump(v, ConstChar),
        None => {}
    }
}

#[cfg(test)]
mod tests;
