//! Fixed-parameter variants of passes that have a threshold, each a pass of
//! its own so the action space stays a flat list of flags (as CompilerGym's
//! LLVM action space lists fixed variants): the flag names the value, as
//! `-inline=10`, and the plain flag (`-inline`) keeps its default.

use super::inline::inline_up_to;
use crate::bril::ir::Program;
use crate::error::Result;

/// `-inline=10`: only the smallest callees, for little growth.
pub fn inline_10(program: &mut Program) -> Result<bool> {
    inline_up_to(program, 10)
}

/// `-inline=120`: callees up to 120 instructions.
pub fn inline_120(program: &mut Program) -> Result<bool> {
    inline_up_to(program, 120)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn the_threshold_decides_which_callees_are_copied() {
        let body: String = (0..20).map(|k| format!("  x{k}: int = add n n;\n")).collect();
        let src = format!("@main {{\n  a: int = const 1;\n  r: int = call @big a;\n  s: int = call @small a;\n  print r s;\n}}\n@big(n: int): int {{\n{body}  ret n;\n}}\n@small(n: int): int {{\n  m: int = add n n;\n  ret m;\n}}\n");
        let calls = |flagged: fn(&mut Program) -> Result<bool>| {
            let mut p = parse_text(&src).unwrap();
            assert!(flagged(&mut p).unwrap());
            let text = to_text(&p);
            let main = &text[..text.find("\n@big(").unwrap()];
            (main.contains("call @big"), main.contains("call @small"))
        };
        assert_eq!(calls(inline_10), (true, false), "only the small callee");
        assert_eq!(calls(inline_120), (false, false), "both");
    }

    #[test]
    fn semantics() {
        check_pass(&|p| inline_120(p));
        check_pass(&|p| inline_10(p));
    }
}
