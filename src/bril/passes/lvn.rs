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
use std::collections::hash_map::Entry;

use super::facts::global_constants_given;
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
    for f in program.functions_mut() {
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
    let failing = MaybeUndefinedReads::of(f);
    let globals = global_constants_given(f, &failing);
    let mut names: Option<FreshNames> = None;
    // One table for every block, sized once: each block renames at most
    // one variable per instruction.
    let length: usize = f.blocks.iter().map(|b| b.instrs.len()).sum();
    let mut table = Table::with_capacity(f.vars.len() + length);
    let mut changed = false;
    for b in 0..f.blocks.len() {
        let mut instrs = std::mem::take(&mut f.blocks[b].instrs);
        let may_fail = |i: usize| failing.at(BlockId::new(b), i);
        let numbered = number_block(f, &mut table, &mut names, &mut instrs, &globals, may_fail);
        f.blocks[b].instrs = instrs;
        changed |= numbered?;
    }
    Ok(changed)
}

/// A value number; numbers restart at 0 in each block.
type Num = u32;

/// No number, no holder, no write: the empty mark of the tables below.
const NONE: u32 = u32::MAX;

/// What identifies a value: a constant, or an operation on value numbers.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Const(Value),
    Op(Op, Type, List<Num>),
}

/// What the block knows of one value number.
#[derive(Clone, Copy)]
struct Number {
    /// The constant it stands for, if known.
    constant: Option<Value>,
    /// The first entry of its holders in [`Table::holders`] not known to be
    /// overwritten, and the last one (where the next holder is linked).
    first: u32,
    last: u32,
}

/// One variable that took a number, with the write that gave it; a linked
/// list per number in one arena, so holding a value allocates nothing.
#[derive(Clone, Copy)]
struct Holder {
    var: VarId,
    write: u32,
    next: u32,
}

/// What the block knows of one variable. Entries are indexed by the
/// variable's id and valid only when their `block` is the current one, so
/// one table serves every block with no clearing and no hashing.
#[derive(Clone, Copy)]
struct VarState {
    block: u32,
    /// The number a read of this name gives at this point.
    name_num: Num,
    /// The number this actual variable holds, and the write that gave it.
    held: Num,
    held_write: u32,
    /// The index of the block's last instruction writing this variable.
    last_def: u32,
}

const UNSEEN: VarState = VarState { block: 0, name_num: NONE, held: NONE, held_write: NONE, last_def: NONE };

struct Table {
    by_key: FxHashMap<Key, Num>,
    numbers: Vec<Number>,
    holders: Vec<Holder>,
    vars: Vec<VarState>,
    /// The current block's mark in `vars` (0 marks no block).
    block: u32,
    writes: u32,
    /// Scratch for one instruction's operand constants.
    consts: Vec<Option<Value>>,
    values: Vec<Value>,
}

impl Table {
    fn with_capacity(vars: usize) -> Table {
        Table {
            by_key: FxHashMap::default(),
            numbers: Vec::new(),
            holders: Vec::new(),
            vars: Vec::with_capacity(vars),
            block: 0,
            writes: 0,
            consts: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Forgets the last block; `instrs` is the next one's code.
    fn start_block(&mut self, instrs: &[Instr]) {
        self.block += 1;
        self.numbers.clear();
        self.holders.clear();
        let defs = instrs.iter().filter(|i| i.dest.is_some()).count();
        // A fresh map per block, sized to it: clearing a map left large by
        // an earlier block would cost its capacity in every small block.
        self.by_key = FxHashMap::default();
        self.by_key.reserve(defs);
        for (i, instr) in instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                self.var(d).last_def = i as u32;
            }
        }
    }

    /// `v`'s entry for this block.
    fn var(&mut self, v: VarId) -> &mut VarState {
        let i = v.index();
        if i >= self.vars.len() {
            self.vars.resize(i + 1, UNSEEN);
        }
        let state = &mut self.vars[i];
        if state.block != self.block {
            *state = VarState { block: self.block, ..UNSEEN };
        }
        state
    }

    /// The number `v` holds in this block, if any, and the write that gave it.
    fn held(&self, v: VarId) -> Option<(Num, u32)> {
        self.vars
            .get(v.index())
            .filter(|s| s.block == self.block && s.held != NONE)
            .map(|s| (s.held, s.held_write))
    }

    fn fresh(&mut self, constant: Option<Value>) -> Num {
        self.numbers.push(Number { constant, first: NONE, last: NONE });
        (self.numbers.len() - 1) as Num
    }

    fn constant(&self, n: Num) -> Option<Value> {
        self.numbers[n as usize].constant
    }

    /// Records that `var` now holds `n`.
    fn hold(&mut self, var: VarId, n: Num) {
        self.writes += 1;
        let write = self.writes;
        let state = self.var(var);
        state.held = n;
        state.held_write = write;
        let entry = self.holders.len() as u32;
        self.holders.push(Holder { var, write, next: NONE });
        let number = &mut self.numbers[n as usize];
        if number.last != NONE {
            self.holders[number.last as usize].next = entry;
        }
        if number.first == NONE {
            number.first = entry;
        }
        number.last = entry;
    }

    /// The earliest variable still holding `n`; holders since overwritten
    /// are dropped from the front of its list, so an overwrite costs O(1).
    fn first_holder(&mut self, n: Num) -> Option<VarId> {
        let mut k = self.numbers[n as usize].first;
        while k != NONE {
            let h = self.holders[k as usize];
            if self.held(h.var) == Some((n, h.write)) {
                break;
            }
            k = h.next;
        }
        self.numbers[n as usize].first = k;
        (k != NONE).then(|| self.holders[k as usize].var)
    }

    /// The number of `key`, made fresh when the key is new, and whether a
    /// variable or constant already held that value.
    fn number(&mut self, key: Key) -> (Num, bool) {
        let constant = match &key {
            Key::Const(v) => Some(*v),
            Key::Op(..) => None,
        };
        let next = self.numbers.len() as Num;
        let n = match self.by_key.entry(key) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                e.insert(next);
                self.fresh(constant);
                return (next, constant.is_some());
            }
        };
        let known = self.first_holder(n).is_some();
        (n, known || self.constant(n).is_some())
    }

    /// The number a read of `var` gives; a value from before the block gets
    /// a fresh number held by the variable itself, and the constant `var`
    /// holds everywhere, if any (used for folding only: the variable is
    /// never read in new places, where it might not be defined).
    fn read(&mut self, var: VarId, globals: &[Option<Value>]) -> Num {
        let n = self.var(var).name_num;
        if n != NONE {
            return n;
        }
        let n = self.fresh(globals.get(var.index()).copied().flatten());
        self.hold(var, n);
        self.var(var).name_num = n;
        n
    }

    /// Records that `actual` (the variable really written) now holds `n`,
    /// and that reads of `name` give `n`.
    fn write(&mut self, name: VarId, actual: VarId, n: Num) {
        self.hold(actual, n);
        self.var(name).name_num = n;
    }

    fn holder(&mut self, n: Num) -> Result<VarId> {
        self.first_holder(n)
            .ok_or_else(|| Error::new(ErrorKind::Service, "lvn: a value lost every variable holding it"))
    }
}

/// Numbers one block's code in place (a block's new code is never longer,
/// so no second copy of it is made); true if it changed.
fn number_block(
    f: &mut Function,
    table: &mut Table,
    names: &mut Option<FreshNames>,
    instrs: &mut Vec<Instr>,
    globals: &[Option<Value>],
    may_fail: impl Fn(usize) -> bool,
) -> Result<bool> {
    table.start_block(instrs);
    let mut changed = false;
    // Instructions kept so far, written over the front of `instrs`: the
    // original at `i` is read before anything is written there.
    let mut kept = 0;
    for i in 0..instrs.len() {
        match number_instr(f, table, names, &instrs[i], i, globals, may_fail(i))? {
            Some(instr) => {
                changed |= instr != instrs[i];
                instrs[kept] = instr;
                kept += 1;
            }
            None => changed = true,
        }
    }
    instrs.truncate(kept);
    Ok(changed)
}

/// What instruction `i` of the block becomes, or `None` when it goes.
fn number_instr(
    f: &mut Function,
    table: &mut Table,
    names: &mut Option<FreshNames>,
    original: &Instr,
    i: usize,
    globals: &[Option<Value>],
    may_fail: bool,
) -> Result<Option<Instr>> {
    let mut instr = original.clone();
    let mut nums: List<Num> = List::new();
    for u in instr.uses_mut() {
        let n = table.read(*u, globals);
        *u = table.holder(n)?;
        nums.push(n);
    }
    let Some(dest) = instr.dest else { return Ok(Some(instr)) };
    if may_fail {
        // The instruction stays (a variable it reads may be undefined, and
        // is only ever held by itself, so it keeps its name); its result
        // is a value of its own.
        let n = table.fresh(None);
        let actual = rename_unless_last(f, table, names, &mut instr, i);
        table.write(dest.var, actual, n);
        return Ok(Some(instr));
    }
    let (n, known) = value_number(table, &instr, &nums);
    if let Some(new) = simplified(table, &instr, n, known)? {
        instr = new;
    }
    let is_self_copy = instr.op == Op::Id && instr.args.first() == Some(&dest.var);
    if is_self_copy && table.held(dest.var).map(|(held, _)| held) == Some(n) {
        // `x = id x` while x already holds the value: nothing to do.
        table.var(dest.var).name_num = n;
        return Ok(None);
    }
    let actual = rename_unless_last(f, table, names, &mut instr, i);
    table.write(dest.var, actual, n);
    Ok(Some(instr))
}

/// The variable instruction `i` really writes: its destination when that is
/// the block's last write of it, else a fresh variable (so the value stays
/// available after the overwrite), which `instr` is changed to write.
fn rename_unless_last(
    f: &mut Function,
    table: &mut Table,
    names: &mut Option<FreshNames>,
    instr: &mut Instr,
    i: usize,
) -> VarId {
    let Some(dest) = instr.dest.as_mut() else { return VarId::default() };
    if table.var(dest.var).last_def != i as u32 {
        let name = f.vars[dest.var.index()].clone();
        dest.var = names.get_or_insert_with(|| FreshNames::vars(f)).fresh_var(f, &name);
    }
    dest.var
}

/// The value number of `instr`'s result, and whether that value was already
/// known (available in a variable or constant) before this instruction.
fn value_number(table: &mut Table, instr: &Instr, nums: &[Num]) -> (Num, bool) {
    let ty = instr.dest.map_or(Type::INT, |d| d.ty);
    let key = match instr.op {
        // (Verified programs give `id` one argument; an unverified one is not worth a panic.)
        Op::Id => return nums.first().map_or_else(|| (table.fresh(None), false), |&n| (n, true)),
        Op::Const => instr.value.and_then(|lit| Value::from_literal(lit, ty)).map(Key::Const),
        op => operation_key(table, op, ty, nums),
    };
    match key {
        Some(key) => table.number(key),
        None => (table.fresh(None), false),
    }
}

/// What identifies `op` on the values `nums`: the constant it folds to, else
/// the operation itself (operands in order when it commutes); `None` when it
/// may fail, so it is never merged with another.
fn operation_key(table: &mut Table, op: Op, ty: Type, nums: &[Num]) -> Option<Key> {
    let mut consts = std::mem::take(&mut table.consts);
    consts.clear();
    consts.extend(nums.iter().map(|&n| table.constant(n)));
    let key = cannot_fail(op, &consts).then(|| {
        table.values.clear();
        table.values.extend(consts.iter().flatten());
        let all_known = table.values.len() == consts.len();
        match all_known.then(|| eval(op, &table.values)).flatten() {
            Some(v) => Key::Const(v),
            None => {
                let mut args = List::from(nums);
                if op.is_commutative() {
                    args.sort_unstable();
                }
                Key::Op(op, ty, args)
            }
        }
    });
    table.consts = consts;
    key
}

/// The cheaper instruction computing value `n`, if there is one: a `const`
/// for a known constant, else a copy of a variable already holding it.
fn simplified(table: &mut Table, instr: &Instr, n: Num, known: bool) -> Result<Option<Instr>> {
    let Some(dest) = instr.dest else { return Ok(None) };
    if instr.op == Op::Const || !known {
        return Ok(None);
    }
    if let Some((lit, ty)) = table.constant(n).and_then(Value::to_const) {
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
