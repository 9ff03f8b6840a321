//! The well-formedness checker: what must hold before a program may run.
//!
//! - every variable has one type, and every operand and destination has the
//!   type its opcode requires; calls match the callee's signature and `ret`
//!   the function's return type;
//! - operand, label and callee counts are right for each opcode;
//! - terminators end blocks;
//! - every variable read is defined on some path from the entry (as `brili`
//!   accepts: a read may happen before its definition in layout order);
//! - SSA form: a variable written by `get` has no other definition, and each
//!   `set` targets such a variable with a value of its type.
//!
//! Errors name the function and the instruction, with line:column when the
//! program came from text.

use super::analysis::cfg::Cfg;
use super::ir::*;
use super::print::instr_to_text;
use crate::error::{Error, ErrorKind, Result};

/// Checks the whole program; the first problem found is the error.
pub fn verify(program: &Program) -> Result<()> {
    for f in &program.functions {
        verify_function(program, f)?;
    }
    Ok(())
}

pub fn verify_function(program: &Program, f: &Function) -> Result<()> {
    let types = variable_types(program, f)?;
    let cx = Cx { program, f, types };
    cx.check_ssa()?;
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            if instr.is_terminator() && i + 1 != block.instrs.len() {
                return Err(cx.error(instr, "a terminator must end its block"));
            }
            cx.check_instr(instr)?;
            for &l in instr.labels.iter() {
                if l.index() >= f.blocks.len() {
                    return Err(cx.error(instr, "jump to a block that does not exist"));
                }
            }
        }
        let _ = b;
    }
    cx.check_defined_before_use()?;
    Ok(())
}

struct Cx<'a> {
    program: &'a Program,
    f: &'a Function,
    /// The type of every variable, when it is defined somewhere.
    types: Vec<Option<Type>>,
}

fn error_at(program: &Program, f: &Function, instr: &Instr, message: &str) -> Error {
    let text = instr_to_text(program, f, instr);
    let at = if instr.pos.is_known() { format!("{}: ", instr.pos) } else { String::new() };
    Error::new(ErrorKind::Verify, format!("@{}: {at}`{text}`: {message}", f.name))
}

/// Each variable's type, from parameters and destinations; two different
/// types for one variable is an error.
fn variable_types(program: &Program, f: &Function) -> Result<Vec<Option<Type>>> {
    let mut types: Vec<Option<Type>> = vec![None; f.vars.len()];
    for p in &f.params {
        match types.get_mut(p.var.index()) {
            Some(slot) => *slot = Some(p.ty),
            None => return Err(Error::new(ErrorKind::Verify, format!("@{}: bad parameter", f.name))),
        }
    }
    for instr in f.instrs() {
        if let Some(d) = instr.dest {
            let Some(slot) = types.get_mut(d.var.index()) else {
                return Err(error_at(program, f, instr, "unknown variable"));
            };
            match *slot {
                Some(t) if t != d.ty => {
                    return Err(error_at(
                        program,
                        f,
                        instr,
                        &format!("{} was declared {t} elsewhere, here {}", f.var_name(d.var), d.ty),
                    ))
                }
                _ => *slot = Some(d.ty),
            }
        }
        if instr.args.iter().any(|a| a.index() >= f.vars.len()) {
            return Err(error_at(program, f, instr, "unknown variable"));
        }
    }
    Ok(types)
}

/// What an operand or destination must be.
#[derive(Clone, Copy)]
enum Want {
    Exactly(Type),
    AnyPtr,
    Any,
}

impl<'a> Cx<'a> {
    fn error(&self, instr: &Instr, message: &str) -> Error {
        error_at(self.program, self.f, instr, message)
    }

    fn type_of(&self, instr: &Instr, v: VarId) -> Result<Type> {
        self.types
            .get(v.index())
            .copied()
            .flatten()
            .ok_or_else(|| self.error(instr, &format!("undefined variable {}", self.f.var_name(v))))
    }

    fn expect(&self, instr: &Instr, what: &str, got: Type, want: Want) -> Result<()> {
        let ok = match want {
            Want::Exactly(t) => got == t,
            Want::AnyPtr => got.is_ptr(),
            Want::Any => true,
        };
        if ok {
            return Ok(());
        }
        let wanted = match want {
            Want::Exactly(t) => t.to_string(),
            Want::AnyPtr => "a pointer".to_string(),
            Want::Any => "anything".to_string(),
        };
        Err(self.error(instr, &format!("{what} must be {wanted}, not {got}")))
    }

    fn counts(&self, instr: &Instr, args: usize, labels: usize, dest: bool) -> Result<()> {
        if instr.args.len() != args {
            return Err(self.error(instr, &format!("takes {args} argument(s), got {}", instr.args.len())));
        }
        if instr.labels.len() != labels {
            return Err(self.error(instr, &format!("takes {labels} label(s), got {}", instr.labels.len())));
        }
        if instr.dest.is_some() != dest {
            return Err(self.error(instr, if dest { "needs a destination" } else { "takes no destination" }));
        }
        if instr.func.is_some() && instr.op != Op::Call {
            return Err(self.error(instr, "only call names a function"));
        }
        if instr.value.is_some() && instr.op != Op::Const {
            return Err(self.error(instr, "only const has a value"));
        }
        Ok(())
    }

    /// `args` of the given types and a destination of type `dest`.
    fn simple(&self, instr: &Instr, args: &[Want], dest: Option<Want>) -> Result<()> {
        self.counts(instr, args.len(), 0, dest.is_some())?;
        for (i, (&a, &want)) in instr.args.iter().zip(args).enumerate() {
            let t = self.type_of(instr, a)?;
            self.expect(instr, &format!("argument {}", i + 1), t, want)?;
        }
        if let (Some(d), Some(want)) = (instr.dest, dest) {
            self.expect(instr, "the destination", d.ty, want)?;
        }
        Ok(())
    }

    fn check_instr(&self, instr: &Instr) -> Result<()> {
        use Want::*;
        let int = Exactly(Type::INT);
        let boolean = Exactly(Type::BOOL);
        let float = Exactly(Type::FLOAT);
        let ch = Exactly(Type::CHAR);
        match instr.op {
            Op::Const => {
                self.counts(instr, 0, 0, true)?;
                let ty = instr.dest.map_or(Type::INT, |d| d.ty);
                match instr.value {
                    Some(v) if v.fits(ty) => Ok(()),
                    Some(_) => Err(self.error(instr, &format!("the literal is not a {ty}"))),
                    None => Err(self.error(instr, "const needs a value")),
                }
            }
            Op::Add | Op::Mul | Op::Sub | Op::Div => self.simple(instr, &[int, int], Some(int)),
            Op::Eq | Op::Lt | Op::Gt | Op::Le | Op::Ge => self.simple(instr, &[int, int], Some(boolean)),
            Op::Not => self.simple(instr, &[boolean], Some(boolean)),
            Op::And | Op::Or => self.simple(instr, &[boolean, boolean], Some(boolean)),
            Op::Fadd | Op::Fmul | Op::Fsub | Op::Fdiv => self.simple(instr, &[float, float], Some(float)),
            Op::Feq | Op::Flt | Op::Fle | Op::Fgt | Op::Fge => {
                self.simple(instr, &[float, float], Some(boolean))
            }
            Op::Ceq | Op::Clt | Op::Cle | Op::Cgt | Op::Cge => self.simple(instr, &[ch, ch], Some(boolean)),
            Op::Char2Int => self.simple(instr, &[ch], Some(int)),
            Op::Int2Char => self.simple(instr, &[int], Some(ch)),
            Op::Id => {
                self.counts(instr, 1, 0, true)?;
                let t = self.type_of(instr, instr.args[0])?;
                self.expect(instr, "the destination", instr.dest.map_or(t, |d| d.ty), Exactly(t))
            }
            Op::Print => {
                self.counts(instr, instr.args.len(), 0, false)?;
                for &a in instr.args.iter() {
                    self.type_of(instr, a)?;
                }
                Ok(())
            }
            Op::Nop => self.counts(instr, 0, 0, false),
            Op::Jmp => self.counts(instr, 0, 1, false),
            Op::Br => {
                self.counts(instr, 1, 2, false)?;
                let t = self.type_of(instr, instr.args[0])?;
                self.expect(instr, "the condition", t, boolean)
            }
            Op::Ret => self.check_ret(instr),
            Op::Call => self.check_call(instr),
            Op::Alloc => self.simple(instr, &[int], Some(AnyPtr)),
            Op::Free => self.simple(instr, &[AnyPtr], None),
            Op::Load => {
                self.simple(instr, &[AnyPtr], Some(Any))?;
                let p = self.type_of(instr, instr.args[0])?;
                let d = instr.dest.map_or(p, |d| d.ty);
                self.expect(instr, "the destination", d, Exactly(p.pointee().unwrap_or(p)))
            }
            Op::Store => {
                self.simple(instr, &[AnyPtr, Any], None)?;
                let p = self.type_of(instr, instr.args[0])?;
                let v = self.type_of(instr, instr.args[1])?;
                self.expect(instr, "the stored value", v, Exactly(p.pointee().unwrap_or(p)))
            }
            Op::PtrAdd => {
                self.simple(instr, &[AnyPtr, int], Some(AnyPtr))?;
                let p = self.type_of(instr, instr.args[0])?;
                self.expect(instr, "the destination", instr.dest.map_or(p, |d| d.ty), Exactly(p))
            }
            Op::Get | Op::Undef => self.counts(instr, 0, 0, true),
            Op::Set => {
                self.counts(instr, 2, 0, false)?;
                let target = self.type_of(instr, instr.args[0])?;
                let value = self.type_of(instr, instr.args[1])?;
                self.expect(instr, "the value set", value, Exactly(target))
            }
            Op::Phi => {
                self.counts(instr, instr.args.len(), instr.args.len(), true)?;
                let d = instr.dest.map_or(Type::INT, |d| d.ty);
                for &a in instr.args.iter() {
                    let t = self.type_of(instr, a)?;
                    self.expect(instr, "a phi argument", t, Exactly(d))?;
                }
                Ok(())
            }
        }
    }

    fn check_ret(&self, instr: &Instr) -> Result<()> {
        match (self.f.ret, instr.args.len()) {
            (None, 0) => self.counts(instr, 0, 0, false),
            (Some(want), 1) => {
                self.counts(instr, 1, 0, false)?;
                let t = self.type_of(instr, instr.args[0])?;
                self.expect(instr, "the returned value", t, Want::Exactly(want))
            }
            (None, _) => Err(self.error(instr, "a void function returns no value")),
            (Some(t), _) => Err(self.error(instr, &format!("must return one {t}"))),
        }
    }

    fn check_call(&self, instr: &Instr) -> Result<()> {
        let Some(callee) = instr.func.and_then(|id| self.program.functions.get(id.index())) else {
            return Err(self.error(instr, "call needs a known function"));
        };
        if !instr.labels.is_empty() {
            return Err(self.error(instr, "call takes no labels"));
        }
        if instr.args.len() != callee.params.len() {
            return Err(self.error(
                instr,
                &format!(
                    "@{} takes {} argument(s), got {}",
                    callee.name,
                    callee.params.len(),
                    instr.args.len()
                ),
            ));
        }
        for (i, (&a, p)) in instr.args.iter().zip(&callee.params).enumerate() {
            let t = self.type_of(instr, a)?;
            self.expect(instr, &format!("argument {}", i + 1), t, Want::Exactly(p.ty))?;
        }
        match (callee.ret, instr.dest) {
            (None, None) => Ok(()),
            (Some(r), Some(d)) => self.expect(instr, "the destination", d.ty, Want::Exactly(r)),
            (None, Some(_)) => Err(self.error(instr, &format!("@{} returns nothing", callee.name))),
            (Some(_), None) => {
                Err(self
                    .error(instr, &format!("@{} returns a value: the call needs a destination", callee.name)))
            }
        }
    }

    fn check_ssa(&self) -> Result<()> {
        let f = self.f;
        let mut from_get = vec![false; f.vars.len()];
        for instr in f.instrs() {
            if instr.op == Op::Get {
                if let Some(v) = instr.def() {
                    if std::mem::replace(&mut from_get[v.index()], true) {
                        return Err(self.error(instr, "a variable may be the destination of one get only"));
                    }
                }
            }
        }
        if f.params.iter().any(|p| from_get[p.var.index()]) {
            return Err(Error::new(
                ErrorKind::Verify,
                format!("@{}: a parameter cannot be the destination of a get", f.name),
            ));
        }
        for instr in f.instrs() {
            if instr.op != Op::Get && instr.def().is_some_and(|v| from_get[v.index()]) {
                return Err(self.error(instr, "a variable written by get has no other definition"));
            }
            if let Some(target) = instr.shadow_target() {
                if !from_get[target.index()] {
                    return Err(
                        self.error(instr, &format!("set targets {}, which no get reads", f.var_name(target)))
                    );
                }
            }
        }
        Ok(())
    }

    /// Every read must be of a variable defined on some path from the entry.
    fn check_defined_before_use(&self) -> Result<()> {
        let f = self.f;
        let n = f.blocks.len();
        if n == 0 {
            return Ok(());
        }
        let words = f.vars.len().div_ceil(64);
        let mut entry = vec![0u64; words];
        for p in &f.params {
            entry[p.var.index() / 64] |= 1 << (p.var.index() % 64);
        }
        // may_in[b]: variables defined on some path reaching b; None if b is unreachable.
        let mut may_in: Vec<Option<Vec<u64>>> = vec![None; n];
        may_in[0] = Some(entry);
        // Sweeps in reverse postorder until nothing changes: each sweep is
        // linear and loops bound their number. (A LIFO worklist would walk
        // the rest of a long function again after every branch: quadratic.)
        let order = Cfg::new(f).rpo;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &order {
                let Some(mut output) = may_in[b.index()].clone() else {
                    continue;
                };
                for v in f.blocks[b.index()].instrs.iter().filter_map(Instr::def) {
                    output[v.index() / 64] |= 1 << (v.index() % 64);
                }
                for &s in f.successors(b).iter() {
                    match &mut may_in[s.index()] {
                        Some(cur) => {
                            for (c, o) in cur.iter_mut().zip(&output) {
                                if *c | o != *c {
                                    *c |= o;
                                    changed = true;
                                }
                            }
                        }
                        slot @ None => {
                            *slot = Some(output.clone());
                            changed = true;
                        }
                    }
                }
            }
        }
        for (b, block) in f.blocks.iter().enumerate() {
            let Some(mut defined) = may_in[b].clone() else {
                continue;
            };
            for instr in &block.instrs {
                for &u in instr.uses() {
                    if defined[u.index() / 64] >> (u.index() % 64) & 1 == 0 {
                        return Err(self
                            .error(instr, &format!("{} is not defined on any path to here", f.var_name(u))));
                    }
                }
                if let Some(v) = instr.def() {
                    defined[v.index() / 64] |= 1 << (v.index() % 64);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    fn check(src: &str) -> Result<()> {
        verify(&parse_text(src)?)
    }

    #[test]
    fn accepts_well_formed_programs() {
        check(
            "@main(n: int) {\n  i: int = const 0;\n.loop:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n.done:\n  p: ptr<float> = alloc n;\n  x: float = const 0;\n  store p x;\n  y: float = load p;\n  free p;\n  r: int = call @sq n;\n  print r y;\n}\n@sq(x: int): int {\n  y: int = mul x x;\n  ret y;\n}",
        )
        .unwrap();
        // A read before the definition in layout order, on a loop path.
        check("@main {\n  jmp .b;\n.a:\n  print x;\n  ret;\n.b:\n  x: int = const 1;\n  jmp .a;\n}").unwrap();
        // SSA with set/get.
        check("@main {\n  a: int = const 1;\n  set x a;\n  x: int = get;\n  print x;\n}").unwrap();
    }

    #[test]
    fn rejects_with_function_instruction_and_position() {
        let cases = [
            ("@main {\n  x: int = const true;\n}", "2:3", "literal"),
            ("@main {\n  a: int = const 1;\n  b: bool = add a a;\n}", "3:3", "destination"),
            ("@main {\n  a: int = const 1;\n  a: bool = const true;\n}", "3:3", "declared int"),
            ("@main {\n  print y;\n}", "2:3", "undefined variable y"),
            ("@main {\n  br c .a .a;\n.a:\n  c: bool = const true;\n}", "2:3", "not defined on any path"),
            ("@main {\n  r: int = call @f;\n}\n@f {\n}", "2:3", "returns nothing"),
            (
                "@main {\n  call @f;\n}\n@f: int {\n  x: int = const 1;\n  ret x;\n}",
                "2:3",
                "needs a destination",
            ),
            ("@f: int {\n  ret;\n}", "2:3", "must return one int"),
            ("@main {\n  a: int = const 1;\n  x: int = add a;\n}", "3:3", "takes 2 argument"),
            ("@main {\n  p: ptr<int> = alloc n;\n}", "2:3", "undefined variable n"),
            ("@main {\n  a: int = const 1;\n  set x a;\n}", "3:3", "no get reads"),
            ("@main {\n  x: int = get;\n  x: int = const 3;\n}", "3:3", "no other definition"),
            ("@main {\n  c: char = const 'a';\n  i: int = add c c;\n}", "3:3", "argument 1 must be int"),
        ];
        for (src, pos, what) in cases {
            let e = check(src).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Verify, "{src}");
            let m = e.message();
            assert!(m.contains(pos) && m.contains(what) && m.contains('@'), "{src}: {m}");
        }
    }
}
