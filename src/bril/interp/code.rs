//! The lowered form the machine runs: code words, register slots, the
//! tables beside the code, and the type tags of dynamic typing with the
//! checks made on them (`brili`'s `typeCheck` and its words).

use crate::bril::ir::*;
use crate::error::{Error, ErrorKind, Result};

/// A register slot in the current frame.
pub(crate) type Slot = u32;

/// "No destination" for calls whose result is dropped.
pub(crate) const NO_DEST: Slot = u32::MAX;

#[derive(Clone, Copy, Debug)]
pub(crate) enum Code {
    Const {
        d: Slot,
        bits: u64,
    },
    Copy {
        d: Slot,
        a: Slot,
    },
    Add {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Sub {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Mul {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Div {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Eq {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Lt {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Gt {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Le {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Ge {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Not {
        d: Slot,
        a: Slot,
    },
    And {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Or {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fadd {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fsub {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fmul {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fdiv {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Feq {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Flt {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fgt {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fle {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fge {
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Int2Char {
        d: Slot,
        a: Slot,
    },
    Jmp {
        to: u32,
    },
    Br {
        c: Slot,
        then: u32,
        otherwise: u32,
    },
    /// A call: the callee and arguments are in [`Lowered::calls`].
    Call {
        d: Slot,
        site: u32,
    },
    Ret {
        a: Slot,
    },
    RetVoid,
    /// Falling off the end of a function: returns without counting.
    End,
    /// Prints the values listed in [`Lowered::prints`].
    Print {
        at: u32,
        n: u32,
    },
    Nop,
    Alloc {
        d: Slot,
        a: Slot,
    },
    Free {
        a: Slot,
    },
    Store {
        p: Slot,
        v: Slot,
    },
    Load {
        d: Slot,
        p: Slot,
    },
    PtrAdd {
        d: Slot,
        p: Slot,
        k: Slot,
    },
    // The codes below keep track of variables that may be read unassigned
    // or while holding `undef`; they are bookkeeping, not Bril instructions,
    // and are not counted. Flag slot `f` holds [`UNASSIGNED`], [`ASSIGNED`]
    // or [`UNDEF`]; `var` indexes [`LoweredFunction::names`].
    /// Fails unless the variable has been assigned (`undef` counts).
    Assigned {
        f: Slot,
        var: u32,
    },
    /// Fails unless the variable holds a defined value.
    Defined {
        f: Slot,
        var: u32,
    },
    /// Sets a flag.
    Flag {
        f: Slot,
        state: u64,
    },
    /// Copies a flag (a copy of an `undef` value is `undef`).
    CopyFlag {
        f: Slot,
        from: Slot,
    },
    // The codes below keep and check the tags of [`Typing::Dynamic`]
    // (`Flag` and `CopyFlag` write them too); they are not counted either.
    /// Checks tag slot `f` with [`Lowered::checks`]`[at]`.
    Check {
        f: Slot,
        at: u32,
    },
    /// `ret` is about to return the value tagged in slot `f`.
    Returning {
        f: Slot,
    },
    /// After a call returns: [`Lowered::returns`]`[at]` checks and stores the result.
    AfterCall {
        at: u32,
    },
    /// Tags a loaded value: the pointee of the pointer tagged in `from`.
    LoadTag {
        f: Slot,
        from: Slot,
    },
}

/// Flag states: never written, written with a value, written by `undef`.
pub(crate) const UNASSIGNED: u64 = 0;
pub(crate) const ASSIGNED: u64 = 1;
pub(crate) const UNDEF: u64 = 2;

/// How to print a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    Bool,
    Float,
    Char,
    Ptr,
    /// Whatever the tag in this slot says (dynamic typing).
    Tagged(Slot),
}

impl Kind {
    pub(crate) fn of(ty: Type) -> Kind {
        if ty.is_ptr() {
            return Kind::Ptr;
        }
        match ty.base {
            BaseType::Int => Kind::Int,
            BaseType::Bool => Kind::Bool,
            BaseType::Float => Kind::Float,
            BaseType::Char => Kind::Char,
        }
    }
}

/// A call: the callee, and its `n` argument slots at `at` in
/// [`Lowered::call_args`] (followed, with dynamic typing, by their tag slots).
pub(crate) struct CallSite {
    pub func: u32,
    pub at: u32,
    pub n: u32,
}

pub(crate) struct LoweredFunction {
    pub code: Vec<Code>,
    pub slots: u32,
    pub params: Vec<(Slot, Type)>,
    /// The parameters' tag slots (dynamic typing only).
    pub param_tags: Vec<Slot>,
    /// The declared return type, for `brili`'s message when there is none.
    pub ret: Option<Type>,
    /// Names of the variables (and shadows) the checks above name.
    pub names: Vec<Name>,
    /// Where the shadows start in `names`.
    pub first_shadow: u32,
}

pub(crate) struct Lowered {
    pub functions: Vec<LoweredFunction>,
    pub calls: Vec<CallSite>,
    /// Argument slots of every call site.
    pub call_args: Vec<Slot>,
    pub prints: Vec<(Slot, Kind)>,
    /// The tag checks of [`Code::Check`].
    pub checks: Vec<TagCheck>,
    /// The result checks of [`Code::AfterCall`].
    pub returns: Vec<ReturnCheck>,
}

/// The first tag of a typed value; tags below are unassigned, assigned (the
/// fast path's flag, never used here) and undef.
const TYPED: u64 = 4;

/// The tag of a value of type `ty`.
pub(crate) fn tag_of(ty: Type) -> u64 {
    let base = match ty.base {
        BaseType::Int => 0,
        BaseType::Bool => 1,
        BaseType::Float => 2,
        BaseType::Char => 3,
    };
    TYPED + (u64::from(ty.ptr_depth) << 2 | base)
}

/// The type a tag stands for, if it is a value's.
pub(crate) fn type_of(tag: u64) -> Option<Type> {
    let t = tag.checked_sub(TYPED)?;
    let base = [BaseType::Int, BaseType::Bool, BaseType::Float, BaseType::Char][(t & 3) as usize];
    Some(Type { base, ptr_depth: u8::try_from(t >> 2).ok()? })
}

fn is_pointer(tag: u64) -> bool {
    type_of(tag).is_some_and(Type::is_ptr)
}

/// The tag of what a pointer tagged `tag` points to.
pub(crate) fn pointee(tag: u64) -> u64 {
    if is_pointer(tag) {
        tag - 4
    } else {
        tag
    }
}

/// `brili`'s `typeCheck`: pointer types only ask for some pointer.
fn type_check(tag: u64, ty: Type) -> bool {
    if ty.is_ptr() {
        is_pointer(tag)
    } else {
        tag == tag_of(ty)
    }
}

/// A type as JavaScript's `${type}` writes brili's: pointer types are objects.
fn js_type(ty: Option<Type>) -> String {
    match ty {
        None => "undefined".into(),
        Some(t) if t.is_ptr() => "[object Object]".into(),
        Some(t) => t.to_string(),
    }
}

/// What a checked operand must hold, beyond being assigned.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Want {
    /// Anything, `undef` included (`id`, `set`, `ret`).
    Any,
    /// Anything but `undef` (`print`).
    Defined,
    /// A value `brili`'s `typeCheck` accepts for the type.
    Type(Type),
    /// Some pointer (`brili`'s `getPtr`).
    Pointer,
    /// A value of the pointee type of the pointer whose tag is in the slot.
    Pointee(Slot),
    /// Nothing: the instruction fails as soon as it runs.
    Never,
}

/// One run-time check of an operand's tag.
pub(crate) struct TagCheck {
    /// The message when the operand is unassigned.
    pub unassigned: String,
    pub want: Want,
    /// The message when it holds the wrong thing (for `Pointee`, the start
    /// of it: the pointee's type is added).
    pub message: String,
}

fn runtime(message: String) -> Error {
    Error::new(ErrorKind::Runtime, message)
}

impl TagCheck {
    /// Checks tag slot `f` of the frame `r`.
    pub(crate) fn check(&self, r: &[u64], f: Slot) -> Result<()> {
        let tag = r[f as usize];
        if let Want::Never = self.want {
            return Err(runtime(self.message.clone()));
        }
        if tag == UNASSIGNED {
            return Err(runtime(self.unassigned.clone()));
        }
        let ok = match self.want {
            Want::Any => true,
            Want::Defined => tag != UNDEF,
            Want::Type(ty) => type_check(tag, ty),
            Want::Pointer => is_pointer(tag),
            Want::Pointee(p) => {
                let want = pointee(r[p as usize]);
                if tag == want || (is_pointer(want) && is_pointer(tag)) {
                    true
                } else {
                    return Err(runtime(format!("{}{}", self.message, js_type(type_of(want)))));
                }
            }
            Want::Never => false,
        };
        if ok {
            Ok(())
        } else {
            Err(runtime(self.message.clone()))
        }
    }
}

/// What `brili` checks when a call returns: the value against the call's
/// destination and the callee's declared type. Written to `d` (and its tag
/// to `f`) when it passes.
pub(crate) struct ReturnCheck {
    pub dest: Option<(Slot, Slot, Type)>,
    pub callee_ret: Option<Type>,
}

impl ReturnCheck {
    /// Checks a call's result (`returned`, tagged `tag`) and stores it.
    pub(crate) fn apply(&self, r: &mut [u64], returned: Option<u64>, tag: u64) -> Result<()> {
        let nothing = || {
            runtime(format!("non-void function (type: {}) doesn't return anything", js_type(self.callee_ret)))
        };
        let Some((d, f, ty)) = self.dest else {
            if returned.is_some() {
                return Err(runtime("unexpected value returned without destination".into()));
            }
            return if self.callee_ret.is_some() { Err(nothing()) } else { Ok(()) };
        };
        let value = returned.ok_or_else(nothing)?;
        if !type_check(tag, ty) {
            return Err(runtime("type of value returned by function does not match destination type".into()));
        }
        match self.callee_ret {
            None => return Err(runtime("function with void return type used in value call".into())),
            Some(declared) if declared != ty => {
                return Err(runtime("type of value returned by function does not match declaration".into()))
            }
            Some(_) => {}
        }
        r[d as usize] = value;
        r[f as usize] = tag;
        Ok(())
    }
}
