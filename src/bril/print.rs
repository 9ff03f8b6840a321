//! The canonical Bril text printer (what `bril2txt` writes).
//!
//! Printing then parsing gives back the same program: labels, empty blocks,
//! unlabeled blocks, literal forms and the `# ARGS:` line are all kept.

use std::fmt::Write;

use super::ir::*;
use super::lex::CHAR_ESCAPES;

/// The program as Bril text.
pub fn to_text(program: &Program) -> String {
    let mut out = String::with_capacity(program.instr_count() * 24 + 64);
    if let Some(args) = &program.args {
        out.push_str("# ARGS:");
        for a in args {
            out.push(' ');
            out.push_str(a);
        }
        out.push('\n');
    }
    for f in &program.functions {
        write_function(&mut out, program, f);
    }
    out
}

/// One function as Bril text (callees are named from `program`).
pub fn function_to_text(program: &Program, f: &Function) -> String {
    let mut out = String::new();
    write_function(&mut out, program, f);
    out
}

fn write_function(out: &mut String, program: &Program, f: &Function) {
    let _ = write!(out, "@{}", f.name);
    if !f.params.is_empty() {
        out.push('(');
        for (i, p) in f.params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{}: {}", f.var_name(p.var), p.ty);
        }
        out.push(')');
    }
    if let Some(ret) = f.ret {
        let _ = write!(out, ": {ret}");
    }
    out.push_str(" {\n");
    for block in &f.blocks {
        if let Some(label) = &block.label {
            let _ = writeln!(out, ".{label}:");
        }
        for instr in &block.instrs {
            out.push_str("  ");
            write_instr(out, program, f, instr);
            out.push_str(";\n");
        }
    }
    out.push_str("}\n");
}

/// Whether `a` and `b` print as the same text, decided without printing:
/// the same signature and the same sequence of label and instruction lines
/// (block boundaries without a label do not print). Names are compared as
/// the printer writes them, each in its own function's tables.
pub fn function_prints_same(program: &Program, a: &Function, b: &Function) -> bool {
    let same_params = a.params.len() == b.params.len()
        && a.params
            .iter()
            .zip(&b.params)
            .all(|(p, q)| p.ty == q.ty && a.var_name(p.var) == b.var_name(q.var));
    if a.name != b.name || a.ret != b.ret || !same_params {
        return false;
    }
    let mut lines_a = printed_lines(a);
    let mut lines_b = printed_lines(b);
    loop {
        match (lines_a.next(), lines_b.next()) {
            (None, None) => return true,
            (Some(Line::Label(x)), Some(Line::Label(y))) if x == y => {}
            (Some(Line::Instr(x)), Some(Line::Instr(y))) if instr_prints_same(program, a, x, b, y) => {}
            _ => return false,
        }
    }
}

/// One printed line of a function body.
enum Line<'a> {
    Label(&'a str),
    Instr(&'a Instr),
}

fn printed_lines(f: &Function) -> impl Iterator<Item = Line<'_>> {
    f.blocks.iter().flat_map(|block| {
        block.label.as_deref().map(Line::Label).into_iter().chain(block.instrs.iter().map(Line::Instr))
    })
}

fn instr_prints_same(program: &Program, fa: &Function, a: &Instr, fb: &Function, b: &Instr) -> bool {
    let same_dest = match (a.dest, b.dest) {
        (None, None) => true,
        (Some(x), Some(y)) => x.ty == y.ty && fa.var_name(x.var) == fb.var_name(y.var),
        _ => false,
    };
    let same_value = match (a.value, b.value) {
        (None, None) => true,
        (Some(x), Some(y)) => literal_prints_same(x, y),
        _ => false,
    };
    let callee = |f: Option<FuncId>| f.map(|c| program.functions.get(c.index()).map_or("?", |g| &*g.name));
    a.op == b.op
        && same_dest
        && same_value
        && callee(a.func) == callee(b.func)
        && a.args.len() == b.args.len()
        && a.args.iter().zip(b.args.iter()).all(|(&x, &y)| fa.var_name(x) == fb.var_name(y))
        && a.labels.len() == b.labels.len()
        && a.labels.iter().zip(b.labels.iter()).all(|(&x, &y)| target_label(fa, x) == target_label(fb, y))
}

fn target_label(f: &Function, l: BlockId) -> Option<&str> {
    f.blocks.get(l.index()).and_then(|b| b.label.as_deref())
}

/// Literals print alike when they are of one kind and equal, except that
/// every NaN prints as `NaN` and 0.0 and -0.0 differ.
fn literal_prints_same(a: Literal, b: Literal) -> bool {
    match (a, b) {
        (Literal::Float(x), Literal::Float(y)) => {
            x.to_bits() == y.to_bits()
                || (x.is_nan() && y.is_nan())
                || (x.is_infinite() && y.is_infinite() && (x > 0.0) == (y > 0.0))
        }
        (Literal::Int(x), Literal::Int(y)) => x == y,
        (Literal::Bool(x), Literal::Bool(y)) => x == y,
        (Literal::Char(x), Literal::Char(y)) => x == y,
        _ => false,
    }
}

/// One instruction, without indentation or the final `;`.
pub fn instr_to_text(program: &Program, f: &Function, instr: &Instr) -> String {
    let mut out = String::new();
    write_instr(&mut out, program, f, instr);
    out
}

fn write_instr(out: &mut String, program: &Program, f: &Function, instr: &Instr) {
    if let Some(dest) = instr.dest {
        let _ = write!(out, "{}: {} = ", f.var_name(dest.var), dest.ty);
    }
    out.push_str(instr.op.name());
    if let Some(value) = instr.value {
        out.push(' ');
        write_literal(out, value);
    }
    if let Some(callee) = instr.func {
        let name = program.functions.get(callee.index()).map_or("?", |g| &*g.name);
        let _ = write!(out, " @{name}");
    }
    for &a in instr.args.iter() {
        out.push(' ');
        out.push_str(f.var_name(a));
    }
    for &l in instr.labels.iter() {
        let label = f.blocks.get(l.index()).and_then(|b| b.label.as_deref());
        let _ = write!(out, " .{}", label.unwrap_or("?"));
    }
}

/// A literal as the text format writes it; floats always re-read as floats.
pub fn write_literal(out: &mut String, value: Literal) {
    match value {
        Literal::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Literal::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Literal::Float(x) if x.is_infinite() => {
            out.push_str(if x > 0.0 { "1e999" } else { "-1e999" });
        }
        Literal::Float(x) => {
            let _ = write!(out, "{x:?}");
        }
        Literal::Char(c) => {
            out.push('\'');
            match CHAR_ESCAPES.iter().find(|(_, v)| *v == c) {
                Some((k, _)) => {
                    out.push('\\');
                    out.push(*k);
                }
                None => out.push(c),
            }
            out.push('\'');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse::parse_text;

    /// `function_prints_same` agrees with comparing the printed text, on
    /// pairs that differ in every way the printer shows or hides.
    #[test]
    fn prints_same_agrees_with_the_text() {
        let base = "@f(a: int): int {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @f a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n";
        let variants = [
            base,
            "@f(a: int): int {\n  x: float = const -0.0;\n  y: float = const 2.5;\n  b: int = call @f a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
            "@f(a: int): int {\n  x: float = const 0.0;\n  y: float = const 1e999;\n  b: int = call @f a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
            "@f(a: int): int {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @g a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
            "@f(b: int): int {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @f b;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
            "@f(a: int): int {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @f a;\n  jmp .m;\n.m:\n  ret b;\n}\n@g {\n}\n",
            "@f(a: int): int {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @f a a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
            "@f(a: int): float {\n  x: float = const 0.0;\n  y: float = const 2.5;\n  b: int = call @f a;\n  jmp .l;\n.l:\n  ret b;\n}\n@g {\n}\n",
        ];
        let programs: Vec<Program> = variants.iter().map(|v| parse_text(v).unwrap()).collect();
        for p in &programs {
            for q in &programs {
                let (f, g) = (&p.functions[0], &q.functions[0]);
                let same_text = function_to_text(p, f) == function_to_text(p, g);
                assert_eq!(function_prints_same(p, f, g), same_text, "{}\nvs\n{}", to_text(p), to_text(q));
            }
        }
        // A block boundary without a label does not print; another NaN payload neither.
        let mut p = programs[0].clone();
        std::sync::Arc::make_mut(&mut p.functions[0]).blocks[0].instrs[1].value =
            Some(Literal::Float(f64::NAN));
        let p = &p;
        let mut split = (*p.functions[0]).clone();
        let tail = split.blocks[0].instrs.split_off(2);
        split.blocks.insert(1, Block { label: None, label_pos: Pos::UNKNOWN, instrs: tail });
        split.blocks[1].instrs.last_mut().unwrap().labels = [BlockId(2)].into();
        split.blocks[0].instrs[1].value = Some(Literal::Float(f64::from_bits(f64::NAN.to_bits() | 1)));
        assert_eq!(function_to_text(p, &split), function_to_text(p, &p.functions[0]));
        assert!(function_prints_same(p, &split, &p.functions[0]));
        split.blocks[1].label = Some("k".into());
        assert!(!function_prints_same(p, &split, &p.functions[0]));
    }

    #[test]
    fn prints_canonical_text_that_reparses() {
        let src = "# ARGS: 1 2.5\n@main(a: int, x: float) {\n  b: int = const -3;\n  y: float = const 0.1;\n  z: float = const 1e300;\n  c: char = const '\\n';\n  r: int = call @f a b;\n  print r y z c;\n  jmp .end;\n  nop;\n.end:\n.dead:\n}\n@f(p: int, q: int): int {\n  s: int = add p q;\n  ret s;\n}\n";
        let p = parse_text(src).unwrap();
        let text = to_text(&p);
        assert_eq!(text, src);
        let (mut a, mut b) = (parse_text(&text).unwrap(), p);
        a.clear_positions();
        b.clear_positions();
        assert_eq!(a, b);
    }
}
