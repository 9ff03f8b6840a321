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
