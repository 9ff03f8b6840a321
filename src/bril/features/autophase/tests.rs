use super::*;
use crate::bril::features::inst_count;
use crate::bril::features::testing::corpus;
use crate::bril::{parse_text, verify};
use wasm_bindgen_test::wasm_bindgen_test;

fn value(v: &[i64; LEN], f: Feature) -> i64 {
    v[f as usize]
}

/// Asserts every feature: the ones listed have the given values, the rest are 0.
fn assert_features(src: &str, expected: &[(&str, i64)]) {
    let p = parse_text(src).unwrap();
    verify(&p).unwrap();
    let v = features(&p);
    for (name, _) in expected {
        assert!(NAMES.contains(name), "unknown feature {name}");
    }
    for (i, name) in NAMES.iter().enumerate() {
        let want = expected.iter().find(|(n, _)| n == name).map_or(0, |(_, w)| *w);
        assert_eq!(v[i], want, "{name}");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn names_and_descriptions_line_up() {
    assert_eq!(LEN, 60);
    assert_eq!(Feature::ALL.len(), LEN);
    for (i, f) in Feature::ALL.iter().enumerate() {
        assert_eq!(*f as usize, i);
        assert_eq!(NAMES[i], format!("{f:?}"));
        assert!(DESCRIPTIONS[i].ends_with('.'), "{}", NAMES[i]);
    }
    let unique: std::collections::HashSet<_> = NAMES.iter().collect();
    assert_eq!(unique.len(), LEN);
}

#[wasm_bindgen_test(unsupported = test)]
fn counts_a_loop_with_a_call() {
    let src = "@main(n: int) {
  zero: int = const 0;
  one: int = const 1;
  big: int = const 5000000000;
  t: bool = const true;
  x: float = const 0;
  i: int = id zero;
.loop:
  c: bool = lt i n;
  br c .body .done;
.body:
  i: int = add i one;
  r: int = call @f i;
  jmp .loop;
.done:
  print i;
  ret;
}
@f(a: int): int {
  p: ptr<int> = alloc a;
  store p a;
  v: int = load p;
  free p;
  ret v;
}
";
    assert_features(
        src,
        &[
            ("BlocksNoPred", 2),
            ("BlocksOnePred", 2),
            ("BlocksTwoPreds", 1),
            ("BlocksNoSucc", 2),
            ("BlocksOneSucc", 2),
            ("BlocksTwoSuccs", 1),
            ("BlocksOnePredOneSucc", 1),
            ("BlocksTwoPredsTwoSuccs", 1),
            ("Edges", 4),
            ("LayoutBackEdges", 1),
            ("BlocksSmall", 5),
            ("CondBranches", 1),
            ("UncondBranches", 1),
            ("FallThroughs", 1),
            ("Returns", 2),
            ("ReturnsValue", 1),
            ("ReturnsVoid", 1),
            ("ConstZero", 1),
            ("ConstOne", 1),
            ("ConstOtherInt", 1),
            ("Const32Bit", 2),
            ("Const64Bit", 1),
            ("ConstBool", 1),
            ("ConstFloat", 1),
            ("BinaryOpsConstArg", 1),
            ("IntArith", 1),
            ("IntCompare", 1),
            ("MemAlloc", 1),
            ("MemFree", 1),
            ("MemLoad", 1),
            ("MemStore", 1),
            ("MemTotal", 4),
            ("Calls", 1),
            ("CallsWithResult", 1),
            ("IdCopies", 1),
            ("Prints", 1),
            ("PointerDefs", 1),
            ("TotalInsts", 18),
            ("TotalBlocks", 5),
            ("TotalFuncs", 2),
            ("TotalParams", 2),
            ("TotalVars", 12),
            ("MaxBlockInsts", 6),
        ],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn critical_unreachable_and_empty_blocks() {
    // b0 -> join is critical: b0 has two successors, join two predecessors.
    let src = "@main {
  c: bool = const false;
  br c .a .join;
.a:
  jmp .join;
.dead:
.join:
  ret;
}
";
    assert_features(
        src,
        &[
            ("BlocksNoPred", 2),
            ("BlocksOnePred", 1),
            ("BlocksManyPreds", 1),
            ("BlocksNoSucc", 1),
            ("BlocksOneSucc", 2),
            ("BlocksTwoSuccs", 1),
            ("BlocksOnePredOneSucc", 1),
            ("Edges", 4),
            ("CriticalEdges", 1),
            ("UnreachableBlocks", 1),
            ("EmptyBlocks", 1),
            ("BlocksSmall", 4),
            ("CondBranches", 1),
            ("UncondBranches", 1),
            ("FallThroughs", 1),
            ("Returns", 1),
            ("ReturnsVoid", 1),
            ("ConstBool", 1),
            ("TotalInsts", 4),
            ("TotalBlocks", 4),
            ("TotalFuncs", 1),
            ("TotalVars", 1),
            ("MaxBlockInsts", 2),
        ],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn ssa_joins_and_constant_operands() {
    // `k` is assigned by a const twice: still a constant variable. `m` is
    // assigned a const and an add: not one.
    let src = "@main {
  k: int = const 3;
  k: int = const 4;
  m: int = const 1;
  m: int = add m m;
  s: int = mul m k;
  u: int = sub m m;
  set r s;
  jmp .j;
.j:
  r: int = get;
  print r;
}
";
    let p = parse_text(src).unwrap();
    let v = features(&p);
    assert_eq!(value(&v, Feature::BinaryOpsConstArg), 1);
    assert_eq!(value(&v, Feature::BlocksStartingWithGet), 1);
    assert_eq!(value(&v, Feature::SsaOps), 2);
    assert_eq!(value(&v, Feature::ConstOtherInt), 2);
    assert_eq!(value(&v, Feature::IntArith), 3);
}

#[wasm_bindgen_test(unsupported = test)]
fn classes_partition_and_agree_with_inst_count() {
    use Feature::*;
    let mut scratch = Scratch::default();
    for (name, p) in corpus() {
        let v = features(&p);
        assert_eq!(features_with(&p, &mut scratch), v, "{name}: shared buffers change nothing");
        assert_eq!(features(&p), v, "{name}: deterministic");
        let sum = |fs: &[Feature]| fs.iter().map(|&f| value(&v, f)).sum::<i64>();
        let blocks = value(&v, TotalBlocks);
        assert_eq!(sum(&[BlocksNoPred, BlocksOnePred, BlocksTwoPreds, BlocksManyPreds]), blocks, "{name}");
        assert_eq!(sum(&[BlocksNoSucc, BlocksOneSucc, BlocksTwoSuccs]), blocks, "{name}");
        assert_eq!(sum(&[BlocksSmall, BlocksMid, BlocksLarge]), blocks, "{name}");
        assert_eq!(sum(&[ReturnsValue, ReturnsVoid]), value(&v, Returns), "{name}");
        assert_eq!(sum(&[ConstZero, ConstOne, ConstOtherInt]), sum(&[Const32Bit, Const64Bit]), "{name}");
        assert_eq!(sum(&[MemAlloc, MemFree, MemLoad, MemStore, MemPtrAdd]), value(&v, MemTotal), "{name}");
        assert!(value(&v, CriticalEdges) <= value(&v, Edges));
        assert!(value(&v, UnreachableBlocks) < blocks.max(1));

        let preds: usize = p.functions.iter().flat_map(|f| f.predecessors()).map(|ps| ps.len()).sum();
        assert_eq!(value(&v, Edges), preds as i64, "{name}");

        let c = inst_count::counts(&p);
        let count = |op: Op| c[inst_count::index_of(op)];
        assert_eq!(value(&v, TotalInsts), c[0], "{name}");
        assert_eq!(value(&v, TotalFuncs), c[2], "{name}");
        assert_eq!(value(&v, CondBranches), count(Op::Br), "{name}");
        assert_eq!(value(&v, UncondBranches), count(Op::Jmp), "{name}");
        assert_eq!(value(&v, Calls), count(Op::Call), "{name}");
        let consts = sum(&[ConstZero, ConstOne, ConstOtherInt, ConstBool, ConstFloat, ConstChar]);
        assert_eq!(consts, count(Op::Const), "{name}");
        assert_eq!(dict(&p).iter().map(|(_, x)| *x).collect::<Vec<_>>(), v.to_vec());
    }
}
