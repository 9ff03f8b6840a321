//! The block graph of one function in flat, reusable buffers: distinct
//! successors and predecessor counts per block. Features walk every block
//! of every function, so this avoids `Function::predecessors`' vector of
//! vectors and allocates only when a function is larger than any before.

use crate::bril::ir::{Function, Op};

/// At most two distinct successors: a `br` has two targets, a `jmp` or a
/// fall-through one, a `ret` none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Succs {
    len: u8,
    items: [u32; 2],
}

impl Succs {
    pub fn as_slice(&self) -> &[u32] {
        &self.items[..usize::from(self.len)]
    }
    fn push_distinct(&mut self, block: u32) {
        if !self.as_slice().contains(&block) && usize::from(self.len) < self.items.len() {
            self.items[usize::from(self.len)] = block;
            self.len += 1;
        }
    }
}

/// Successors and predecessor counts of every block of a function.
#[derive(Clone, Debug, Default)]
pub struct BlockShape {
    pub succs: Vec<Succs>,
    /// Distinct predecessor blocks of each block.
    pub pred_count: Vec<u32>,
}

impl BlockShape {
    /// Fills the buffers for `f`, reusing their memory.
    pub fn compute(&mut self, f: &Function) {
        let n = f.blocks.len();
        self.succs.clear();
        self.succs.resize(n, Succs::default());
        self.pred_count.clear();
        self.pred_count.resize(n, 0);
        for (b, block) in f.blocks.iter().enumerate() {
            let succs = &mut self.succs[b];
            match block.terminator() {
                Some(t) if t.op == Op::Ret => {}
                Some(t) => {
                    // Readers resolve every label, but a pass could leave a
                    // stale one: ignore targets outside the function.
                    for l in t.labels.iter().filter(|l| l.index() < n) {
                        succs.push_distinct(l.0);
                    }
                }
                None if b + 1 < n => succs.push_distinct((b + 1) as u32),
                None => {}
            }
            for &s in self.succs[b].as_slice() {
                self.pred_count[s as usize] += 1;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.succs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn matches_the_ir_cfg_helpers() {
        let p = parse_text(
            "@main {\n  c: bool = const true;\n  br c .a .a;\n.a:\n  br c .b .end;\n.b:\n  jmp .a;\n.end:\n  ret;\n.dead:\n}\n",
        )
        .unwrap();
        let f = &p.functions[0];
        let mut shape = BlockShape::default();
        shape.compute(f);
        assert_eq!(shape.succs[0].as_slice(), &[1], "a br to one label twice has one successor");
        assert_eq!(shape.succs[1].as_slice(), &[2, 3]);
        assert!(shape.succs[3].as_slice().is_empty() && shape.succs[4].as_slice().is_empty());
        let preds = f.predecessors();
        for (b, ps) in preds.iter().enumerate() {
            assert_eq!(shape.pred_count[b] as usize, ps.len(), "block {b}");
        }
    }
}
