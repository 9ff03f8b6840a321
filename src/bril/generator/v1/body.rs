//! The text of one function body as it is written: instruction lines,
//! labels, fresh names, the constants a hand-written function declares at
//! its top, and a running upper bound on the dynamic instructions one call
//! executes (`cost`), kept by charging each line the number of times the
//! current point can run per call (`mult`).

use std::collections::HashMap;
use std::fmt::Write;

/// The name of the int constant `value`, as hand-written code names them.
pub(super) fn int_name(value: i64) -> String {
    const WORDS: [&str; 11] =
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    match usize::try_from(value) {
        Ok(v) if v < WORDS.len() => WORDS[v].to_string(),
        _ if value < 0 => format!("minus{}", value.unsigned_abs()),
        _ => format!("c{value}"),
    }
}

pub(super) struct Body {
    text: String,
    /// Constants declared at the top of the function, in order of first use.
    prologue: Vec<(String, String)>,
    /// The name of each prologue constant, by its literal text and type.
    constants: HashMap<(String, &'static str), String>,
    /// How many names each hint has handed out.
    fresh: HashMap<&'static str, u32>,
    labels: u32,
    /// Constants defined inside loops so far (each gets its own name).
    local_constants: u32,
    /// Static instructions so far (prologue included).
    pub instrs: usize,
    /// How many times the current point can run per call.
    pub mult: u64,
    /// Upper bound on the dynamic instructions of one call so far.
    pub cost: u64,
}

/// What [`Body::rollback`] restores.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    text: usize,
    prologue: usize,
    instrs: usize,
    cost: u64,
    mult: u64,
}

impl Body {
    pub fn new() -> Body {
        Body {
            text: String::new(),
            prologue: Vec::new(),
            constants: HashMap::new(),
            fresh: HashMap::new(),
            labels: 0,
            local_constants: 0,
            instrs: 0,
            mult: 1,
            cost: 0,
        }
    }

    /// One instruction at the current point.
    pub fn line(&mut self, instr: std::fmt::Arguments) {
        let _ = writeln!(self.text, "  {instr};");
        self.instrs += 1;
        self.cost = self.cost.saturating_add(self.mult);
    }

    pub fn label(&mut self, name: &str) {
        let _ = writeln!(self.text, ".{name}:");
    }

    /// A label name not used before in this function.
    pub fn new_label(&mut self, hint: &str) -> String {
        self.labels += 1;
        format!("{hint}.{}", self.labels)
    }

    /// A variable name not used before: `hint`, then `hint_1`, `hint_2`...
    /// (hints end in a letter, so these never meet another hint's names).
    pub fn var(&mut self, hint: &'static str) -> String {
        let n = self.fresh.entry(hint).or_insert(0);
        let name = if *n == 0 { hint.to_string() } else { format!("{hint}_{n}") };
        *n += 1;
        name
    }

    /// The name of the int constant `value` declared at the top of the
    /// function (declared on first use).
    pub fn int(&mut self, value: i64) -> String {
        self.constant(value.to_string(), "int", int_name(value))
    }

    /// A name of its own for the int constant `value` defined at the
    /// current point, e.g. `seven_3`.
    pub fn local_int(&mut self, value: i64) -> String {
        self.local_constants += 1;
        format!("{}_{}", int_name(value), self.local_constants)
    }

    /// The name of the float constant `value` declared at the top.
    pub fn float(&mut self, value: f64) -> String {
        let text = format!("{value:?}");
        let name = format!("f{}", text.replace('.', "_").replace('-', "m"));
        self.constant(text, "float", name)
    }

    fn constant(&mut self, literal: String, ty: &'static str, name: String) -> String {
        if let Some(name) = self.constants.get(&(literal.clone(), ty)) {
            return name.clone();
        }
        self.prologue.push((name.clone(), format!("{ty} = const {literal}")));
        self.constants.insert((literal, ty), name.clone());
        self.instrs += 1;
        self.cost = self.cost.saturating_add(1);
        name
    }

    pub fn mark(&self) -> Mark {
        Mark {
            text: self.text.len(),
            prologue: self.prologue.len(),
            instrs: self.instrs,
            cost: self.cost,
            mult: self.mult,
        }
    }

    /// Forgets everything written since `mark` (fresh names stay used).
    pub fn rollback(&mut self, mark: Mark) {
        self.text.truncate(mark.text);
        for (name, _) in self.prologue.drain(mark.prologue..) {
            self.constants.retain(|_, n| *n != name);
        }
        self.instrs = mark.instrs;
        self.cost = mark.cost;
        self.mult = mark.mult;
    }

    /// The whole function: `header` (up to and including `{`), the
    /// prologue's constants, the body, `}`.
    pub fn finish(self, header: &str) -> String {
        let mut out = String::with_capacity(header.len() + self.text.len() + 32 * self.prologue.len() + 4);
        out.push_str(header);
        out.push('\n');
        for (name, def) in &self.prologue {
            let _ = writeln!(out, "  {name}: {def};");
        }
        out.push_str(&self.text);
        out.push_str("}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_constants_and_rollback() {
        let mut b = Body::new();
        assert_eq!((b.var("v"), b.var("v"), b.var("i")), ("v".into(), "v_1".into(), "i".into()));
        assert_eq!(
            (b.int(1), b.int(1), b.int(-3), b.int(40)),
            ("one".into(), "one".into(), "minus3".into(), "c40".into())
        );
        assert_eq!(b.float(0.5), "f0_5");
        let mark = b.mark();
        b.mult = 10;
        b.line(format_args!("x: int = add one one"));
        let seven = b.int(7);
        assert_eq!((b.instrs, b.cost), (6, 15));
        b.rollback(mark);
        assert_eq!((b.instrs, b.cost, b.mult), (4, 4, 1));
        b.line(format_args!("print one"));
        assert_eq!(b.int(7), seven, "a rolled-back constant is declared again");
        let text = b.finish("@f {");
        assert_eq!(
            text,
            "@f {\n  one: int = const 1;\n  minus3: int = const -3;\n  c40: int = const 40;\n  \
             f0_5: float = const 0.5;\n  seven: int = const 7;\n  print one;\n}\n"
        );
    }
}
