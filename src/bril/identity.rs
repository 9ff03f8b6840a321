//! Whether two programs are exactly the same program: the same functions,
//! names, blocks, instructions, literals (floats bit for bit, so `0.0` and
//! `-0.0` differ) and source positions. Passes are deterministic functions
//! of this whole structure, so two identical programs lead to identical
//! programs under every pass; an environment's table of states merges them
//! (see `compilers::bril::states`). [`fingerprint`] hashes what
//! [`identical`] compares but the source positions, which rarely tell two
//! programs apart alone.

use super::hash::FxHasher;
use super::ir::{Block, Function, Instr, Literal, Program};
use std::hash::Hasher;

/// A hash of the whole program: identical programs have equal fingerprints.
pub fn fingerprint(program: &Program) -> u64 {
    let mut h = FxHasher::default();
    h.write_usize(program.functions.len());
    for f in &program.functions {
        hash_function(&mut h, f);
    }
    h.finish()
}

fn hash_function(h: &mut FxHasher, f: &Function) {
    h.write(f.name.as_bytes());
    h.write_usize(f.vars.len());
    for name in &f.vars {
        h.write(name.as_bytes());
        h.write_u8(0xff);
    }
    for p in &f.params {
        h.write_u32(p.var.0);
        h.write_u16(type_word(p.ty));
    }
    h.write_u16(f.ret.map_or(u16::MAX, type_word));
    h.write_usize(f.blocks.len());
    for block in &f.blocks {
        h.write(block.label.as_deref().unwrap_or("").as_bytes());
        h.write_usize(block.instrs.len());
        for instr in &block.instrs {
            hash_instr(h, instr);
        }
    }
}

fn hash_instr(h: &mut FxHasher, instr: &Instr) {
    h.write_u8(instr.op as u8);
    if let Some(d) = instr.dest {
        h.write_u32(d.var.0);
        h.write_u16(type_word(d.ty));
    }
    for a in instr.args.iter() {
        h.write_u32(a.0);
    }
    for l in instr.labels.iter() {
        h.write_u32(l.0 | 1 << 31);
    }
    if let Some(c) = instr.func {
        h.write_u32(c.0);
    }
    if let Some(v) = instr.value {
        let (kind, word) = literal_key(v);
        h.write_u8(kind);
        h.write_u64(word);
    }
}

fn type_word(ty: super::Type) -> u16 {
    (ty.base as u16) << 8 | ty.ptr_depth as u16
}

/// A literal as its kind and one word; floats by their bits.
fn literal_key(v: Literal) -> (u8, u64) {
    match v {
        Literal::Int(i) => (0, i as u64),
        Literal::Float(x) => (1, x.to_bits()),
        Literal::Bool(b) => (2, b as u64),
        Literal::Char(c) => (3, c as u64),
    }
}

/// Whether `a` and `b` are the same program in every detail passes can see.
pub fn identical(a: &Program, b: &Program) -> bool {
    a.args == b.args
        && a.functions.len() == b.functions.len()
        && a.functions.iter().zip(&b.functions).all(|(f, g)| same_function(f, g))
}

fn same_function(f: &Function, g: &Function) -> bool {
    f.name == g.name
        && f.ret == g.ret
        && f.pos == g.pos
        && f.params == g.params
        && f.vars == g.vars
        && f.blocks.len() == g.blocks.len()
        && f.blocks.iter().zip(&g.blocks).all(|(x, y)| same_block(x, y))
}

fn same_block(x: &Block, y: &Block) -> bool {
    x.label == y.label
        && x.label_pos == y.label_pos
        && x.instrs.len() == y.instrs.len()
        && x.instrs.iter().zip(&y.instrs).all(|(i, j)| same_instr(i, j))
}

fn same_instr(i: &Instr, j: &Instr) -> bool {
    i.op == j.op
        && i.dest == j.dest
        && i.func == j.func
        && i.pos == j.pos
        && *i.args == *j.args
        && *i.labels == *j.labels
        && i.value.map(literal_key) == j.value.map(literal_key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_any;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn program(src: &str) -> Program {
        parse_any(src).expect("parses")
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_program_is_identical_to_its_copy_and_hashes_alike() {
        for b in crate::bril::suite::all() {
            let p = b.program().expect("suite program");
            let copy = p.clone();
            assert!(identical(&p, &copy), "{}", b.name);
            assert_eq!(fingerprint(&p), fingerprint(&copy), "{}", b.name);
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn every_detail_a_pass_can_see_tells_programs_apart() {
        let base = "@main {\n  x: float = const 0.0;\n  print x;\n}\n";
        let variants = [
            "@main {\n  x: float = const -0.0;\n  print x;\n}\n",
            "@main {\n  x: float = const 1.0;\n  print x;\n}\n",
            "@main {\n  y: float = const 0.0;\n  print y;\n}\n",
            "@main {\n  x: float = const 0.0;\n  print x;\n  print x;\n}\n",
            "@main {\n.l:\n  x: float = const 0.0;\n  print x;\n}\n",
            "@f {\n  x: float = const 0.0;\n  print x;\n}\n",
        ];
        let p = program(base);
        for v in variants {
            let q = program(v);
            assert!(!identical(&p, &q), "{v}");
            assert_ne!(fingerprint(&p), fingerprint(&q), "{v}");
        }
        let moved = program("@main {\n  x: float = const 0.0;\n\n  print x;\n}\n");
        assert!(!identical(&p, &moved), "positions differ");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn an_int_literal_and_a_float_literal_with_the_same_word_differ() {
        let mut a = program("@main {\n  x: float = const 0;\n  print x;\n}\n");
        let b = a.clone();
        let instr = &mut std::sync::Arc::make_mut(&mut a.functions[0]).blocks[0].instrs[0];
        let bits = match instr.value {
            Some(Literal::Int(i)) => i,
            other => panic!("an int literal, not {other:?}"),
        };
        instr.value = Some(Literal::Float(f64::from_bits(bits as u64)));
        assert!(!identical(&a, &b));
    }
}
