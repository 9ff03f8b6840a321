//! Lowering for programs that were not verified, run as `brili` runs them.
//!
//! `brili` checks nothing before running: a value carries its type, and an
//! instruction checks its operands when it executes (`add argument 0 must be
//! a int`), so a bad instruction on a path never taken is harmless. Here every
//! variable (and every `set` shadow) gets a tag slot beside its register: 0
//! while unassigned, [`UNDEF`] after `undef`, otherwise the type of the value
//! it holds ([`tag_of`]). Bookkeeping codes, not counted, write tags after
//! each instruction and check them before it, in `brili`'s order and with its
//! words; an instruction `brili` would reject when it runs (a wrong operand
//! count, a call with the wrong arity) becomes a check that always fails.
//!
//! One simplification: a pointer loaded from memory is tagged with the
//! pointer's own pointee type. `brili` keeps the type the stored pointer had,
//! which differs only when a `ptr<float>` was stored through a
//! `ptr<ptr<int>>` (its `store` checks only that a pointer is stored).

use super::code::{tag_of, Code, Lowered, ReturnCheck, Slot, TagCheck, Want, UNASSIGNED, UNDEF};
use crate::bril::ir::*;
use crate::error::{Error, ErrorKind, Result};

/// The operand counts `brili` checks first (`None`: any number).
fn arg_count(op: Op) -> Option<usize> {
    use Op::*;
    Some(match op {
        Jmp | Nop | Get | Undef => 0,
        Id | Not | Br | Alloc | Free | Load | Char2Int | Int2Char => 1,
        Print | Ret | Call | Const | Phi => return None,
        _ => 2,
    })
}

/// The type an arithmetic, logic or comparison opcode wants of its operands.
fn operand_type(op: Op) -> Option<Type> {
    use Op::*;
    Some(match op {
        Add | Sub | Mul | Div | Eq | Lt | Gt | Le | Ge | Int2Char => Type::INT,
        Not | And | Or => Type::BOOL,
        Fadd | Fsub | Fmul | Fdiv | Feq | Flt | Fgt | Fle | Fge => Type::FLOAT,
        Ceq | Clt | Cgt | Cle | Cge | Char2Int => Type::CHAR,
        _ => return None,
    })
}

/// The type of what an opcode computes, when it does not depend on operands.
fn result_type(op: Op) -> Option<Type> {
    use Op::*;
    Some(match op {
        Add | Sub | Mul | Div | Char2Int => Type::INT,
        Eq | Lt | Gt | Le | Ge | Not | And | Or | Feq | Flt | Fgt | Fle | Fge | Ceq | Clt | Cgt | Cle
        | Cge => Type::BOOL,
        Fadd | Fsub | Fmul | Fdiv => Type::FLOAT,
        Int2Char => Type::CHAR,
        _ => return None,
    })
}

/// The tag of a `const`'s value: `brili` reads a JSON number as a float
/// only for a `float` destination, and keeps booleans and chars as written.
fn literal_tag(value: Literal, ty: Type) -> u64 {
    let float = ty == Type::FLOAT;
    tag_of(match value {
        Literal::Int(_) | Literal::Float(_) if float => Type::FLOAT,
        Literal::Int(_) | Literal::Float(_) => Type::INT,
        Literal::Bool(_) => Type::BOOL,
        Literal::Char(_) => Type::CHAR,
    })
}

/// Whether an instruction is lowered as usual after its checks, or was
/// replaced by what `brili` does instead (fail, or store nothing).
pub(crate) enum Lowering {
    Usual,
    Replaced,
}

/// Where checks go while a function is lowered: its code, and the tables.
struct Emit<'a> {
    code: &'a mut Vec<Code>,
    lowered: &'a mut Lowered,
}

/// The tag slots of one function.
pub(crate) struct Tags {
    var_tag: Vec<Slot>,
    shadow_tag: Vec<Option<Slot>>,
    /// Where a value instruction without a destination writes (brili keeps
    /// it under the name `undefined`, which no Bril variable can read).
    pub scratch: Slot,
    scratch_tag: Slot,
}

impl Tags {
    /// Takes tag slots after `slots` (the registers and shadows).
    pub(crate) fn new(f: &Function, shadow: &[Option<Slot>], slots: &mut u32) -> Result<Tags> {
        let mut next = || -> Result<Slot> {
            let s = *slots;
            *slots =
                slots.checked_add(1).ok_or_else(|| Error::new(ErrorKind::Limit, "too many variables"))?;
            Ok(s)
        };
        let var_tag = (0..f.vars.len()).map(|_| next()).collect::<Result<Vec<_>>>()?;
        let shadow_tag = shadow.iter().map(|s| s.map(|_| next()).transpose()).collect::<Result<Vec<_>>>()?;
        let scratch = next()?;
        let scratch_tag = next()?;
        Ok(Tags { var_tag, shadow_tag, scratch, scratch_tag })
    }

    /// The tag slots of the parameters, in order.
    pub(crate) fn params(&self, f: &Function) -> Vec<Slot> {
        f.params.iter().map(|p| self.var_tag[p.var.index()]).collect()
    }

    pub(crate) fn tag(&self, v: VarId) -> Slot {
        self.var_tag[v.index()]
    }

    fn dest_tag(&self, instr: &Instr) -> Slot {
        instr.def().map_or(self.scratch_tag, |d| self.tag(d))
    }

    /// Appends a check of tag slot `f`.
    fn push(emit: &mut Emit<'_>, f: Slot, check: TagCheck) {
        let at = emit.lowered.checks.len() as u32;
        emit.lowered.checks.push(check);
        emit.code.push(Code::Check { f, at });
    }

    /// Checks operand `i` of `instr`.
    fn operand(
        &self,
        f: &Function,
        instr: &Instr,
        i: usize,
        want: Want,
        message: String,
        emit: &mut Emit<'_>,
    ) {
        let v = instr.args[i];
        let unassigned = format!("undefined variable {}", f.var_name(v));
        Tags::push(emit, self.tag(v), TagCheck { unassigned, want, message });
    }

    /// An instruction that fails when it runs.
    fn fail(&self, message: String, emit: &mut Emit<'_>) -> Lowering {
        let check = TagCheck { unassigned: message.clone(), want: Want::Never, message };
        Tags::push(emit, self.scratch_tag, check);
        Lowering::Replaced
    }

    /// The checks before `instr`, in `brili`'s order.
    pub(crate) fn before(
        &self,
        program: &Program,
        f: &Function,
        instr: &Instr,
        code: &mut Vec<Code>,
        out: &mut Lowered,
    ) -> Lowering {
        let emit = &mut Emit { code, lowered: out };
        let (op, found) = (instr.op, instr.args.len());
        if op == Op::Phi {
            return self.fail("unknown opcode phi".into(), emit);
        }
        if let Some(n) = arg_count(op) {
            if found != n {
                return self.fail(format!("{op} takes {n} argument(s); got {found}"), emit);
            }
        }
        let pointer = |i: usize| (Want::Pointer, format!("{op} argument {i} must be a Pointer"));
        if let Some(ty) = operand_type(op) {
            for i in 0..found {
                self.operand(f, instr, i, Want::Type(ty), format!("{op} argument {i} must be a {ty}"), emit);
            }
            return Lowering::Usual;
        }
        match op {
            Op::Const if instr.value.is_none() => {
                // brili stores JavaScript's `undefined`, which reads as unassigned.
                emit.code.push(Code::Nop);
                emit.code.push(Code::Flag { f: self.dest_tag(instr), state: UNASSIGNED });
                return Lowering::Replaced;
            }
            Op::Id => self.operand(f, instr, 0, Want::Any, String::new(), emit),
            Op::Set => self.operand(f, instr, 1, Want::Any, String::new(), emit),
            Op::Print => {
                for i in 0..found {
                    self.operand(f, instr, i, Want::Defined, "print of undefined value".into(), emit);
                }
            }
            Op::Jmp if instr.labels.is_empty() => {
                return self.fail("missing labels; expected at least 1".into(), emit)
            }
            Op::Br => {
                self.operand(
                    f,
                    instr,
                    0,
                    Want::Type(Type::BOOL),
                    "br argument 0 must be a bool".into(),
                    emit,
                );
                match instr.labels.len() {
                    0 => return self.fail("missing labels; expected at least 1".into(), emit),
                    1 => return self.fail("expecting 2 labels; found 1".into(), emit),
                    _ => {}
                }
            }
            Op::Ret if found > 1 => {
                return self.fail(format!("ret takes 0 or 1 argument(s); got {found}"), emit)
            }
            Op::Ret if found == 1 => {
                self.operand(f, instr, 0, Want::Any, String::new(), emit);
                emit.code.push(Code::Returning { f: self.tag(instr.args[0]) });
            }
            Op::Call => {
                let Some(callee) = instr.func.and_then(|c| program.functions.get(c.index())) else {
                    return self.fail("missing functions; expected at least 1".into(), emit);
                };
                if callee.params.len() != found {
                    let message = format!("function expected {} arguments, got {found}", callee.params.len());
                    return self.fail(message, emit);
                }
                for (i, p) in callee.params.iter().enumerate() {
                    let message = "function argument type mismatch".to_string();
                    self.operand(f, instr, i, Want::Type(p.ty), message, emit);
                }
            }
            Op::Alloc => {
                self.operand(
                    f,
                    instr,
                    0,
                    Want::Type(Type::INT),
                    "alloc argument 0 must be a int".into(),
                    emit,
                );
                let ty = instr.dest.map(|d| d.ty);
                if !ty.is_some_and(Type::is_ptr) {
                    let name = ty.map_or("undefined".to_string(), |t| t.to_string());
                    return self.fail(format!("cannot allocate non-pointer type {name}"), emit);
                }
            }
            Op::Free | Op::Load => {
                let (want, message) = pointer(0);
                self.operand(f, instr, 0, want, message, emit);
            }
            Op::PtrAdd => {
                let (want, message) = pointer(0);
                self.operand(f, instr, 0, want, message, emit);
                self.operand(
                    f,
                    instr,
                    1,
                    Want::Type(Type::INT),
                    "ptradd argument 1 must be a int".into(),
                    emit,
                );
            }
            Op::Store => {
                let (want, message) = pointer(0);
                self.operand(f, instr, 0, want, message, emit);
                let target = self.tag(instr.args[0]);
                self.operand(f, instr, 1, Want::Pointee(target), "store argument 1 must be a ".into(), emit);
            }
            Op::Get => {
                let dest = instr.def().map_or("undefined".into(), |d| f.var_name(d).to_string());
                let shadow = instr.def().and_then(|d| self.shadow_tag[d.index()]);
                let message = format!("get without corresponding set for {dest}");
                let Some(s) = shadow else { return self.fail(message, emit) };
                Tags::push(emit, s, TagCheck { unassigned: message.clone(), want: Want::Any, message });
            }
            _ => {}
        }
        Lowering::Usual
    }

    /// The tag updates after `instr`.
    pub(crate) fn after(&self, program: &Program, instr: &Instr, code: &mut Vec<Code>, out: &mut Lowered) {
        let d = self.dest_tag(instr);
        let op = instr.op;
        if let Some(ty) = result_type(op) {
            code.push(Code::Flag { f: d, state: tag_of(ty) });
            return;
        }
        let copy = |from: Option<Slot>| match from {
            Some(from) => Code::CopyFlag { f: d, from },
            None => Code::Flag { f: d, state: UNASSIGNED },
        };
        let arg = |i: usize| instr.args.get(i).map(|&a| self.tag(a));
        code.push(match op {
            Op::Const => match (instr.value, instr.dest) {
                (Some(value), Some(dest)) => Code::Flag { f: d, state: literal_tag(value, dest.ty) },
                _ => return,
            },
            Op::Id | Op::PtrAdd => copy(arg(0)),
            Op::Alloc => Code::Flag { f: d, state: instr.dest.map_or(UNASSIGNED, |t| tag_of(t.ty)) },
            Op::Load => match arg(0) {
                Some(from) => Code::LoadTag { f: d, from },
                None => return,
            },
            Op::Set => match (instr.shadow_target().and_then(|t| self.shadow_tag[t.index()]), arg(1)) {
                (Some(f), Some(from)) => Code::CopyFlag { f, from },
                _ => return,
            },
            Op::Get => copy(instr.def().and_then(|v| self.shadow_tag[v.index()])),
            Op::Undef => Code::Flag { f: d, state: UNDEF },
            Op::Call => {
                let callee_ret =
                    instr.func.and_then(|c| program.functions.get(c.index())).and_then(|c| c.ret);
                let dest = instr.dest.map(|t| (t.var.0, self.tag(t.var), t.ty));
                let at = out.returns.len() as u32;
                out.returns.push(ReturnCheck { dest, callee_ret });
                Code::AfterCall { at }
            }
            _ => return,
        });
    }

    /// The tag slots of a call's arguments, after their registers.
    pub(crate) fn call_args<'a>(&'a self, instr: &'a Instr) -> impl Iterator<Item = Slot> + 'a {
        instr.args.iter().map(|&a| self.tag(a))
    }
}
