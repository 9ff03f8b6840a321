//! The Bril IR that passes work on.
//!
//! A [`Program`] holds [`Function`]s; a function holds basic [`Block`]s in
//! layout order, each a list of [`Instr`]s. Names are resolved once, when a
//! program is read: operands are [`VarId`]s into the function's variable
//! table, jump targets are [`BlockId`]s, callees are [`FuncId`]s. So a program
//! whose IR exists has no dangling label or callee, and cloning it copies no
//! per-instruction strings (names are shared `Arc<str>`).
//!
//! Invariants kept by the readers and expected from passes:
//! - a terminator (`jmp`, `br`, `ret`) is only ever the last instruction of a block;
//! - a block without a terminator falls through to the next block in layout order;
//! - the first block is the entry; it may be unlabeled, and any other block
//!   may be unlabeled too (code after a terminator, unreachable).

use std::fmt;
use std::sync::Arc;

pub use super::list::List;
pub use super::ops::Op;
pub use super::types::{BaseType, Literal, Type};

/// A shared, immutable name: variables, labels, functions.
pub type Name = Arc<str>;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of the `i`th entry. Tables are far smaller than `u32::MAX`
            /// (readers reject larger ones), so the cast cannot truncate.
            #[inline]
            pub fn new(i: usize) -> Self {
                $name(i as u32)
            }
        }
    };
}

id_type!(
    /// A variable of one function: an index into [`Function::vars`].
    VarId
);
id_type!(
    /// A block of one function: an index into [`Function::blocks`].
    BlockId
);
id_type!(
    /// A function of the program: an index into [`Program::functions`].
    FuncId
);

/// A source position, 1-based; line 0 means "unknown" (built by a pass).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl Pos {
    pub const UNKNOWN: Pos = Pos { line: 0, col: 0 };
    pub fn new(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }
    pub fn is_known(self) -> bool {
        self.line != 0
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// The destination of a value instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dest {
    pub var: VarId,
    pub ty: Type,
}

/// One instruction. The same shape serves every opcode, like Bril JSON:
/// `args` are variables, `labels` are target blocks, `func` a callee,
/// `value` the literal of a `const`.
///
/// For `set x y`, `args[0]` names the shadow variable `x` written and is not a
/// read of the ordinary variable `x`: use [`Instr::uses`] for the reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub op: Op,
    pub dest: Option<Dest>,
    pub args: List<VarId>,
    pub labels: List<BlockId>,
    pub func: Option<FuncId>,
    pub value: Option<Literal>,
    pub pos: Pos,
}

impl Instr {
    /// An instruction with no operands yet.
    pub fn new(op: Op) -> Instr {
        Instr {
            op,
            dest: None,
            args: List::new(),
            labels: List::new(),
            func: None,
            value: None,
            pos: Pos::UNKNOWN,
        }
    }

    /// `dest: ty = const value`.
    pub fn constant(dest: VarId, ty: Type, value: Literal) -> Instr {
        Instr { dest: Some(Dest { var: dest, ty }), value: Some(value), ..Instr::new(Op::Const) }
    }

    /// `dest: ty = op args...`.
    pub fn value(op: Op, dest: VarId, ty: Type, args: &[VarId]) -> Instr {
        Instr { dest: Some(Dest { var: dest, ty }), args: args.into(), ..Instr::new(op) }
    }

    /// `op args...` without a destination (print, store, free, set...).
    pub fn effect(op: Op, args: &[VarId]) -> Instr {
        Instr { args: args.into(), ..Instr::new(op) }
    }

    pub fn jmp(target: BlockId) -> Instr {
        Instr { labels: [target].into(), ..Instr::new(Op::Jmp) }
    }

    pub fn br(cond: VarId, then: BlockId, otherwise: BlockId) -> Instr {
        Instr { args: [cond].into(), labels: [then, otherwise].into(), ..Instr::new(Op::Br) }
    }

    pub fn ret(value: Option<VarId>) -> Instr {
        Instr { args: value.into_iter().collect(), ..Instr::new(Op::Ret) }
    }

    /// `dest = call @func args...` (or a void call when `dest` is `None`).
    pub fn call(func: FuncId, dest: Option<Dest>, args: &[VarId]) -> Instr {
        Instr { dest, func: Some(func), args: args.into(), ..Instr::new(Op::Call) }
    }

    pub fn with_pos(mut self, pos: Pos) -> Instr {
        self.pos = pos;
        self
    }

    /// The variables this instruction reads.
    pub fn uses(&self) -> &[VarId] {
        match self.op {
            Op::Set => self.args.get(1..).unwrap_or(&[]),
            _ => &self.args,
        }
    }

    /// Mutable access to the variables this instruction reads (for renaming).
    pub fn uses_mut(&mut self) -> &mut [VarId] {
        match self.op {
            Op::Set => self.args.get_mut(1..).unwrap_or(&mut []),
            _ => &mut self.args,
        }
    }

    /// The variable this instruction writes, if any.
    pub fn def(&self) -> Option<VarId> {
        self.dest.map(|d| d.var)
    }

    /// The shadow variable a `set` writes.
    pub fn shadow_target(&self) -> Option<VarId> {
        (self.op == Op::Set).then(|| self.args.first().copied()).flatten()
    }

    pub fn is_terminator(&self) -> bool {
        self.op.is_terminator()
    }
}

/// A basic block: an optional label and its instructions.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub label: Option<Name>,
    pub label_pos: Pos,
    pub instrs: Vec<Instr>,
}

impl Block {
    pub fn new(label: Option<Name>) -> Block {
        Block { label, label_pos: Pos::UNKNOWN, instrs: Vec::new() }
    }

    /// The terminator ending this block, if it has one.
    pub fn terminator(&self) -> Option<&Instr> {
        self.instrs.last().filter(|i| i.is_terminator())
    }
}

/// A function parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub var: VarId,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Name,
    pub params: Vec<Param>,
    /// The return type; `None` for a void function.
    pub ret: Option<Type>,
    /// Blocks in layout order; `blocks[0]` is the entry.
    pub blocks: Vec<Block>,
    /// Variable names, indexed by [`VarId`]. Names are unique in a function.
    pub vars: Vec<Name>,
    pub pos: Pos,
}

impl Function {
    pub fn new(name: &str) -> Function {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret: None,
            blocks: Vec::new(),
            vars: Vec::new(),
            pos: Pos::UNKNOWN,
        }
    }

    pub fn var_name(&self, var: VarId) -> &str {
        self.vars.get(var.index()).map_or("?", |n| n)
    }

    /// The variable named `name` (a linear scan: for tools and tests; passes
    /// make new names with [`crate::bril::names::FreshNames`]).
    pub fn var_named(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|n| &**n == name).map(VarId::new)
    }

    /// The variable named `name`, added to the table when it is new.
    pub fn var(&mut self, name: &str) -> VarId {
        match self.var_named(name) {
            Some(v) => v,
            None => {
                self.vars.push(name.into());
                VarId::new(self.vars.len() - 1)
            }
        }
    }

    /// The block labeled `label` (a linear scan: for tools and tests).
    pub fn block_labeled(&self, label: &str) -> Option<BlockId> {
        self.blocks.iter().position(|b| b.label.as_deref() == Some(label)).map(BlockId::new)
    }

    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }

    pub fn block_mut(&mut self, id: BlockId) -> &mut Block {
        &mut self.blocks[id.index()]
    }

    pub fn block_ids(&self) -> impl DoubleEndedIterator<Item = BlockId> + ExactSizeIterator {
        (0..self.blocks.len()).map(BlockId::new)
    }

    /// Where control may go after `block`: its jump targets, nothing after a
    /// `ret`, or the next block when it falls through.
    pub fn successors(&self, block: BlockId) -> List<BlockId> {
        match self.block(block).terminator() {
            Some(t) if t.op == Op::Ret => List::new(),
            Some(t) => t.labels.clone(),
            None if block.index() + 1 < self.blocks.len() => [BlockId::new(block.index() + 1)].into(),
            None => List::new(),
        }
    }

    /// The predecessors of every block, indexed by block (each listed once).
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for b in self.block_ids() {
            for &s in self.successors(b).iter() {
                let list: &mut Vec<BlockId> = &mut preds[s.index()];
                if !list.contains(&b) {
                    list.push(b);
                }
            }
        }
        preds
    }

    /// Every instruction, in layout order.
    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.blocks.iter().flat_map(|b| b.instrs.iter())
    }

    pub fn instrs_mut(&mut self) -> impl Iterator<Item = &mut Instr> {
        self.blocks.iter_mut().flat_map(|b| b.instrs.iter_mut())
    }

    pub fn instr_count(&self) -> usize {
        self.blocks.iter().map(|b| b.instrs.len()).sum()
    }

    /// Drops the variables no parameter and no instruction names, keeping
    /// the others in order. Passes that rename leave the old names behind:
    /// without this the table, and every pass's work over it, would grow
    /// with each renaming pass applied. True if any went.
    pub fn drop_unused_vars(&mut self) -> bool {
        let mut used = vec![false; self.vars.len()];
        let named = self.instrs().flat_map(|i| i.args.iter().copied().chain(i.def()));
        for v in self.params.iter().map(|p| p.var).chain(named) {
            if let Some(u) = used.get_mut(v.index()) {
                *u = true;
            }
        }
        if used.iter().all(|&u| u) {
            return false;
        }
        let mut renumbered = vec![VarId(u32::MAX); self.vars.len()];
        let mut kept = Vec::with_capacity(self.vars.len());
        for (v, name) in std::mem::take(&mut self.vars).into_iter().enumerate() {
            if used[v] {
                renumbered[v] = VarId::new(kept.len());
                kept.push(name);
            }
        }
        self.vars = kept;
        let new = |v: VarId| renumbered.get(v.index()).copied().unwrap_or(v);
        for p in &mut self.params {
            p.var = new(p.var);
        }
        for i in self.instrs_mut() {
            i.args.iter_mut().for_each(|a| *a = new(*a));
            if let Some(d) = i.dest.as_mut() {
                d.var = new(d.var);
            }
        }
        true
    }
}

/// A program: its functions, each shared by the copies of the program, so
/// that copying a program (every new state of an environment starts as a
/// copy) copies no code, and a pass that changes one function copies that
/// one ([`Program::function_mut`], [`Arc::make_mut`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub functions: Vec<Arc<Function>>,
    /// Arguments for `@main` from a `# ARGS:` comment, when the text had one.
    pub args: Option<Vec<String>>,
}

impl Program {
    pub fn function_named(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| &*f.name == name).map(FuncId::new)
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// Function `id` to write to: copied first if another copy of the
    /// program shares it.
    pub fn function_mut(&mut self, id: FuncId) -> &mut Function {
        Arc::make_mut(&mut self.functions[id.index()])
    }

    /// Every function to write to, each copied first if shared.
    pub fn functions_mut(&mut self) -> impl Iterator<Item = &mut Function> {
        self.functions.iter_mut().map(Arc::make_mut)
    }

    pub fn main(&self) -> Option<FuncId> {
        self.function_named("main")
    }

    /// Static instruction count (labels excluded).
    pub fn instr_count(&self) -> usize {
        self.functions.iter().map(|f| f.instr_count()).sum()
    }

    /// Forgets every source position: two programs read from different
    /// sources compare equal afterwards exactly when their structure does.
    pub fn clear_positions(&mut self) {
        for f in self.functions_mut() {
            f.pos = Pos::UNKNOWN;
            for b in &mut f.blocks {
                b.label_pos = Pos::UNKNOWN;
                for i in &mut b.instrs {
                    i.pos = Pos::UNKNOWN;
                }
            }
        }
    }

    /// The `# ARGS:` arguments, or none.
    pub fn main_args(&self) -> Vec<String> {
        self.args.clone().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diamond() -> Function {
        let mut f = Function::new("f");
        let c = f.var("c");
        let x = f.var("x");
        let mut entry = Block::new(None);
        entry.instrs.push(Instr::constant(c, Type::BOOL, Literal::Bool(true)));
        entry.instrs.push(Instr::br(c, BlockId(1), BlockId(2)));
        let mut left = Block::new(Some("left".into()));
        left.instrs.push(Instr::constant(x, Type::INT, Literal::Int(1)));
        left.instrs.push(Instr::jmp(BlockId(3)));
        let mut right = Block::new(Some("right".into()));
        right.instrs.push(Instr::constant(x, Type::INT, Literal::Int(2)));
        let mut exit = Block::new(Some("exit".into()));
        exit.instrs.push(Instr::effect(Op::Print, &[x]));
        exit.instrs.push(Instr::ret(None));
        f.blocks = vec![entry, left, right, exit];
        f
    }

    #[test]
    fn successors_and_predecessors() {
        let f = diamond();
        assert_eq!(&*f.successors(BlockId(0)), &[BlockId(1), BlockId(2)]);
        assert_eq!(&*f.successors(BlockId(2)), &[BlockId(3)], "falls through");
        assert!(f.successors(BlockId(3)).is_empty());
        let preds = f.predecessors();
        assert_eq!(preds[3], vec![BlockId(1), BlockId(2)]);
        assert!(preds[0].is_empty());
    }

    #[test]
    fn unused_variables_go_and_the_rest_keep_their_names() {
        let mut f = diamond();
        let dead = f.var("dead");
        let y = f.var("y");
        f.blocks[3].instrs.insert(0, Instr::constant(y, Type::INT, Literal::Int(3)));
        let _ = dead;
        assert!(f.drop_unused_vars());
        assert_eq!(f.vars, ["c", "x", "y"].map(Name::from));
        assert_eq!(f.blocks[3].instrs[0].def(), Some(VarId(2)));
        assert_eq!(f.blocks[3].instrs[1].args[0], VarId(1));
        assert!(!f.drop_unused_vars());
    }

    #[test]
    fn set_reads_only_its_value() {
        let set = Instr::effect(Op::Set, &[VarId(4), VarId(7)]);
        assert_eq!(set.uses(), &[VarId(7)]);
        assert_eq!(set.shadow_target(), Some(VarId(4)));
        assert_eq!(Instr::effect(Op::Print, &[VarId(1)]).uses(), &[VarId(1)]);
    }
}
