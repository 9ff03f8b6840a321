//! The Bril text format parser (what `bril2json` reads).
//!
//! ```text
//! program := function*
//! function := @name [ "(" [param ("," param)*] ")" ] [":" type] "{" item* "}"
//! item := .label ":" | var ":" type "=" "const" literal ";"
//!       | var ":" type "=" op (var | @func | .label)* ";" | op (var | @func | .label)* ";"
//! type := name | "ptr" "<" type ">"
//! ```
//! Comments run from `#` to the end of the line; the first `# ARGS:` comment
//! becomes [`Program::args`]. Every error carries a line:column.

use super::assemble::{assemble, RawFunction, RawInstr, RawItem, RawProgram};
use super::ir::{BaseType, Literal, Op, Pos, Program, Type};
use super::lex::{error_at, Lexer, Tok, Token};
use super::types::MAX_PTR_DEPTH;
use crate::error::Result;

/// Parses Bril text into the IR.
pub fn parse_text(src: &str) -> Result<Program> {
    parse(src, None)
}

/// Where each syntax object of a program's text ends, as `bril2json -pp`
/// reports it (the position just after its last character): for each
/// function in order, its signature, then each of its labels and
/// instructions in order. The IR keeps only where things start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceEnds(pub Vec<Pos>);

/// [`parse_text`], also giving where each function, label and instruction ends.
pub fn parse_text_with_ends(src: &str) -> Result<(Program, SourceEnds)> {
    let mut ends = Vec::new();
    let program = parse(src, Some(&mut ends))?;
    Ok((program, SourceEnds(ends)))
}

fn parse(src: &str, ends: Option<&mut Vec<Pos>>) -> Result<Program> {
    let mut p = Parser::new(src)?;
    p.ends = ends;
    let mut functions = Vec::new();
    while p.peek.tok != Tok::Eof {
        functions.push(p.function()?);
    }
    assemble(RawProgram { functions, args: p.lexer.args.take() })
}

struct Parser<'a, 'e> {
    lexer: Lexer<'a>,
    peek: Token<'a>,
    /// Where the last token taken ends.
    last_end: Pos,
    ends: Option<&'e mut Vec<Pos>>,
}

impl<'a> Parser<'a, '_> {
    fn new(src: &'a str) -> Result<Self> {
        let mut lexer = Lexer::new(src);
        let peek = lexer.next_token()?;
        Ok(Parser { lexer, peek, last_end: Pos::UNKNOWN, ends: None })
    }

    fn advance(&mut self) -> Result<Token<'a>> {
        let next = self.lexer.next_token()?;
        let taken = std::mem::replace(&mut self.peek, next);
        self.last_end = taken.end;
        Ok(taken)
    }

    /// Notes that a function signature, label or instruction ends here.
    fn ended(&mut self) {
        if let Some(ends) = self.ends.as_mut() {
            ends.push(self.last_end);
        }
    }

    fn unexpected<T>(&self, wanted: &str) -> Result<T> {
        Err(error_at(self.peek.pos, format!("expected {wanted}, found {}", self.peek.tok.describe())))
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek.tok == Tok::Punct(c)
    }

    fn expect_punct(&mut self, c: char) -> Result<Pos> {
        if self.is_punct(c) {
            Ok(self.advance()?.pos)
        } else {
            self.unexpected(&format!("'{c}'"))
        }
    }

    fn ident(&mut self, wanted: &str) -> Result<(&'a str, Pos)> {
        match self.peek.tok {
            Tok::Ident(name) => {
                let pos = self.advance()?.pos;
                Ok((name, pos))
            }
            _ => self.unexpected(wanted),
        }
    }

    fn function(&mut self) -> Result<RawFunction<'a>> {
        let (name, pos) = match self.peek.tok {
            Tok::Func(name) => (name, self.advance()?.pos),
            _ => return self.unexpected("a function (@name)"),
        };
        let mut params = Vec::new();
        if self.is_punct('(') {
            self.advance()?;
            if !self.is_punct(')') {
                loop {
                    let (param, _) = self.ident("a parameter name")?;
                    self.expect_punct(':')?;
                    params.push((param.into(), self.ty()?));
                    if !self.is_punct(',') {
                        break;
                    }
                    self.advance()?;
                }
            }
            self.expect_punct(')')?;
        }
        let ret = if self.is_punct(':') {
            self.advance()?;
            Some(self.ty()?)
        } else {
            None
        };
        self.ended();
        self.expect_punct('{')?;
        let mut items = Vec::new();
        while !self.is_punct('}') {
            items.push(self.item()?);
        }
        self.advance()?;
        Ok(RawFunction { name: name.into(), params, ret, items, pos })
    }

    fn ty(&mut self) -> Result<Type> {
        let mut depth = 0u8;
        loop {
            let (name, pos) = self.ident("a type")?;
            if name == "ptr" {
                if depth >= MAX_PTR_DEPTH {
                    return Err(error_at(pos, "pointer type nested too deeply"));
                }
                depth += 1;
                self.expect_punct('<')?;
                continue;
            }
            let Some(base) = BaseType::from_name(name) else {
                return Err(error_at(pos, format!("unknown type {name}")));
            };
            for _ in 0..depth {
                self.expect_punct('>')?;
            }
            return Ok(Type { base, ptr_depth: depth });
        }
    }

    fn item(&mut self) -> Result<RawItem<'a>> {
        if let Tok::Label(name) = self.peek.tok {
            let pos = self.advance()?.pos;
            self.expect_punct(':')?;
            self.ended();
            return Ok(RawItem::Label(name.into(), pos));
        }
        let (first, pos) = self.ident("an instruction or label")?;
        let mut instr = if self.is_punct(':') || self.is_punct('=') {
            if self.is_punct('=') {
                return self.unexpected("':' and a type after the destination");
            }
            self.advance()?;
            let ty = self.ty()?;
            self.expect_punct('=')?;
            let (op_name, op_pos) = self.ident("an opcode")?;
            let mut instr = RawInstr::new(opcode(op_name, op_pos)?, pos);
            instr.dest = Some((first.into(), ty));
            if instr.op == Op::Const {
                instr.value = Some(self.literal()?);
                // A constant takes nothing after its literal: name the missing
                // ';' here rather than read the next line as arguments.
                if !self.is_punct(';') {
                    return self.unexpected("';' after the constant");
                }
            }
            instr
        } else {
            RawInstr::new(opcode(first, pos)?, pos)
        };
        loop {
            match self.peek.tok {
                Tok::Ident(a) => instr.args.push(a.into()),
                Tok::Func(f) => instr.funcs.push(f.into()),
                Tok::Label(l) => instr.labels.push(l.into()),
                Tok::Punct(';') => break,
                _ => return self.unexpected("an argument or ';'"),
            }
            self.advance()?;
        }
        self.advance()?;
        self.ended();
        Ok(RawItem::Instr(instr))
    }

    fn literal(&mut self) -> Result<Literal> {
        let pos = self.peek.pos;
        let lit = match self.peek.tok {
            Tok::Int(text) => match text.parse::<i64>() {
                Ok(i) => Literal::Int(i),
                Err(_) => return Err(error_at(pos, format!("integer {text} out of range"))),
            },
            Tok::Float(text) => match text.parse::<f64>() {
                Ok(x) => Literal::Float(x),
                Err(_) => return Err(error_at(pos, format!("bad float {text}"))),
            },
            Tok::Ident("true") => Literal::Bool(true),
            Tok::Ident("false") => Literal::Bool(false),
            Tok::Char(c) => Literal::Char(c),
            _ => return self.unexpected("a literal"),
        };
        self.advance()?;
        Ok(lit)
    }
}

fn opcode(name: &str, pos: Pos) -> Result<Op> {
    Op::from_name(name).ok_or_else(|| error_at(pos, format!("unknown opcode {name}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::ir::{BlockId, Dest};
    use crate::ErrorKind;

    #[test]
    fn parses_a_function_with_blocks() {
        let p = parse_text(
            "# ARGS: 5\n@main(n: int): int {\n  one: int = const 1;\n  c: bool = lt n one;\n  br c .a .b;\n.a:\n  ret one;\n  print n;\n.b:\n.c:\n  ret n;\n}\n",
        )
        .unwrap();
        assert_eq!(p.args, Some(vec!["5".to_string()]));
        let f = &p.functions[0];
        assert_eq!(f.params.len(), 1);
        assert_eq!(f.ret, Some(Type::INT));
        let labels: Vec<_> = f.blocks.iter().map(|b| b.label.as_deref()).collect();
        assert_eq!(labels, vec![None, Some("a"), None, Some("b"), Some("c")]);
        assert_eq!(&*f.blocks[0].instrs[2].labels, &[BlockId(1), BlockId(3)]);
        assert!(f.blocks[3].instrs.is_empty());
        let one = f.var_named("one").unwrap();
        assert_eq!(f.blocks[0].instrs[0].dest, Some(Dest { var: one, ty: Type::INT }));
        assert_eq!(f.blocks[0].instrs[1].pos, Pos::new(4, 3));
    }

    #[test]
    fn literals_keep_their_form() {
        let p = parse_text(
            "@main {\n a: float = const 0;\n b: float = const 2.5;\n c: char = const '\\t';\n d: bool = const false;\n e: ptr<ptr<float>> = alloc a;\n}",
        )
        .unwrap();
        let vals: Vec<_> = p.functions[0].instrs().map(|i| i.value).collect();
        assert_eq!(
            vals,
            vec![
                Some(Literal::Int(0)),
                Some(Literal::Float(2.5)),
                Some(Literal::Char('\t')),
                Some(Literal::Bool(false)),
                None
            ]
        );
        let last = p.functions[0].instrs().last().unwrap();
        assert_eq!(last.dest.unwrap().ty.to_string(), "ptr<ptr<float>>");
    }

    #[test]
    fn errors_have_positions() {
        let cases = [
            ("@main {\n  x: int = frob y;\n}", "2:12", ErrorKind::Parse),
            ("@main {\n  x: int = const 1\n}", "3:1", ErrorKind::Parse),
            ("@main {\n  a: int = const 1\n  print a;\n}", "3:3", ErrorKind::Parse),
            ("@main {\n  jmp .nowhere;\n}", "2:3", ErrorKind::Verify),
            ("@main {\n  x: ptr<int = const 1;\n}", "2:14", ErrorKind::Parse),
            ("@main {\n  x: int = const 99999999999999999999;\n}", "2:18", ErrorKind::Parse),
            ("@main {\n  call @g;\n}", "2:3", ErrorKind::Verify),
            ("@main {\n  x = id y;\n}", "2:5", ErrorKind::Parse),
        ];
        for (src, pos, kind) in cases {
            let e = parse_text(src).unwrap_err();
            assert_eq!(e.kind(), kind, "{src}: {e}");
            assert!(e.message().contains(pos), "{src}: {e}");
        }
    }

    #[test]
    fn a_constant_without_its_semicolon_names_the_semicolon() {
        let e = parse_text("@main {\n  a: int = const 1\n  print a;\n}").unwrap_err();
        assert!(e.message().contains("expected ';' after the constant, found"), "{e}");
    }

    #[test]
    fn garbage_never_panics() {
        let samples = [
            "@main(a: int, b: ptr<bool>): float { .l: x: int = const 'a'; br x .l .l; }",
            "@f { v: int = call @f @f; }",
            "@main { x: char = const '\\q'; }",
            "'",
            "@",
            ".",
            "-",
            "@main(",
            "@main { .x",
            "@main { x: int = const",
            "\u{feff}@é",
        ];
        for s in samples {
            let _ = parse_text(s);
            for cut in 0..s.len() {
                if s.is_char_boundary(cut) {
                    let _ = parse_text(&s[..cut]);
                }
            }
        }
        let mut rng = crate::Rng::seed_from_u64(7);
        let alphabet = b"@.:;={}()<>, \n#'abx01-+eptr";
        for _ in 0..2000 {
            let len = rng.index(40);
            let s: String = (0..len).map(|_| alphabet[rng.index(alphabet.len())] as char).collect();
            let _ = parse_text(&s);
        }
    }
}
