//! What a caller needs to know of a generated function: its parameters,
//! each with the role that says which values keep the call safe, what it
//! returns, and an upper bound on the dynamic instructions one call runs.

/// Largest value an array cell holds, exclusive: every store writes a value
/// reduced modulo it, so a product of two cells never overflows and a cell
/// plus one is a safe divisor.
pub(super) const VALUE_MOD: i64 = 65536;

/// What an argument must be for the call to run without error and within
/// its cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A `ptr<int>` of at least the call's [`Role::Len`] cells, each in
    /// `0..VALUE_MOD`.
    Array,
    /// The length passed with the arrays: at least 1, at most the program's
    /// array length.
    Len,
    /// The constant 0.
    Zero,
    /// Any int.
    Any,
    /// An int in `0..VALUE_MOD`.
    NonNeg,
    /// An int in `0..=bound` (a recursion depth).
    Depth(u64),
    /// An int of at least 1 (a divisor).
    Positive,
    /// The logistic map's rate: a float in `3.5..4`.
    Rate,
    /// Any float.
    Float,
}

impl Role {
    pub fn ty(self) -> &'static str {
        match self {
            Role::Array => "ptr<int>",
            Role::Rate | Role::Float => "float",
            _ => "int",
        }
    }
}

/// What a call gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ret {
    Void,
    Int,
    /// An int in `0..VALUE_MOD`.
    NonNeg,
    Bool,
    Float,
}

impl Ret {
    pub fn ty(self) -> Option<&'static str> {
        match self {
            Ret::Void => None,
            Ret::Int | Ret::NonNeg => Some("int"),
            Ret::Bool => Some("bool"),
            Ret::Float => Some("float"),
        }
    }
}

/// Which part of the call graph a function belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A small leaf function, called inside loops.
    Helper,
    /// A self-recursive function whose depth its arguments bound.
    Recursive,
    /// Fills an array from a pseudo-random recurrence; called by `@main`.
    Fill,
    /// A function over arrays built from kernels, at a level of the call
    /// graph (it calls only helpers, recursive functions and workers of
    /// lower levels).
    Worker { level: u8 },
}

#[derive(Clone, Debug)]
pub(super) struct Sig {
    pub name: String,
    pub params: Vec<(&'static str, Role)>,
    pub ret: Ret,
    pub kind: Kind,
    /// Most dynamic instructions one call runs, for arguments in their roles.
    pub cost: u64,
}

impl Sig {
    /// `@name(p: t, ...): r {`
    pub fn header(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|(p, role)| format!("{p}: {}", role.ty())).collect();
        let params = if params.is_empty() { String::new() } else { format!("({})", params.join(", ")) };
        match self.ret.ty() {
            Some(t) => format!("@{}{params}: {t} {{", self.name),
            None => format!("@{}{params} {{", self.name),
        }
    }
}

/// The functions generated so far, with their indices by kind, so a caller
/// picks one in constant time (generation stays linear in the size).
#[derive(Default)]
pub(super) struct Callees {
    sigs: Vec<Sig>,
    pub helpers: Vec<usize>,
    pub recursive: Vec<usize>,
    pub workers: Vec<usize>,
    /// The first helpers named `mod` and `mix`, which kernels call by name.
    pub modulo: Option<String>,
    pub mix: Option<String>,
}

impl Callees {
    /// Adds `sig`; its index.
    pub fn push(&mut self, sig: Sig) -> usize {
        let k = self.sigs.len();
        match sig.kind {
            Kind::Helper => {
                if self.modulo.is_none() && sig.name.starts_with("mod") {
                    self.modulo = Some(sig.name.clone());
                }
                if self.mix.is_none() && sig.name.starts_with("mix") {
                    self.mix = Some(sig.name.clone());
                }
                self.helpers.push(k);
            }
            Kind::Recursive => self.recursive.push(k),
            Kind::Worker { .. } => self.workers.push(k),
            Kind::Fill => {}
        }
        self.sigs.push(sig);
        k
    }

    pub fn len(&self) -> usize {
        self.sigs.len()
    }
}

impl std::ops::Index<usize> for Callees {
    type Output = Sig;

    fn index(&self, k: usize) -> &Sig {
        &self.sigs[k]
    }
}
