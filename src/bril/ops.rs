//! Bril opcodes: their names and the facts passes ask about them.

/// Every opcode of core Bril and the mem, float, char and SSA extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    // core
    Const,
    Add,
    Mul,
    Sub,
    Div,
    Eq,
    Lt,
    Gt,
    Le,
    Ge,
    Not,
    And,
    Or,
    Jmp,
    Br,
    Call,
    Ret,
    Id,
    Print,
    Nop,
    // memory
    Alloc,
    Free,
    Store,
    Load,
    PtrAdd,
    // float
    Fadd,
    Fmul,
    Fsub,
    Fdiv,
    Feq,
    Flt,
    Fle,
    Fgt,
    Fge,
    // char
    Ceq,
    Clt,
    Cle,
    Cgt,
    Cge,
    Char2Int,
    Int2Char,
    // SSA (set/get form) and the legacy phi
    Set,
    Get,
    Undef,
    Phi,
}

impl Op {
    pub const ALL: [Op; 45] = [
        Op::Const,
        Op::Add,
        Op::Mul,
        Op::Sub,
        Op::Div,
        Op::Eq,
        Op::Lt,
        Op::Gt,
        Op::Le,
        Op::Ge,
        Op::Not,
        Op::And,
        Op::Or,
        Op::Jmp,
        Op::Br,
        Op::Call,
        Op::Ret,
        Op::Id,
        Op::Print,
        Op::Nop,
        Op::Alloc,
        Op::Free,
        Op::Store,
        Op::Load,
        Op::PtrAdd,
        Op::Fadd,
        Op::Fmul,
        Op::Fsub,
        Op::Fdiv,
        Op::Feq,
        Op::Flt,
        Op::Fle,
        Op::Fgt,
        Op::Fge,
        Op::Ceq,
        Op::Clt,
        Op::Cle,
        Op::Cgt,
        Op::Cge,
        Op::Char2Int,
        Op::Int2Char,
        Op::Set,
        Op::Get,
        Op::Undef,
        Op::Phi,
    ];

    /// The opcode as written in Bril text and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Const => "const",
            Op::Add => "add",
            Op::Mul => "mul",
            Op::Sub => "sub",
            Op::Div => "div",
            Op::Eq => "eq",
            Op::Lt => "lt",
            Op::Gt => "gt",
            Op::Le => "le",
            Op::Ge => "ge",
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
            Op::Jmp => "jmp",
            Op::Br => "br",
            Op::Call => "call",
            Op::Ret => "ret",
            Op::Id => "id",
            Op::Print => "print",
            Op::Nop => "nop",
            Op::Alloc => "alloc",
            Op::Free => "free",
            Op::Store => "store",
            Op::Load => "load",
            Op::PtrAdd => "ptradd",
            Op::Fadd => "fadd",
            Op::Fmul => "fmul",
            Op::Fsub => "fsub",
            Op::Fdiv => "fdiv",
            Op::Feq => "feq",
            Op::Flt => "flt",
            Op::Fle => "fle",
            Op::Fgt => "fgt",
            Op::Fge => "fge",
            Op::Ceq => "ceq",
            Op::Clt => "clt",
            Op::Cle => "cle",
            Op::Cgt => "cgt",
            Op::Cge => "cge",
            Op::Char2Int => "char2int",
            Op::Int2Char => "int2char",
            Op::Set => "set",
            Op::Get => "get",
            Op::Undef => "undef",
            Op::Phi => "phi",
        }
    }

    pub fn from_name(name: &str) -> Option<Op> {
        Some(match name {
            "const" => Op::Const,
            "add" => Op::Add,
            "mul" => Op::Mul,
            "sub" => Op::Sub,
            "div" => Op::Div,
            "eq" => Op::Eq,
            "lt" => Op::Lt,
            "gt" => Op::Gt,
            "le" => Op::Le,
            "ge" => Op::Ge,
            "not" => Op::Not,
            "and" => Op::And,
            "or" => Op::Or,
            "jmp" => Op::Jmp,
            "br" => Op::Br,
            "call" => Op::Call,
            "ret" => Op::Ret,
            "id" => Op::Id,
            "print" => Op::Print,
            "nop" => Op::Nop,
            "alloc" => Op::Alloc,
            "free" => Op::Free,
            "store" => Op::Store,
            "load" => Op::Load,
            "ptradd" => Op::PtrAdd,
            "fadd" => Op::Fadd,
            "fmul" => Op::Fmul,
            "fsub" => Op::Fsub,
            "fdiv" => Op::Fdiv,
            "feq" => Op::Feq,
            "flt" => Op::Flt,
            "fle" => Op::Fle,
            "fgt" => Op::Fgt,
            "fge" => Op::Fge,
            "ceq" => Op::Ceq,
            "clt" => Op::Clt,
            "cle" => Op::Cle,
            "cgt" => Op::Cgt,
            "cge" => Op::Cge,
            "char2int" => Op::Char2Int,
            "int2char" => Op::Int2Char,
            "set" => Op::Set,
            "get" => Op::Get,
            "undef" => Op::Undef,
            "phi" => Op::Phi,
            _ => return None,
        })
    }

    /// Ends a basic block: control never falls through it.
    pub const fn is_terminator(self) -> bool {
        matches!(self, Op::Jmp | Op::Br | Op::Ret)
    }

    /// Has an effect beyond writing its destination: cannot be deleted
    /// just because its result is unused.
    pub const fn has_side_effects(self) -> bool {
        matches!(
            self,
            Op::Jmp
                | Op::Br
                | Op::Call
                | Op::Ret
                | Op::Print
                | Op::Alloc
                | Op::Free
                | Op::Store
                | Op::Set
                // `div` may fail (division by zero) and `load`/`int2char` may
                // fail too: removing them could make a failing program succeed.
                | Op::Div
                | Op::Load
                | Op::Int2Char
        )
    }

    /// A pure function of its arguments: same inputs, same result, no effect
    /// and no failure (candidates for value numbering and folding).
    pub const fn is_pure(self) -> bool {
        !self.has_side_effects() && !matches!(self, Op::Get | Op::Undef | Op::Phi | Op::Nop)
    }

    /// Whether the operands may be swapped without changing the result.
    pub const fn is_commutative(self) -> bool {
        matches!(
            self,
            Op::Add | Op::Mul | Op::Eq | Op::And | Op::Or | Op::Fadd | Op::Fmul | Op::Feq | Op::Ceq
        )
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names = std::collections::HashSet::new();
        for op in Op::ALL {
            assert_eq!(Op::from_name(op.name()), Some(op));
            assert!(names.insert(op.name()));
        }
        assert_eq!(Op::from_name("upsilon"), None);
    }

    #[test]
    fn classification() {
        assert!(Op::Br.is_terminator() && !Op::Call.is_terminator());
        assert!(Op::Add.is_pure() && !Op::Div.is_pure() && !Op::Get.is_pure());
        assert!(Op::Fmul.is_commutative() && !Op::Sub.is_commutative());
    }
}
