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
use super::analysis::definite::undominated_reads;
use super::analysis::dom::Dominators;
use super::analysis::liveness::Liveness;
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
    check_signature(f)?;
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

/// `@main` returns nothing (brilck's rule), and a function declaring a
/// return type has a `ret` somewhere (one that has none could only fall off
/// its end, which is an error for a value call).
fn check_signature(f: &Function) -> Result<()> {
    let at = if f.pos.is_known() { format!("{}: ", f.pos) } else { String::new() };
    match f.ret {
        Some(t) if &*f.name == "main" => Err(Error::new(
            ErrorKind::Verify,
            format!("@main: {at}@main must have no return type; found {t}"),
        )),
        Some(t) if !f.instrs().any(|i| i.op == Op::Ret) => Err(Error::new(
            ErrorKind::Verify,
            format!("@{}: {at}the function returns {t} but has no ret", f.name),
        )),
        _ => Ok(()),
    }
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

    fn expect(&self, instr: &Instr, what: impl std::fmt::Display, got: Type, want: Want) -> Result<()> {
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
            self.expect(instr, format_args!("argument {}", i + 1), t, want)?;
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
        if instr.value.is_some() {
            return Err(self.error(instr, "only const has a value"));
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
            self.expect(instr, format_args!("argument {}", i + 1), t, Want::Exactly(p.ty))?;
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
    ///
    /// Most reads are of a variable a dominating block (or the block itself,
    /// earlier) writes: one walk down the dominator tree, counting the
    /// variables its blocks write, clears them in O(1) each. The few left
    /// (a variable written on both arms of a branch, say) get the exact test
    /// below, for their variables only.
    fn check_defined_before_use(&self) -> Result<()> {
        let f = self.f;
        if f.blocks.is_empty() {
            return Ok(());
        }
        let cfg = Cfg::new(f);
        let doubtful = undominated_reads(f, &Dominators::new(&cfg), |_| true);
        if doubtful.is_empty() {
            return Ok(());
        }
        let mut tracked = vec![false; f.vars.len()];
        for &(_, v) in &doubtful {
            tracked[v as usize] = true;
        }
        let undefined = undefined_reads(f, &cfg, &tracked, &doubtful);
        if undefined.is_empty() {
            return Ok(());
        }
        // Report the first such read in layout order.
        for (b, block) in f.blocks.iter().enumerate() {
            let mut written: Vec<VarId> = Vec::new();
            for instr in &block.instrs {
                for &u in instr.uses() {
                    if !written.contains(&u) && undefined.contains(&(b as u32, u.0)) {
                        return Err(self
                            .error(instr, &format!("{} is not defined on any path to here", f.var_name(u))));
                    }
                }
                written.extend(instr.def());
            }
        }
        Ok(())
    }
}

/// Of the `doubtful` reads (block, variable), those of a variable no path
/// from the entry defines before the block. One `tracked` variable at a
/// time, within its live range: if some path from the entry writes `v` and
/// then reaches a read of `v`, take the last write on it: from there to the
/// read `v` is live throughout. So "defined" spreads forward from each
/// reachable write (and from the entry for a parameter) through the blocks
/// where `v` is live on entry, at the cost of the live sets.
fn undefined_reads(f: &Function, cfg: &Cfg, tracked: &[bool], doubtful: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let live = Liveness::of(f, cfg, tracked);
    let n = f.blocks.len();
    let mut is_param = vec![false; f.vars.len()];
    for p in &f.params {
        is_param[p.var.index()] = true;
    }
    let mut defined = vec![u32::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut undefined = Vec::new();
    let mut by_var: Vec<(u32, u32)> = doubtful.iter().map(|&(b, v)| (v, b)).collect();
    by_var.sort_unstable();
    by_var.dedup();
    let mut k = 0;
    while k < by_var.len() {
        let v32 = by_var[k].0;
        let v = v32 as usize;
        let spread = |b: usize, defined: &mut [u32], stack: &mut Vec<usize>| {
            for &s in &cfg.succs[b] {
                let s = s.index();
                if defined[s] != v32 && live.live_in.get(s).contains(v) {
                    defined[s] = v32;
                    stack.push(s);
                }
            }
        };
        for d in live.writers_of(v) {
            if cfg.is_reachable(BlockId(d)) {
                spread(d as usize, &mut defined, &mut stack);
            }
        }
        if is_param[v] && live.live_in.get(0).contains(v) {
            defined[0] = v32;
            stack.push(0);
        }
        while let Some(b) = stack.pop() {
            spread(b, &mut defined, &mut stack);
        }
        while let Some(&(w, b)) = by_var.get(k).filter(|&&(w, _)| w == v32) {
            if defined[b as usize] != v32 {
                undefined.push((b, w));
            }
            k += 1;
        }
    }
    undefined
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
        // Written on both arms of a branch: no single write dominates the read.
        check("@main(c: bool) {\n  br c .l .r;\n.l:\n  x: int = const 1;\n  jmp .j;\n.r:\n  x: int = const 2;\n.j:\n  print x;\n}")
            .unwrap();
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
            (
                "@main: int {\n  x: int = const 1;\n  ret x;\n}",
                "1:1",
                "@main must have no return type; found int",
            ),
            ("@f: bool {\n  print;\n}", "1:1", "returns bool but has no ret"),
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

    /// JSON can give any instruction a "value"; only `const` has one. A
    /// call with a value prints as `x: int = call 5 @f;`, which no reader
    /// takes back.
    #[test]
    fn a_call_with_a_value_is_rejected_naming_the_call() {
        let src = r#"{"functions": [
            {"name": "main", "instrs": [
                {"op": "call", "dest": "x", "type": "int", "funcs": ["f"], "value": 5},
                {"op": "print", "args": ["x"]}]},
            {"name": "f", "type": "int", "instrs": [
                {"op": "const", "dest": "one", "type": "int", "value": 1},
                {"op": "ret", "args": ["one"]}]}]}"#;
        let e = verify(&crate::bril::parse_json(src).unwrap()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Verify);
        assert!(e.message().contains("@main") && e.message().contains("call"), "{}", e.message());
        assert!(e.message().contains("only const has a value"), "{}", e.message());
    }
}
