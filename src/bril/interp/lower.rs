//! Lowering a verified program into flat code for the interpreter.
//!
//! Types are static in Bril, so registers are untyped 64-bit words and each
//! opcode is specialised by type here, once: operands become register slots,
//! jump targets code offsets, callees function indices. Every code word is 16
//! bytes. Char comparisons become int comparisons on code points and
//! `id`/`set`/`get`/`char2int` become plain copies. Reads that may find a
//! variable unassigned, or holding `undef`, get checks (see `Checks`).
//!
//! A program that was not verified is lowered with [`Typing::Dynamic`]
//! instead: every value's type is kept in a tag and checked where `brili`
//! checks it (see `super::tags`).

use super::code::{CallSite, Code, Kind, Lowered, LoweredFunction, Slot, ASSIGNED, NO_DEST, UNDEF};
use super::tags::{Lowering, Tags};
use crate::bril::ir::*;
use crate::error::{Error, ErrorKind, Result};

/// How types are known when the program runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Typing {
    /// From the verifier: registers are untyped words (the fast path).
    Static,
    /// From tags kept beside the registers, checked as `brili` checks values.
    Dynamic,
}

fn fail(f: &Function, instr: &Instr, message: &str) -> Error {
    let at = if instr.pos.is_known() { format!(" at {}", instr.pos) } else { String::new() };
    Error::new(ErrorKind::Verify, format!("@{}: {}{at}: {message}", f.name, instr.op))
}

fn to_u32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::new(ErrorKind::Limit, format!("too many {what}")))
}

pub(crate) fn lower(program: &Program, typing: Typing) -> Result<Lowered> {
    let mut out = Lowered {
        functions: Vec::with_capacity(program.functions.len()),
        calls: Vec::new(),
        call_args: Vec::new(),
        prints: Vec::new(),
        checks: Vec::new(),
        returns: Vec::new(),
    };
    for f in &program.functions {
        let lf = lower_function(program, f, typing, &mut out)?;
        out.functions.push(lf);
    }
    Ok(out)
}

fn lower_function(
    program: &Program,
    f: &Function,
    typing: Typing,
    out: &mut Lowered,
) -> Result<LoweredFunction> {
    // Every variable an instruction names must be in the table: slots are
    // then inside the frame, which the machine relies on.
    let nvars = f.vars.len();
    let known = |v: &VarId| v.index() < nvars;
    let consistent = f.params.iter().all(|p| known(&p.var))
        && f.instrs().all(|i| i.args.iter().all(known) && i.def().as_ref().is_none_or(known));
    if !consistent {
        return Err(Error::new(
            ErrorKind::Verify,
            format!("@{}: an instruction names an unknown variable", f.name),
        ));
    }

    // Each variable's type (the verifier guarantees there is one).
    let mut kinds: Vec<Kind> = vec![Kind::Int; f.vars.len()];
    for p in &f.params {
        if let Some(k) = kinds.get_mut(p.var.index()) {
            *k = Kind::of(p.ty);
        }
    }
    for i in f.instrs() {
        if let Some(d) = i.dest {
            if let Some(k) = kinds.get_mut(d.var.index()) {
                *k = Kind::of(d.ty);
            }
        }
    }
    // Shadow variables of set/get get their own slots after the variables.
    let mut shadow: Vec<Option<Slot>> = vec![None; f.vars.len()];
    let mut slots = to_u32(f.vars.len(), "variables")?;
    for i in f.instrs() {
        let target = match i.op {
            Op::Get => i.def(),
            Op::Set => i.shadow_target(),
            _ => None,
        };
        if let Some(v) = target {
            if let Some(s @ None) = shadow.get_mut(v.index()) {
                *s = Some(slots);
                slots =
                    slots.checked_add(1).ok_or_else(|| Error::new(ErrorKind::Limit, "too many variables"))?;
            }
        }
    }

    let (checks, tags) = match typing {
        Typing::Static => (Checks::new(f, &shadow, &mut slots)?, None),
        Typing::Dynamic => (Checks::none(f.vars.len()), Some(Tags::new(f, &shadow, &mut slots)?)),
    };
    let tags = tags.as_ref();
    let scratch = tags.map(|t| t.scratch);
    // Jumps name blocks while code is emitted; block starts are patched in after.
    let target = |b: BlockId| (b.index() < f.blocks.len()).then_some(b.0);
    let mut starts = Vec::with_capacity(f.blocks.len());
    let mut code = Vec::with_capacity(f.instr_count() + 1);
    checks.prologue(f, &mut code);
    let located = f
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(b, block)| block.instrs.iter().enumerate().map(move |(i, instr)| ((b, i), instr)));
    for ((b, i), instr) in located {
        if i == 0 {
            // Blocks without instructions start where the next one does.
            while starts.len() <= b {
                starts.push(to_u32(code.len(), "instructions")?);
            }
        }
        checks.before(instr, (b, i), &mut code);
        if let Some(tags) = tags {
            if let Lowering::Replaced = tags.before(program, f, instr, &mut code, out) {
                continue;
            }
        }
        let arg = |i: usize| -> Result<Slot> {
            instr.args.get(i).map(|v| v.0).ok_or_else(|| fail(f, instr, "missing argument"))
        };
        let dest = || -> Result<Slot> {
            instr.def().map(|v| v.0).or(scratch).ok_or_else(|| fail(f, instr, "missing destination"))
        };
        let label = |i: usize| -> Result<u32> {
            instr.labels.get(i).and_then(|&b| target(b)).ok_or_else(|| fail(f, instr, "missing label"))
        };
        macro_rules! bin {
            ($variant:ident) => {
                Code::$variant { d: dest()?, a: arg(0)?, b: arg(1)? }
            };
        }
        let c = match instr.op {
            Op::Const => {
                let ty = instr.dest.map(|d| d.ty).ok_or_else(|| fail(f, instr, "missing type"))?;
                let value = instr.value.ok_or_else(|| fail(f, instr, "missing value"))?;
                Code::Const { d: dest()?, bits: value.bits(ty) }
            }
            Op::Id | Op::Char2Int => Code::Copy { d: dest()?, a: arg(0)? },
            Op::Add => bin!(Add),
            Op::Sub => bin!(Sub),
            Op::Mul => bin!(Mul),
            Op::Div => bin!(Div),
            Op::Eq | Op::Ceq => bin!(Eq),
            Op::Lt | Op::Clt => bin!(Lt),
            Op::Gt | Op::Cgt => bin!(Gt),
            Op::Le | Op::Cle => bin!(Le),
            Op::Ge | Op::Cge => bin!(Ge),
            Op::Not => Code::Not { d: dest()?, a: arg(0)? },
            Op::And => bin!(And),
            Op::Or => bin!(Or),
            Op::Fadd => bin!(Fadd),
            Op::Fsub => bin!(Fsub),
            Op::Fmul => bin!(Fmul),
            Op::Fdiv => bin!(Fdiv),
            Op::Feq => bin!(Feq),
            Op::Flt => bin!(Flt),
            Op::Fgt => bin!(Fgt),
            Op::Fle => bin!(Fle),
            Op::Fge => bin!(Fge),
            Op::Int2Char => Code::Int2Char { d: dest()?, a: arg(0)? },
            Op::Jmp => Code::Jmp { to: label(0)? },
            Op::Br => Code::Br { c: arg(0)?, then: label(0)?, otherwise: label(1)? },
            Op::Call => {
                let callee = instr.func.ok_or_else(|| fail(f, instr, "missing callee"))?;
                if callee.index() >= program.functions.len() {
                    return Err(fail(f, instr, "unknown callee"));
                }
                let site = to_u32(out.calls.len(), "call sites")?;
                out.calls.push(CallSite {
                    func: callee.0,
                    at: to_u32(out.call_args.len(), "call arguments")?,
                    n: to_u32(instr.args.len(), "call arguments")?,
                });
                out.call_args.extend(instr.args.iter().map(|v| v.0));
                match tags {
                    // The result is checked and stored by the `AfterCall` that follows.
                    Some(tags) => {
                        out.call_args.extend(tags.call_args(instr));
                        Code::Call { d: NO_DEST, site }
                    }
                    None => Code::Call { d: instr.def().map_or(NO_DEST, |v| v.0), site },
                }
            }
            Op::Ret => match instr.args.first() {
                Some(v) => Code::Ret { a: v.0 },
                None => Code::RetVoid,
            },
            Op::Print => {
                let at = to_u32(out.prints.len(), "print arguments")?;
                for &a in instr.args.iter() {
                    let kind = match tags {
                        Some(tags) => Kind::Tagged(tags.tag(a)),
                        None => kinds.get(a.index()).copied().unwrap_or(Kind::Int),
                    };
                    out.prints.push((a.0, kind));
                }
                Code::Print { at, n: to_u32(instr.args.len(), "print arguments")? }
            }
            Op::Nop => Code::Nop,
            Op::Alloc => Code::Alloc { d: dest()?, a: arg(0)? },
            Op::Free => Code::Free { a: arg(0)? },
            Op::Store => Code::Store { p: arg(0)?, v: arg(1)? },
            Op::Load => Code::Load { d: dest()?, p: arg(0)? },
            Op::PtrAdd => Code::PtrAdd { d: dest()?, p: arg(0)?, k: arg(1)? },
            Op::Set => {
                let v = instr.shadow_target().ok_or_else(|| fail(f, instr, "missing argument"))?;
                Code::Copy { d: shadow[v.index()].ok_or_else(|| fail(f, instr, "no shadow"))?, a: arg(1)? }
            }
            Op::Get => {
                let v = instr.def().ok_or_else(|| fail(f, instr, "missing destination"))?;
                Code::Copy { d: v.0, a: shadow[v.index()].ok_or_else(|| fail(f, instr, "no shadow"))? }
            }
            // An undefined value reads as zero: well-formed programs never use it.
            Op::Undef => Code::Const { d: dest()?, bits: 0 },
            Op::Phi => {
                return Err(Error::new(
                    ErrorKind::Runtime,
                    format!("@{}: the legacy phi instruction cannot run; use set/get SSA form", f.name),
                ))
            }
        };
        code.push(c);
        checks.after(instr, &mut code);
        if let Some(tags) = tags {
            tags.after(program, instr, &mut code, out);
        }
    }
    while starts.len() < f.blocks.len() {
        starts.push(to_u32(code.len(), "instructions")?);
    }
    code.push(Code::End);
    for c in &mut code {
        let patch = |b: u32| starts.get(b as usize).copied().unwrap_or(0);
        match c {
            Code::Jmp { to } => *to = patch(*to),
            Code::Br { then, otherwise, .. } => {
                *then = patch(*then);
                *otherwise = patch(*otherwise);
            }
            _ => {}
        }
    }

    Ok(LoweredFunction {
        code,
        slots,
        params: f.params.iter().map(|p| (p.var.0, p.ty)).collect(),
        param_tags: tags.map(|t| t.params(f)).unwrap_or_default(),
        ret: f.ret,
        first_shadow: checks.first_shadow,
        names: checks.names,
    })
}

/// Where reads may find a variable unassigned or holding `undef`, and the
/// flags that catch them at run time, as `brili` does: reading a variable
/// never assigned is an error, and `undef` values may only be copied (by
/// `id`, `set` and `get`). Well-formed programs usually need none, and then
/// cost nothing.
struct Checks {
    /// Flag slot of each variable that needs one.
    var_flag: Vec<Option<Slot>>,
    /// Flag slot of each shadow (all of them when the function has a `get`).
    shadow_flag: Vec<Option<Slot>>,
    /// Reads that may find their variable unassigned, by (block, index).
    risky: crate::bril::hash::FxHashMap<(usize, usize), Vec<VarId>>,
    /// Variables that may hold `undef`.
    undef: Vec<bool>,
    params: Vec<Slot>,
    names: Vec<Name>,
    /// Index in `names` of each variable, then of each shadow.
    name_of: Vec<u32>,
    /// Where the shadows start in `names`.
    first_shadow: u32,
}

impl Checks {
    fn new(f: &Function, shadow: &[Option<Slot>], slots: &mut u32) -> Result<Checks> {
        let n = f.vars.len();
        let mut risky: crate::bril::hash::FxHashMap<(usize, usize), Vec<VarId>> = Default::default();
        for read in crate::bril::analysis::definite::unassigned_reads(f, &vec![true; n]) {
            risky.entry((read.block.index(), read.index)).or_default().push(read.var);
        }
        // What may hold `undef`: what `undef` writes, and copies of it
        // (variable `v` is node `v`, the shadow of `x` node `n + x`).
        let mut undef = vec![false; 2 * n];
        let mut edges: Vec<(usize, usize)> = Vec::new();
        let mut work = Vec::new();
        let mut has_get = false;
        for i in f.instrs() {
            match (i.op, i.def(), i.args.first(), i.args.get(1)) {
                (Op::Undef, Some(d), _, _) => work.push(d.index()),
                (Op::Id, Some(d), Some(&a), _) => edges.push((a.index(), d.index())),
                (Op::Set, None, Some(&t), Some(&v)) => edges.push((v.index(), n + t.index())),
                (Op::Get, Some(d), _, _) => {
                    has_get = true;
                    edges.push((n + d.index(), d.index()));
                }
                _ => {}
            }
        }
        edges.sort_unstable();
        while let Some(x) = work.pop() {
            if std::mem::replace(&mut undef[x], true) {
                continue;
            }
            let from = edges.partition_point(|&(a, _)| a < x);
            work.extend(edges[from..].iter().take_while(|&&(a, _)| a == x).map(|&(_, d)| d));
        }
        let mut checks = Checks {
            var_flag: vec![None; n],
            shadow_flag: vec![None; n],
            risky,
            undef: undef[..n].to_vec(),
            params: Vec::new(),
            names: Vec::new(),
            name_of: vec![0; 2 * n],
            first_shadow: 0,
        };
        let flag = |slots: &mut u32| -> Result<Slot> {
            let s = *slots;
            *slots =
                slots.checked_add(1).ok_or_else(|| Error::new(ErrorKind::Limit, "too many variables"))?;
            Ok(s)
        };
        let mut wanted: Vec<VarId> = checks.risky.values().flatten().copied().collect();
        wanted.extend((0..n).filter(|&v| checks.undef[v]).map(VarId::new));
        wanted.sort_unstable();
        wanted.dedup();
        for v in wanted {
            checks.var_flag[v.index()] = Some(flag(slots)?);
            checks.name_of[v.index()] = checks.names.len() as u32;
            checks.names.push(f.vars[v.index()].clone());
        }
        checks.first_shadow = checks.names.len() as u32;
        if has_get {
            for (x, _) in shadow.iter().enumerate().take(n).filter(|(_, s)| s.is_some()) {
                checks.shadow_flag[x] = Some(flag(slots)?);
                checks.name_of[n + x] = checks.names.len() as u32;
                checks.names.push(f.vars[x].clone());
            }
        }
        checks.params = f.params.iter().filter_map(|p| checks.var_flag[p.var.index()]).collect();
        Ok(checks)
    }

    /// No checks: dynamic typing checks tags instead.
    fn none(n: usize) -> Checks {
        Checks {
            var_flag: vec![None; n],
            shadow_flag: vec![None; n],
            risky: Default::default(),
            undef: vec![false; n],
            params: Vec::new(),
            names: Vec::new(),
            name_of: vec![0; 2 * n],
            first_shadow: 0,
        }
    }

    /// Parameters are assigned on entry (before block 0, which a loop may
    /// jump back to).
    fn prologue(&self, _: &Function, code: &mut Vec<Code>) {
        code.extend(self.params.iter().map(|&f| Code::Flag { f, state: ASSIGNED }));
    }

    /// Checks before `instr` reads.
    fn before(&self, instr: &Instr, at: (usize, usize), code: &mut Vec<Code>) {
        let copies = matches!(instr.op, Op::Id | Op::Set);
        let risky = self.risky.get(&at);
        for &u in instr.uses() {
            let Some(f) = self.var_flag[u.index()] else { continue };
            let var = self.name_of[u.index()];
            let maybe_unassigned = risky.is_some_and(|r| r.contains(&u));
            if copies {
                if maybe_unassigned {
                    code.push(Code::Assigned { f, var });
                }
            } else if maybe_unassigned || self.undef[u.index()] {
                code.push(Code::Defined { f, var });
            }
        }
        if let (Op::Get, Some(d)) = (instr.op, instr.def()) {
            if let Some(f) = self.shadow_flag[d.index()] {
                code.push(Code::Assigned { f, var: self.name_of[self.var_flag.len() + d.index()] });
            }
        }
    }

    /// Flag updates after `instr` writes.
    fn after(&self, instr: &Instr, code: &mut Vec<Code>) {
        let flag_of = |v: VarId| self.var_flag[v.index()];
        match (instr.op, instr.def()) {
            (Op::Set, _) => {
                if let (Some(t), Some(&v)) = (instr.shadow_target(), instr.args.get(1)) {
                    if let Some(f) = self.shadow_flag[t.index()] {
                        code.push(match flag_of(v) {
                            Some(from) => Code::CopyFlag { f, from },
                            None => Code::Flag { f, state: ASSIGNED },
                        });
                    }
                }
            }
            (_, None) => {}
            (op, Some(d)) => {
                let Some(f) = flag_of(d) else { return };
                code.push(match op {
                    Op::Undef => Code::Flag { f, state: UNDEF },
                    Op::Id => match instr.args.first().and_then(|&a| flag_of(a)) {
                        Some(from) => Code::CopyFlag { f, from },
                        None => Code::Flag { f, state: ASSIGNED },
                    },
                    Op::Get => match self.shadow_flag[d.index()] {
                        Some(from) => Code::CopyFlag { f, from },
                        None => Code::Flag { f, state: ASSIGNED },
                    },
                    _ => Code::Flag { f, state: ASSIGNED },
                });
            }
        }
    }
}
