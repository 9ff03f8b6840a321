//! The interpreter loop over lowered code.
//!
//! One register file serves every frame (a frame is a window `base..base+slots`),
//! calls push a small record instead of recursing, and the dynamic instruction
//! counter is bumped once per executed instruction. Fuel is checked where
//! control can loop: at jumps, branches and calls.

use super::code::{pointee, tag_of, type_of};
use super::code::{Code, Kind, Lowered, LoweredFunction, Slot, ASSIGNED, NO_DEST, UNASSIGNED};
use super::format::write_float;
use super::heap::{ptr_add, unpack, Heap};
use super::Limits;
use crate::error::{Error, ErrorKind, Result};

struct Frame {
    func: u32,
    pc: usize,
    base: usize,
    dest: Slot,
}

/// Where the output of `print` goes.
pub(crate) struct Output<'s> {
    pub text: String,
    pub sink: Option<&'s mut dyn FnMut(&str)>,
    pub written: u64,
    pub max_bytes: u64,
}

impl Output<'_> {
    /// Hands buffered text to the sink, if there is one.
    pub fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if !self.text.is_empty() {
                sink(&self.text);
                self.text.clear();
            }
        }
    }
}

fn limit(message: String) -> Error {
    Error::new(ErrorKind::Limit, message)
}

fn runtime(message: String) -> Error {
    Error::new(ErrorKind::Runtime, message)
}

pub(crate) struct Run<'p, 's> {
    pub prog: &'p Lowered,
    pub limits: Limits,
    pub heap: Heap,
    pub out: Output<'s>,
    pub count: u64,
}

impl Run<'_, '_> {
    /// Runs function `main` with its parameters already parsed.
    pub fn exec(&mut self, main: u32, args: &[u64]) -> Result<()> {
        let prog = self.prog;
        let fuel = self.limits.fuel;
        let max_depth = self.limits.max_call_depth as usize;
        let max_stack = self.limits.max_memory_cells;
        let heap = &mut self.heap;
        let out = &mut self.out;
        let mut count = self.count;

        let mut func = main;
        let mut pc = 0usize;
        let mut base = 0usize;
        let first = &prog.functions[main as usize];
        let mut regs: Vec<u64> = vec![0; (first.slots as usize).max(64)];
        for (&(slot, _), &value) in first.params.iter().zip(args) {
            regs[slot as usize] = value;
        }
        for (&tag, &(_, ty)) in first.param_tags.iter().zip(&first.params) {
            regs[tag as usize] = tag_of(ty);
        }
        let mut frames: Vec<Frame> = Vec::new();
        // What the last `ret` returned, and its tag (dynamic typing).
        let mut returned: Option<u64> = None;
        let mut returned_tag: u64 = UNASSIGNED;

        macro_rules! fail {
            ($e:expr) => {{
                self.count = count;
                return Err($e);
            }};
        }

        loop {
            let lf = &prog.functions[func as usize];
            let code = &lf.code[..];
            let r = &mut regs[base..base + lf.slots as usize];

            // Runs until a call or a return needs the whole register file.
            let exit = loop {
                let ins = code[pc];
                pc += 1;
                count += 1;
                macro_rules! int_op {
                    ($d:ident, $a:ident, $b:ident, |$x:ident, $y:ident| $e:expr) => {{
                        let $x = r[$a as usize] as i64;
                        let $y = r[$b as usize] as i64;
                        r[$d as usize] = $e;
                    }};
                }
                macro_rules! float_op {
                    ($d:ident, $a:ident, $b:ident, |$x:ident, $y:ident| $e:expr) => {{
                        let $x = f64::from_bits(r[$a as usize]);
                        let $y = f64::from_bits(r[$b as usize]);
                        r[$d as usize] = $e;
                    }};
                }
                match ins {
                    Code::Const { d, bits } => r[d as usize] = bits,
                    Code::Copy { d, a } => r[d as usize] = r[a as usize],
                    Code::Add { d, a, b } => int_op!(d, a, b, |x, y| x.wrapping_add(y) as u64),
                    Code::Sub { d, a, b } => int_op!(d, a, b, |x, y| x.wrapping_sub(y) as u64),
                    Code::Mul { d, a, b } => int_op!(d, a, b, |x, y| x.wrapping_mul(y) as u64),
                    Code::Div { d, a, b } => {
                        let y = r[b as usize] as i64;
                        if y == 0 {
                            fail!(runtime("division by zero".into()));
                        }
                        r[d as usize] = (r[a as usize] as i64).wrapping_div(y) as u64;
                    }
                    Code::Eq { d, a, b } => int_op!(d, a, b, |x, y| u64::from(x == y)),
                    Code::Lt { d, a, b } => int_op!(d, a, b, |x, y| u64::from(x < y)),
                    Code::Gt { d, a, b } => int_op!(d, a, b, |x, y| u64::from(x > y)),
                    Code::Le { d, a, b } => int_op!(d, a, b, |x, y| u64::from(x <= y)),
                    Code::Ge { d, a, b } => int_op!(d, a, b, |x, y| u64::from(x >= y)),
                    Code::Not { d, a } => r[d as usize] = r[a as usize] ^ 1,
                    Code::And { d, a, b } => r[d as usize] = r[a as usize] & r[b as usize],
                    Code::Or { d, a, b } => r[d as usize] = r[a as usize] | r[b as usize],
                    Code::Fadd { d, a, b } => float_op!(d, a, b, |x, y| (x + y).to_bits()),
                    Code::Fsub { d, a, b } => float_op!(d, a, b, |x, y| (x - y).to_bits()),
                    Code::Fmul { d, a, b } => float_op!(d, a, b, |x, y| (x * y).to_bits()),
                    Code::Fdiv { d, a, b } => float_op!(d, a, b, |x, y| (x / y).to_bits()),
                    Code::Feq { d, a, b } => float_op!(d, a, b, |x, y| u64::from(x == y)),
                    Code::Flt { d, a, b } => float_op!(d, a, b, |x, y| u64::from(x < y)),
                    Code::Fgt { d, a, b } => float_op!(d, a, b, |x, y| u64::from(x > y)),
                    Code::Fle { d, a, b } => float_op!(d, a, b, |x, y| u64::from(x <= y)),
                    Code::Fge { d, a, b } => float_op!(d, a, b, |x, y| u64::from(x >= y)),
                    Code::Int2Char { d, a } => {
                        let i = r[a as usize] as i64;
                        match u32::try_from(i).ok().and_then(char::from_u32) {
                            Some(c) => r[d as usize] = u64::from(u32::from(c)),
                            None => fail!(runtime(format!("value {i} cannot be converted to char"))),
                        }
                    }
                    Code::Jmp { to } => {
                        pc = to as usize;
                        if count > fuel {
                            fail!(out_of_fuel(fuel));
                        }
                    }
                    Code::Br { c, then, otherwise } => {
                        pc = if r[c as usize] != 0 { then } else { otherwise } as usize;
                        if count > fuel {
                            fail!(out_of_fuel(fuel));
                        }
                    }
                    Code::Call { d, site } => break Exit::Call { d, site },
                    Code::Ret { a } => break Exit::Return(Some(r[a as usize])),
                    Code::RetVoid => break Exit::Return(None),
                    Code::End => {
                        count -= 1;
                        break Exit::Return(None);
                    }
                    Code::Print { at, n } => {
                        let items = &prog.prints[at as usize..(at + n) as usize];
                        if let Err(e) = print(out, r, items) {
                            fail!(e);
                        }
                    }
                    Code::Nop => {}
                    Code::Alloc { d, a } => match heap.alloc(r[a as usize] as i64) {
                        Ok(p) => r[d as usize] = p,
                        Err(e) => fail!(e),
                    },
                    Code::Free { a } => {
                        if let Err(e) = heap.free(r[a as usize]) {
                            fail!(e);
                        }
                    }
                    Code::Store { p, v } => {
                        if let Err(e) = heap.store(r[p as usize], r[v as usize]) {
                            fail!(e);
                        }
                    }
                    Code::Load { d, p } => match heap.load(r[p as usize]) {
                        Ok(v) => r[d as usize] = v,
                        Err(e) => fail!(e),
                    },
                    Code::PtrAdd { d, p, k } => r[d as usize] = ptr_add(r[p as usize], r[k as usize] as i64),
                    Code::Assigned { f, var } => {
                        count -= 1;
                        if r[f as usize] == UNASSIGNED {
                            fail!(undefined(lf, var));
                        }
                    }
                    Code::Defined { f, var } => {
                        count -= 1;
                        match r[f as usize] {
                            ASSIGNED => {}
                            UNASSIGNED => fail!(undefined(lf, var)),
                            _ => fail!(runtime(format!(
                                "{} holds undef, which only id, set and get may read",
                                name(lf, var)
                            ))),
                        }
                    }
                    Code::Flag { f, state } => {
                        count -= 1;
                        r[f as usize] = state;
                    }
                    Code::CopyFlag { f, from } => {
                        count -= 1;
                        r[f as usize] = r[from as usize];
                    }
                    Code::Check { f, at } => {
                        count -= 1;
                        if let Err(e) = prog.checks[at as usize].check(r, f) {
                            fail!(e);
                        }
                    }
                    Code::Returning { f } => {
                        count -= 1;
                        returned_tag = r[f as usize];
                    }
                    Code::AfterCall { at } => {
                        count -= 1;
                        if let Err(e) = prog.returns[at as usize].apply(r, returned, returned_tag) {
                            fail!(e);
                        }
                    }
                    Code::LoadTag { f, from } => {
                        count -= 1;
                        r[f as usize] = pointee(r[from as usize]);
                    }
                }
            };

            match exit {
                Exit::Call { d, site } => {
                    if count > fuel {
                        fail!(out_of_fuel(fuel));
                    }
                    if frames.len() >= max_depth {
                        fail!(limit(format!("call depth limit of {max_depth} exceeded")));
                    }
                    let call = &prog.calls[site as usize];
                    let callee = &prog.functions[call.func as usize];
                    let new_base = base + lf.slots as usize;
                    let top = new_base + callee.slots as usize;
                    if top as u64 > max_stack {
                        fail!(limit(format!("stack of {max_stack} cells exhausted")));
                    }
                    if regs.len() < top {
                        regs.resize(top.max(regs.len() * 2), 0);
                    }
                    regs[new_base..top].fill(0);
                    let args = &prog.call_args[call.at as usize..(call.at + call.n) as usize];
                    for (&(param, _), &arg) in callee.params.iter().zip(args) {
                        regs[new_base + param as usize] = regs[base + arg as usize];
                    }
                    if !callee.param_tags.is_empty() {
                        // With dynamic typing the arguments' tags follow them.
                        let tags = &prog.call_args[(call.at + call.n) as usize..][..call.n as usize];
                        for (&param, &arg) in callee.param_tags.iter().zip(tags) {
                            regs[new_base + param as usize] = regs[base + arg as usize];
                        }
                    }
                    frames.push(Frame { func, pc, base, dest: d });
                    func = call.func;
                    pc = 0;
                    base = new_base;
                }
                Exit::Return(value) => {
                    returned = value;
                    let Some(frame) = frames.pop() else {
                        self.count = count;
                        return Ok(());
                    };
                    let callee_ret = lf.ret;
                    func = frame.func;
                    pc = frame.pc;
                    base = frame.base;
                    if frame.dest != NO_DEST {
                        match value {
                            Some(v) => regs[base + frame.dest as usize] = v,
                            None => fail!(runtime(format!(
                                "non-void function (type: {}) doesn't return anything",
                                callee_ret.map_or("undefined".to_string(), |t| t.to_string())
                            ))),
                        }
                    }
                }
            }
        }
    }
}

enum Exit {
    Call { d: Slot, site: u32 },
    Return(Option<u64>),
}

fn name(lf: &LoweredFunction, var: u32) -> &str {
    lf.names.get(var as usize).map_or("?", |n| n)
}

/// `brili`'s error for reading a variable never assigned, or a `get` with
/// no `set` before it.
fn undefined(lf: &LoweredFunction, var: u32) -> Error {
    if var >= lf.first_shadow {
        runtime(format!("get without corresponding set for {}", name(lf, var)))
    } else {
        runtime(format!("undefined variable {}", name(lf, var)))
    }
}

fn out_of_fuel(fuel: u64) -> Error {
    limit(format!("fuel exhausted: more than {fuel} dynamic instructions"))
}

fn print(out: &mut Output<'_>, r: &[u64], items: &[(Slot, Kind)]) -> Result<()> {
    let before = out.text.len();
    for (i, &(slot, kind)) in items.iter().enumerate() {
        if i > 0 {
            out.text.push(' ');
        }
        let kind = match kind {
            Kind::Tagged(tag) => type_of(r[tag as usize]).map_or(Kind::Int, Kind::of),
            kind => kind,
        };
        write_value(&mut out.text, r[slot as usize], kind);
    }
    out.text.push('\n');
    out.written += (out.text.len() - before) as u64;
    if out.written > out.max_bytes {
        return Err(limit(format!("output limit of {} bytes exceeded", out.max_bytes)));
    }
    if out.text.len() >= 1 << 13 {
        out.flush();
    }
    Ok(())
}

pub(crate) fn write_value(text: &mut String, bits: u64, kind: Kind) {
    use std::fmt::Write;
    match kind {
        Kind::Int => text.push_str(itoa::Buffer::new().format(bits as i64)),
        Kind::Bool => text.push_str(if bits != 0 { "true" } else { "false" }),
        Kind::Float => write_float(text, f64::from_bits(bits)),
        Kind::Char => text.push(char::from_u32(bits as u32).unwrap_or(char::REPLACEMENT_CHARACTER)),
        Kind::Ptr | Kind::Tagged(_) => {
            let (id, offset) = unpack(bits);
            let _ = write!(text, "{{ loc: Key {{ base: {id}, offset: {offset} }} }}");
        }
    }
}
