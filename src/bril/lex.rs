//! Tokens of the Bril text format, with the line and column of each.

use super::ir::Pos;
use crate::error::{Error, ErrorKind, Result};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok<'a> {
    /// A name: variable, opcode, type, `true`/`false`.
    Ident(&'a str),
    /// `@name`, without the `@`.
    Func(&'a str),
    /// `.name`, without the `.`.
    Label(&'a str),
    /// An integer literal as written (with its sign).
    Int(&'a str),
    /// A decimal or exponent literal as written.
    Float(&'a str),
    Char(char),
    /// One of `: = ; { } ( ) , < >`.
    Punct(char),
    Eof,
}

impl Tok<'_> {
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Func(s) => format!("'@{s}'"),
            Tok::Label(s) => format!("'.{s}'"),
            Tok::Int(s) | Tok::Float(s) => format!("number {s}"),
            Tok::Char(c) => format!("char literal {c:?}"),
            Tok::Punct(c) => format!("'{c}'"),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub tok: Tok<'a>,
    pub pos: Pos,
    /// Where the token ends: the position just after its last character.
    pub end: Pos,
}

pub(crate) struct Lexer<'a> {
    src: &'a str,
    at: usize,
    line: u32,
    col: u32,
    /// The arguments of the first `# ARGS:` comment seen.
    pub args: Option<Vec<String>>,
}

pub(crate) fn error_at(pos: Pos, message: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Parse, format!("{pos}: {message}"))
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'%'
}

/// Bytes that may continue an identifier, as a lookup table.
static IDENT_CONTINUE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'_' || c == b'%' || c == b'.';
        i += 1;
    }
    t
};

#[inline]
fn is_ident_continue(c: u8) -> bool {
    IDENT_CONTINUE[c as usize]
}

/// The escapes a char literal may use (as `bril2json` reads them).
pub(crate) const CHAR_ESCAPES: [(char, char); 8] = [
    ('0', '\0'),
    ('a', '\x07'),
    ('b', '\x08'),
    ('t', '\t'),
    ('n', '\n'),
    ('v', '\x0b'),
    ('f', '\x0c'),
    ('r', '\r'),
];

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src, at: 0, line: 1, col: 1, args: None }
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.at + ahead).copied()
    }

    /// Advances over `n` bytes, which must not contain a newline.
    fn bump(&mut self, n: usize) {
        let end = (self.at + n).min(self.src.len());
        // Columns count characters, not bytes.
        let chars = self.src.as_bytes()[self.at..end].iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        self.col = self.col.saturating_add(chars as u32);
        self.at = end;
    }

    fn pos(&self) -> Pos {
        Pos::new(self.line, self.col)
    }

    fn skip_trivia(&mut self) {
        while let Some(b) = self.peek_byte(0) {
            match b {
                b'\n' => {
                    self.at += 1;
                    self.line = self.line.saturating_add(1);
                    self.col = 1;
                }
                b' ' | b'\t' | b'\r' | b'\x0c' => self.bump(1),
                b'#' => {
                    let rest = &self.src[self.at..];
                    let len = rest.find('\n').unwrap_or(rest.len());
                    let comment = &rest[1..len];
                    if self.args.is_none() {
                        if let Some(args) = comment.trim_start().strip_prefix("ARGS:") {
                            self.args = Some(args.split_whitespace().map(String::from).collect());
                        }
                    }
                    // The column is reset by the newline that ends the comment.
                    self.at += len;
                }
                _ => break,
            }
        }
    }

    /// Takes ASCII bytes from `self.at` through those from `from` that satisfy `pred`.
    fn take_while(&mut self, from: usize, pred: impl Fn(u8) -> bool) -> &'a str {
        let bytes = self.src.as_bytes();
        let mut end = from;
        while end < bytes.len() && pred(bytes[end]) {
            end += 1;
        }
        let text = &self.src[self.at..end];
        // Only ASCII was taken: one column per byte.
        self.col = self.col.saturating_add((end - self.at) as u32);
        self.at = end;
        text
    }

    pub fn next_token(&mut self) -> Result<Token<'a>> {
        self.skip_trivia();
        let pos = self.pos();
        let Some(b) = self.peek_byte(0) else {
            return Ok(Token { tok: Tok::Eof, pos, end: pos });
        };
        let tok = match b {
            b':' | b'=' | b';' | b'{' | b'}' | b'(' | b')' | b',' | b'<' | b'>' => {
                self.bump(1);
                Tok::Punct(b as char)
            }
            b'@' | b'.' if self.peek_byte(1).is_some_and(is_ident_start) => {
                let name = &self.take_while(self.at + 1, is_ident_continue)[1..];
                if b == b'@' {
                    Tok::Func(name)
                } else {
                    Tok::Label(name)
                }
            }
            b'\'' => self.char_literal(pos)?,
            _ if is_ident_start(b) => Tok::Ident(self.take_while(self.at, is_ident_continue)),
            b'0'..=b'9' | b'.' | b'+' | b'-' => self.number(pos)?,
            _ => {
                let c = self.src[self.at..].chars().next().unwrap_or('?');
                return Err(error_at(pos, format!("unexpected character {c:?}")));
            }
        };
        Ok(Token { tok, pos, end: self.pos() })
    }

    fn char_literal(&mut self, pos: Pos) -> Result<Tok<'a>> {
        let rest = &self.src[self.at + 1..];
        let mut chars = rest.chars();
        let (value, len) = match (chars.next(), chars.next(), chars.next()) {
            (Some('\\'), Some(e), Some('\'')) => match CHAR_ESCAPES.iter().find(|(k, _)| *k == e) {
                Some(&(_, c)) => (c, 3),
                None => return Err(error_at(pos, format!("unknown char escape \\{e}"))),
            },
            (Some(c), Some('\''), _) if c != '\n' => (c, c.len_utf8() + 1),
            _ => return Err(error_at(pos, "a char literal is one character in single quotes")),
        };
        self.bump(1 + len);
        Ok(Tok::Char(value))
    }

    fn number(&mut self, pos: Pos) -> Result<Tok<'a>> {
        let bytes = self.src.as_bytes();
        let start = self.at;
        let mut end = start;
        if matches!(bytes.get(end), Some(b'+' | b'-')) {
            end += 1;
        }
        let digits = |mut i: usize| {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let int_end = digits(end);
        let has_int_digits = int_end > end;
        let mut is_float = false;
        end = int_end;
        if bytes.get(end) == Some(&b'.') {
            let frac_end = digits(end + 1);
            if has_int_digits || frac_end > end + 1 {
                is_float = true;
                end = frac_end;
            }
        }
        if !bytes[start..end].iter().any(u8::is_ascii_digit) {
            return Err(error_at(pos, "expected a number"));
        }
        if matches!(bytes.get(end), Some(b'e' | b'E')) {
            let mut e = end + 1;
            if matches!(bytes.get(e), Some(b'+' | b'-')) {
                e += 1;
            }
            let exp_end = digits(e);
            if exp_end > e {
                is_float = true;
                end = exp_end;
            }
        }
        let text = &self.src[start..end];
        self.bump(end - start);
        Ok(if is_float { Tok::Float(text) } else { Tok::Int(text) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok<'_>> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.tok == Tok::Eof {
                return out;
            }
            out.push(t.tok);
        }
    }

    #[test]
    fn tokens_of_an_instruction() {
        assert_eq!(
            toks("v.1: ptr<int> = call @f a .l; # note"),
            vec![
                Tok::Ident("v.1"),
                Tok::Punct(':'),
                Tok::Ident("ptr"),
                Tok::Punct('<'),
                Tok::Ident("int"),
                Tok::Punct('>'),
                Tok::Punct('='),
                Tok::Ident("call"),
                Tok::Func("f"),
                Tok::Ident("a"),
                Tok::Label("l"),
                Tok::Punct(';'),
            ]
        );
    }

    #[test]
    fn number_forms() {
        assert_eq!(
            toks("-5 +3 1.5 -.25 2. 1e9 7E-2"),
            vec![
                Tok::Int("-5"),
                Tok::Int("+3"),
                Tok::Float("1.5"),
                Tok::Float("-.25"),
                Tok::Float("2."),
                Tok::Float("1e9"),
                Tok::Float("7E-2"),
            ]
        );
    }

    #[test]
    fn char_literals_and_escapes() {
        assert_eq!(
            toks(r"'a' '\n' ''' 'é'"),
            vec![Tok::Char('a'), Tok::Char('\n'), Tok::Char('\''), Tok::Char('é')]
        );
        assert!(Lexer::new("'ab'").next_token().is_err());
    }

    #[test]
    fn args_comment_and_positions() {
        let mut lx = Lexer::new("# ARGS: 3 -1 true\n\n  @main");
        let t = lx.next_token().unwrap();
        assert_eq!(t.tok, Tok::Func("main"));
        assert_eq!(t.pos, Pos::new(3, 3));
        assert_eq!(lx.args, Some(vec!["3".into(), "-1".into(), "true".into()]));
        let mut lx = Lexer::new("#ARGS: 64 24\n");
        lx.next_token().unwrap();
        assert_eq!(lx.args, Some(vec!["64".into(), "24".into()]));
    }
}
