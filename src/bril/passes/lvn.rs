//! `-lvn`: local value numbering, one basic block at a time, with constant
//! folding, copy propagation and commutativity.
//!
//! Each value computed in a block gets a number; an instruction recomputing a
//! known value becomes a copy of a variable holding it, one whose operands are
//! all constants becomes a `const`, and every read is redirected to the
//! earliest variable still holding its value. Only operations that cannot
//! fail and have no effect are numbered (calls, memory, `div` by a possibly
//! zero divisor get fresh numbers), so no effect is added, removed or
//! reordered. A definition overwritten later in the block is renamed to a
//! fresh variable so its value stays available; the last definition keeps its
//! name, so later blocks read what they read before. Variables holding one
//! constant on every path to every read (see [`super::facts`]) fold too. An
//! instruction reading a variable maybe undefined there stays exactly as it
//! is (its read fails, see [`MaybeUndefinedReads`]); its result is a new value.

use crate::bril::hash::FxHashMap;

use super::facts::global_constants;
use super::fold::{cannot_fail, eval, Value};
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::ir::{BlockId, Function, Instr, List, Op, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::error::{Error, ErrorKind, Result};

/// Rounds per function: renaming and folding can turn variables into
/// constants known everywhere, which the next round folds further.
const MAX_ROUNDS: usize = 4;

pub fn lvn(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    for f in &mut program.functions {
        for _ in 0..MAX_ROUNDS {
            if !number_function(f)? {
                break;
            }
            changed = true;
        }
    }
    Ok(changed)
}

fn number_function(f: &mut Function) -> Result<bool> {
    let globals = global_constants(f);
    let failing = MaybeUndefinedReads::of(f);
    let mut names: Option<FreshNames> = None;
    let mut changed = false;
    for b in 0..f.blocks.len() {
        let before = std::mem::take(&mut f.blocks[b].instrs);
        let may_fail = |i: usize| failing.at(BlockId::new(b), i);
        let after = number_block(f, &mut names, &before, &globals, may_fail)?;
        changed |= after != before;
        f.blocks[b].instrs = after;
    }
    Ok(changed)
}

type Num = usize;

/// What identifies a value: a constant, or an operation on value numbers.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Const(Value),
    Op(Op, Type, List<Num>),
}

#[derive(Default)]
struct Table {
    by_key: FxHashMap<Key, Num>,
    /// The constant each number stands for, if known.
    constant: Vec<Option<Value>>,
    /// The variables that took each number, earliest first, with the write
    /// that gave it; those since overwritten are skipped (and dropped from
    /// the front) when asked, so an overwrite costs O(1).
    holders: Vec<Vec<(VarId, u32)>>,
    /// How many entries at the front of each `holders` list are stale.
    stale: Vec<usize>,
    /// The number a read of each variable name gives at this point.
    name_num: FxHashMap<VarId, Num>,
    /// The number each actual variable currently holds, and the write that gave it.
    held: FxHashMap<VarId, (Num, u32)>,
    writes: u32,
}

impl Table {
    fn fresh(&mut self, constant: Option<Value>) -> Num {
        self.constant.push(constant);
        self.holders.push(Vec::new());
        self.stale.push(0);
        self.constant.len() - 1
    }

    /// Records that `var` now holds `n`.
    fn hold(&mut self, var: VarId, n: Num) {
        self.writes += 1;
        self.held.insert(var, (n, self.writes));
        self.holders[n].push((var, self.writes));
    }

    /// The earliest variable still holding `n`.
    fn first_holder(&mut self, n: Num) -> Option<VarId> {
        let list = &self.holders[n];
        let mut k = self.stale[n];
        while let Some(&(v, w)) = list.get(k) {
            if self.held.get(&v) == Some(&(n, w)) {
                self.stale[n] = k;
                return Some(v);
            }
            k += 1;
        }
        self.stale[n] = k;
        None
    }

    /// The number of `key`, made fresh when the key is new.
    fn number(&mut self, key: Key) -> Num {
        if let Some(&n) = self.by_key.get(&key) {
            return n;
        }
        let constant = match &key {
            Key::Const(v) => Some(*v),
            Key::Op(..) => None,
        };
        let n = self.fresh(constant);
        self.by_key.insert(key, n);
        n
    }

    /// The number a read of `var` gives; a value from before the block gets
    /// a fresh number held by the variable itself, and the constant `var`
    /// holds everywhere, if any (used for folding only: the variable is
    /// never read in new places, where it might not be defined).
    fn read(&mut self, var: VarId, globals: &[Option<Value>]) -> Num {
        if let Some(&n) = self.name_num.get(&var) {
            return n;
        }
        let n = self.fresh(globals.get(var.index()).copied().flatten());
        self.hold(var, n);
        self.name_num.insert(var, n);
        n
    }

    /// Records that `actual` (the variable really written) now holds `n`,
    /// and that reads of `name` give `n`.
    fn write(&mut self, name: VarId, actual: VarId, n: Num) {
        self.hold(actual, n);
        self.name_num.insert(name, n);
    }

    fn holder(&mut self, n: Num) -> Result<VarId> {
        self.first_holder(n)
            .ok_or_else(|| Error::new(ErrorKind::Service, "lvn: a value lost every variable holding it"))
    }
}

fn number_block(
    f: &mut Function,
    names: &mut Option<FreshNames>,
    instrs: &[Instr],
    globals: &[Option<Value>],
    may_fail: impl Fn(usize) -> bool,
) -> Result<Vec<Instr>> {
    let mut last_def: FxHashMap<VarId, usize> = FxHashMap::default();
    for (i, instr) in instrs.iter().enumerate() {
        if let Some(d) = instr.def() {
            last_def.insert(d, i);
        }
    }
    let mut table = Table::default();
    let mut out = Vec::with_capacity(instrs.len());
    for (i, original) in instrs.iter().enumerate() {
        let mut instr = original.clone();
        let mut nums: List<Num> = List::new();
        for u in instr.uses_mut() {
            let n = table.read(*u, globals);
            *u = table.holder(n)?;
            nums.push(n);
        }
        let Some(dest) = instr.dest else {
            out.push(instr);
            continue;
        };
        if may_fail(i) {
            // The instruction stays (a variable it reads may be undefined, and
            // is only ever held by itself, so it keeps its name); its result
            // is a value of its own.
            let n = table.fresh(None);
            let actual = rename_unless_last(f, names, &last_def, &mut instr, i);
            table.write(dest.var, actual, n);
            out.push(instr);
            continue;
        }
        let (n, known) = value_number(&mut table, &instr, &nums);
        if let Some(new) = simplified(&mut table, &instr, n, known)? {
            instr = new;
        }
        let is_self_copy = instr.op == Op::Id && instr.args.first() == Some(&dest.var);
        if is_self_copy && table.held.get(&dest.var).map(|&(held, _)| held) == Some(n) {
            // `x = id x` while x already holds the value: nothing to do.
            table.name_num.insert(dest.var, n);
            continue;
        }
        let actual = rename_unless_last(f, names, &last_def, &mut instr, i);
        table.write(dest.var, actual, n);
        out.push(instr);
    }
    Ok(out)
}

/// The variable instruction `i` really writes: its destination when that is
/// the block's last write of it, else a fresh variable (so the value stays
/// available after the overwrite), which `instr` is changed to write.
fn rename_unless_last(
    f: &mut Function,
    names: &mut Option<FreshNames>,
    last_def: &FxHashMap<VarId, usize>,
    instr: &mut Instr,
    i: usize,
) -> VarId {
    let Some(dest) = instr.dest.as_mut() else { return VarId::default() };
    if last_def.get(&dest.var) != Some(&i) {
        let name = f.var_name(dest.var).to_string();
        dest.var = names.get_or_insert_with(|| FreshNames::vars(f)).fresh_var(f, &name);
    }
    dest.var
}

/// The value number of `instr`'s result, and whether that value was already
/// known (available in a variable or constant) before this instruction.
fn value_number(table: &mut Table, instr: &Instr, nums: &[Num]) -> (Num, bool) {
    let ty = instr.dest.map_or(Type::INT, |d| d.ty);
    let consts: Vec<Option<Value>> = nums.iter().map(|&n| table.constant[n]).collect();
    let key = match instr.op {
        // (Verified programs give `id` one argument; an unverified one is not worth a panic.)
        Op::Id => return nums.first().map_or_else(|| (table.fresh(None), false), |&n| (n, true)),
        Op::Const => match instr.value.and_then(|lit| Value::from_literal(lit, ty)) {
            Some(v) => Key::Const(v),
            None => return (table.fresh(None), false),
        },
        op if cannot_fail(op, &consts) => {
            let folded = consts.iter().copied().collect::<Option<Vec<Value>>>().and_then(|c| eval(op, &c));
            match folded {
                Some(v) => Key::Const(v),
                None => {
                    let mut args = List::from(nums);
                    if op.is_commutative() {
                        args.sort_unstable();
                    }
                    Key::Op(op, ty, args)
                }
            }
        }
        _ => return (table.fresh(None), false),
    };
    let known = match table.by_key.get(&key) {
        Some(&n) => table.first_holder(n).is_some(),
        None => false,
    };
    let n = table.number(key);
    (n, known || table.constant[n].is_some())
}

/// The cheaper instruction computing value `n`, if there is one: a `const`
/// for a known constant, else a copy of a variable already holding it.
fn simplified(table: &mut Table, instr: &Instr, n: Num, known: bool) -> Result<Option<Instr>> {
    let Some(dest) = instr.dest else { return Ok(None) };
    if instr.op == Op::Const || !known {
        return Ok(None);
    }
    if let Some((lit, ty)) = table.constant[n].and_then(Value::to_const) {
        if ty == dest.ty {
            return Ok(Some(Instr::constant(dest.var, ty, lit).with_pos(instr.pos)));
        }
    }
    if instr.op == Op::Id {
        return Ok(None);
    }
    let h = table.holder(n)?;
    Ok(Some(Instr::value(Op::Id, dest.var, dest.ty, &[h]).with_pos(instr.pos)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn run(src: &str) -> String {
        let mut p = parse_text(src).unwrap();
        lvn(&mut p).unwrap();
        to_text(&p)
    }

    fn body(text: &str) -> Vec<&str> {
        text.lines().filter(|l| l.starts_with("  ")).map(str::trim).collect()
    }

    #[test]
    fn commuted_recomputation_becomes_a_copy_and_reads_follow_it() {
        let text = run("@main(x: int, y: int) {\n  a: int = add x y;\n  b: int = add y x;\n  print b;\n}");
        assert_eq!(body(&text), ["a: int = add x y;", "b: int = id a;", "print a;"]);
    }

    #[test]
    fn folds_constants_of_every_type() {
        let text = run(
            "@main {\n  a: int = const 6;\n  b: int = const 7;\n  c: int = mul a b;\n  t: bool = lt a b;\n  f: float = const 1.5;\n  g: float = fadd f f;\n  h: char = const 'a';\n  i: int = char2int h;\n  print c t g i;\n}",
        );
        let lines = body(&text);
        assert!(lines.contains(&"c: int = const 42;"), "{text}");
        assert!(lines.contains(&"t: bool = const true;"), "{text}");
        assert!(lines.contains(&"g: float = const 3.0;"), "{text}");
        assert!(lines.contains(&"i: int = const 97;"), "{text}");
    }

    #[test]
    fn constants_from_other_blocks_fold_only_when_defined_on_every_path() {
        let text = run(
            "@main(c: bool) {\n  two: int = const 2;\n  br c .a .b;\n.a:\n  k: int = const 3;\n.b:\n  x: int = mul two two;\n  y: int = mul two k;\n  print x y;\n}",
        );
        let lines = body(&text);
        assert!(lines.contains(&"x: int = const 4;"), "{text}");
        assert!(lines.contains(&"y: int = mul two k;"), "k is undefined coming from the entry: {text}");
    }

    #[test]
    fn division_by_zero_and_calls_are_left_alone() {
        let src = "@main(x: int) {\n  z: int = const 0;\n  a: int = div x z;\n  b: int = div x z;\n  r: int = call @f;\n  s: int = call @f;\n  print a b r s;\n}\n@f: int {\n  one: int = const 1;\n  ret one;\n}\n";
        assert_eq!(run(src), src);
    }

    #[test]
    fn reassigned_operands_are_not_merged() {
        let src = "@main(x: int, y: int) {\n  a: int = add x y;\n  x: int = const 5;\n  b: int = add x y;\n  print a b;\n}\n";
        let text = run(src);
        assert!(body(&text).contains(&"b: int = add x y;"), "{text}");
    }

    #[test]
    fn overwritten_definitions_are_renamed_and_clobbered_sources_not_used() {
        let text = run(
            "@main(x: int) {\n  a: int = id x;\n  x: int = const 5;\n  y: int = add a a;\n  y: int = add a a;\n  print a y;\n}",
        );
        assert_eq!(
            body(&text),
            [
                "a: int = id x;",
                "x: int = const 5;",
                "y.1: int = add a a;",
                "y: int = id y.1;",
                "print a y.1;"
            ]
        );
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| lvn(p));
    }
}
