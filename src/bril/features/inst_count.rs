//! `InstCount`: how many instructions of each opcode a program has.
//!
//! The vector has [`LEN`] entries in a fixed order: first the totals
//! `TotalInstsCount` (instructions, labels excluded), `TotalBlocksCount`,
//! `TotalFuncsCount`, then one `<Op>Count` per opcode in [`Op::ALL`] order
//! (`ConstCount`, `AddCount`, ... `PhiCount`). A name is the opcode's Bril
//! name in CamelCase followed by `Count`.

use crate::bril::ir::{Op, Program};

/// Number of totals before the per-opcode counters.
pub const TOTALS: usize = 3;
/// Length of the `InstCount` vector.
pub const LEN: usize = TOTALS + Op::ALL.len();

/// Feature names, in vector order.
pub const NAMES: [&str; LEN] = [
    "TotalInstsCount",
    "TotalBlocksCount",
    "TotalFuncsCount",
    "ConstCount",
    "AddCount",
    "MulCount",
    "SubCount",
    "DivCount",
    "EqCount",
    "LtCount",
    "GtCount",
    "LeCount",
    "GeCount",
    "NotCount",
    "AndCount",
    "OrCount",
    "JmpCount",
    "BrCount",
    "CallCount",
    "RetCount",
    "IdCount",
    "PrintCount",
    "NopCount",
    "AllocCount",
    "FreeCount",
    "StoreCount",
    "LoadCount",
    "PtrAddCount",
    "FaddCount",
    "FmulCount",
    "FsubCount",
    "FdivCount",
    "FeqCount",
    "FltCount",
    "FleCount",
    "FgtCount",
    "FgeCount",
    "CeqCount",
    "CltCount",
    "CleCount",
    "CgtCount",
    "CgeCount",
    "Char2IntCount",
    "Int2CharCount",
    "SetCount",
    "GetCount",
    "UndefCount",
    "PhiCount",
];

/// Names of [`normalized`]: every name but `TotalInstsCount`.
pub fn normalized_names() -> &'static [&'static str] {
    &NAMES[1..]
}

/// The position of `op`'s counter in the vector.
pub const fn index_of(op: Op) -> usize {
    // `Op::ALL` lists the variants in declaration order.
    TOTALS + op as usize
}

/// The counts, in [`NAMES`] order.
pub fn counts(program: &Program) -> [i64; LEN] {
    let mut counts = [0i64; LEN];
    counts[2] = program.functions.len() as i64;
    for f in &program.functions {
        counts[1] += f.blocks.len() as i64;
        for block in &f.blocks {
            counts[0] += block.instrs.len() as i64;
            for instr in &block.instrs {
                counts[index_of(instr.op)] += 1;
            }
        }
    }
    counts
}

/// `InstCountNorm`: every count but the first divided by the total number
/// of instructions (all zeros for a program without instructions), in
/// [`normalized_names`] order.
pub fn normalized(program: &Program) -> Vec<f64> {
    normalize(&counts(program))
}

/// [`normalized`] from counts already computed.
pub fn normalize(counts: &[i64; LEN]) -> Vec<f64> {
    let total = counts[0];
    counts[1..].iter().map(|&c| if total == 0 { 0.0 } else { c as f64 / total as f64 }).collect()
}

/// The counts as `(name, count)` pairs, in vector order.
pub fn dict(program: &Program) -> Vec<(&'static str, i64)> {
    NAMES.iter().copied().zip(counts(program)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::{generator, parse_text, suite};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn names_follow_the_opcodes() {
        for op in Op::ALL {
            let name = NAMES[index_of(op)].to_lowercase();
            assert_eq!(name, format!("{}count", op.name()), "{op}");
        }
        let unique: std::collections::HashSet<_> = NAMES.iter().collect();
        assert_eq!(unique.len(), LEN);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn counts_a_small_program() {
        let p = parse_text(
            "@main {\n  a: int = const 1;\n  b: int = add a a;\n  c: int = add a b;\n  print c;\n.x:\n}\n@f {\n  nop;\n}\n",
        )
        .unwrap();
        let c = counts(&p);
        assert_eq!(&c[..TOTALS], &[5, 3, 2]);
        assert_eq!(c[index_of(Op::Const)], 1);
        assert_eq!(c[index_of(Op::Add)], 2);
        assert_eq!(c[index_of(Op::Print)], 1);
        assert_eq!(c[index_of(Op::Nop)], 1);
        assert_eq!(c.iter().skip(TOTALS).sum::<i64>(), 5);
        let d = dict(&p);
        assert_eq!(d[index_of(Op::Add)], ("AddCount", 2));
        let norm = normalized(&p);
        assert_eq!(norm.len(), LEN - 1);
        assert_eq!(norm[index_of(Op::Add) - 1], 0.4);
        assert_eq!(normalized_names()[index_of(Op::Add) - 1], "AddCount");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn empty_program_normalises_to_zeros() {
        let p = parse_text("@main {\n}\n").unwrap();
        assert_eq!(&counts(&p)[..TOTALS], &[0, 0, 1], "an empty function has no block");
        assert!(normalized(&p).iter().all(|&x| x == 0.0));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn opcode_counts_sum_to_the_total() {
        let programs = suite::all()
            .iter()
            .map(|b| b.program().unwrap())
            .chain((0..20).map(|seed| generator::generate(seed, 40).unwrap()));
        for p in programs {
            let c = counts(&p);
            assert_eq!(c.iter().skip(TOTALS).sum::<i64>(), c[0]);
            assert_eq!(c[0], p.instr_count() as i64);
            let norm_sum: f64 = normalize(&c)[TOTALS - 1..].iter().sum();
            assert!((norm_sum - 1.0).abs() < 1e-9 || c[0] == 0);
        }
    }
}
