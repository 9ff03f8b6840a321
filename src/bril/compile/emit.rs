//! Bril functions as WebAssembly functions.
//!
//! Each Bril function becomes one wasm function of the same parameters and
//! result (calls are calls); each variable a local of its type (int `i64`,
//! bool and char `i32`, float `f64`). Blocks are dispatched by a `loop`
//! around a `br_table` on a block-index local; a jump to the block laid out
//! next falls through. At each block's entry the function's count (a local,
//! saved to the global around calls) grows by the block's instructions, and
//! passing the fuel traps. Every check the interpreter makes becomes a trap
//! here (division by zero, a bad char, a variable read before assignment, a
//! non-void function ending without `ret`, the depth and stack limits, the
//! heap's checks); the tier then runs the interpreter instead, so a trap
//! needs no message. Pointers are `header address << 32 | offset`; an
//! allocation's header holds its length, the interpreter's id (what a
//! printed pointer shows) and whether it is live.

use super::layout::{self, EMPTY_LINE, END_OF_LINE};
use crate::bril::analysis::definite::unassigned_reads;
use crate::bril::ir::{Function, Instr, Op, Program};
use crate::bril::types::BaseType;
use crate::bril::Type;
use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, ExportKind, ExportSection, FunctionSection, GlobalSection, GlobalType,
    Ieee64, InstructionSink, MemArg, MemorySection, MemoryType, TypeSection, ValType,
};

/// Why a program is left to the interpreter.
pub(crate) type Unsupported = String;

// The module's globals, by index.
const COUNT: u32 = 0;
const FUEL: u32 = 1;
const DEPTH: u32 = 2;
const MAX_DEPTH: u32 = 3;
const CELLS: u32 = 4;
const MAX_CELLS: u32 = 5;
const CURSOR: u32 = 6;
const CHUNK_END: u32 = 7;
const RECORDS: u32 = 8;
const MAX_RECORDS: u32 = 9;
const TOP: u32 = 10;
const NEXT_ID: u32 = 11;
const LIVE: u32 = 12;
const CHARGED: u32 = 13;
const GLOBALS: [ValType; 14] = [
    ValType::I64, // COUNT
    ValType::I64, // FUEL
    ValType::I32, // DEPTH
    ValType::I32, // MAX_DEPTH
    ValType::I64, // CELLS
    ValType::I64, // MAX_CELLS
    ValType::I32, // CURSOR
    ValType::I32, // CHUNK_END
    ValType::I64, // RECORDS
    ValType::I64, // MAX_RECORDS
    ValType::I32, // TOP
    ValType::I32, // NEXT_ID
    ValType::I64, // LIVE
    ValType::I64, // CHARGED
];

/// The helper functions after the Bril ones, by offset from their count.
#[derive(Clone, Copy)]
enum Helper {
    /// `emit(kind: i32, bits: i64)`: appends a record.
    Emit,
    /// `run() -> i32`: the entry; returns the end of used memory.
    Run,
    /// `bump(bytes: i64) -> i32`: fresh memory, growing it as needed.
    Bump,
    /// `alloc(count: i64) -> ptr`.
    Alloc,
    /// `free(p: ptr)`.
    Free,
}

impl Helper {
    const ALL: [Helper; 5] = [Helper::Emit, Helper::Run, Helper::Bump, Helper::Alloc, Helper::Free];

    fn signature(self) -> (&'static [ValType], &'static [ValType]) {
        use ValType::{I32, I64};
        match self {
            Helper::Emit => (&[I32, I64], &[]),
            Helper::Run => (&[], &[I32]),
            Helper::Bump => (&[I64], &[I32]),
            Helper::Alloc => (&[I64], &[I64]),
            Helper::Free => (&[I64], &[]),
        }
    }
}

/// Function indices: the Bril functions', then the helpers'.
#[derive(Clone, Copy)]
struct Index {
    bril: u32,
}

impl Index {
    fn of(self, helper: Helper) -> u32 {
        self.bril + helper as u32
    }
}

/// A heap allocation's header, before its cells (8 bytes each) and their
/// written flags (a byte each); a pointer is `header << 32 | offset`.
const HEADER_LEN: u64 = 0; // i64: cells
const HEADER_ID: u64 = 8; // i32: the interpreter's allocation id
const HEADER_LIVE: u64 = 12; // i32: 1 until freed
const HEADER_BYTES: i64 = 16;

fn val_type(ty: Type) -> ValType {
    if ty.is_ptr() {
        return ValType::I64;
    }
    match ty.base {
        BaseType::Int => ValType::I64,
        BaseType::Bool | BaseType::Char => ValType::I32,
        BaseType::Float => ValType::F64,
    }
}

fn mem(offset: u64, align: u32) -> MemArg {
    MemArg { offset, align, memory_index: 0 }
}

fn trap_if(s: &mut InstructionSink<'_>) {
    s.if_(BlockType::Empty).unreachable().end();
}

/// The module for `program`, whose functions' frames take `frame_cells`
/// register cells each (the interpreter's count, for the stack limit).
pub(crate) fn module(program: &Program, frame_cells: &[u64]) -> Result<Vec<u8>, Unsupported> {
    let main = program.main().ok_or("no @main")?;
    let main_fn = program.function(main);
    let n = u32::try_from(program.functions.len()).map_err(|_| "too many functions")?;
    let index = Index { bril: n };

    let mut types = TypeSection::new();
    let mut functions = FunctionSection::new();
    for (i, f) in program.functions.iter().enumerate() {
        let params: Vec<ValType> = f.params.iter().map(|p| val_type(p.ty)).collect();
        types.ty().function(params, f.ret.map(val_type));
        functions.function(i as u32);
    }
    for helper in Helper::ALL {
        let (params, results) = helper.signature();
        types.ty().function(params.iter().copied(), results.iter().copied());
        functions.function(index.of(helper));
    }

    let mut memories = MemorySection::new();
    let records = layout::records_at(main_fn.params.len());
    let pages = (records + layout::CHUNK_BYTES).div_ceil(1 << 16);
    memories.memory(MemoryType {
        minimum: pages,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });

    let mut globals = GlobalSection::new();
    for ty in GLOBALS {
        let init = if ty == ValType::I64 { ConstExpr::i64_const(0) } else { ConstExpr::i32_const(0) };
        globals.global(GlobalType { val_type: ty, mutable: true, shared: false }, &init);
    }

    let mut exports = ExportSection::new();
    exports.export("memory", ExportKind::Memory, 0);
    exports.export("run", ExportKind::Func, index.of(Helper::Run));

    let mut code = CodeSection::new();
    for (i, f) in program.functions.iter().enumerate() {
        let cells = frame_cells.get(i).copied().ok_or("no frame size")?;
        code.function(&FunctionEmitter::new(program, f, cells, index)?.finish()?);
    }
    for helper in Helper::ALL {
        code.function(&match helper {
            Helper::Emit => emit_function(index),
            Helper::Run => run_function(program, main.0, records),
            Helper::Bump => bump_function(),
            Helper::Alloc => alloc_function(index),
            Helper::Free => free_function(),
        });
    }

    let mut module = wasm_encoder::Module::new();
    module
        .section(&types)
        .section(&functions)
        .section(&memories)
        .section(&globals)
        .section(&exports)
        .section(&code);
    Ok(module.finish())
}

/// `emit(kind, bits)`: appends a record, chaining a new chunk when the
/// current one is full; past the most records it traps (the output is then
/// too long anyway).
fn emit_function(index: Index) -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([(1, ValType::I32)]);
    let mut s = f.instructions();
    let chunk = layout::CHUNK_BYTES as i32;
    s.global_get(RECORDS).global_get(MAX_RECORDS).i64_ge_u();
    trap_if(&mut s);
    s.global_get(RECORDS).i64_const(1).i64_add().global_set(RECORDS);
    s.global_get(CURSOR).global_get(CHUNK_END).i32_eq().if_(BlockType::Empty);
    {
        s.i64_const(i64::from(chunk)).call(index.of(Helper::Bump)).local_set(2);
        // The full chunk links to the new one.
        s.global_get(CHUNK_END).i32_const(chunk).i32_sub().local_get(2).i32_store(mem(0, 2));
        s.local_get(2).i32_const(layout::RECORD_BYTES as i32).i32_add().global_set(CURSOR);
        s.local_get(2).i32_const(chunk).i32_add().global_set(CHUNK_END);
    }
    s.end();
    s.global_get(CURSOR).local_get(0).i64_extend_i32_u().i64_store(mem(0, 3));
    s.global_get(CURSOR).local_get(1).i64_store(mem(8, 3));
    s.global_get(CURSOR).i32_const(layout::RECORD_BYTES as i32).i32_add().global_set(CURSOR);
    s.end();
    f
}

/// `bump(bytes)`: the next `bytes` of memory (a multiple of 16), growing
/// the memory; traps past 4 GiB less a page.
fn bump_function() -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([(1, ValType::I64), (1, ValType::I32)]);
    let mut s = f.instructions();
    s.global_get(TOP).i64_extend_i32_u().local_get(0).i64_add().local_tee(1);
    s.i64_const(0xFFFF_0000).i64_gt_u();
    trap_if(&mut s);
    // Pages needed beyond those there.
    s.local_get(1).i64_const(0xFFFF).i64_add().i64_const(16).i64_shr_u().i32_wrap_i64();
    s.memory_size(0).i32_sub().local_tee(2).i32_const(0).i32_gt_s().if_(BlockType::Empty);
    s.local_get(2).memory_grow(0).i32_const(-1).i32_eq();
    trap_if(&mut s);
    s.end();
    s.global_get(TOP);
    s.local_get(1).i32_wrap_i64().global_set(TOP);
    s.end();
    f
}

/// `alloc(count)`: the interpreter's checks and charges, a fresh id, cells
/// whose written flags are cleared (memory is reused from run to run).
fn alloc_function(index: Index) -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([(1, ValType::I32)]);
    let mut s = f.instructions();
    s.local_get(0).i64_const(0).i64_le_s();
    trap_if(&mut s);
    // count + 1 cells charged, within the limit.
    s.local_get(0).global_get(MAX_CELLS).i64_ge_u();
    trap_if(&mut s);
    s.global_get(CHARGED).local_get(0).i64_const(1).i64_add().i64_add().global_get(MAX_CELLS).i64_gt_u();
    trap_if(&mut s);
    s.global_get(NEXT_ID).i32_const(-1).i32_eq();
    trap_if(&mut s);
    // Header, 8 bytes of cell and one of flag per cell, to 16 bytes.
    s.local_get(0).i64_const(9).i64_mul().i64_const(HEADER_BYTES + 15).i64_add().i64_const(-16).i64_and();
    s.call(index.of(Helper::Bump)).local_set(1);
    s.local_get(1).local_get(0).i64_store(mem(HEADER_LEN, 3));
    s.local_get(1).global_get(NEXT_ID).i32_store(mem(HEADER_ID, 2));
    s.local_get(1).i32_const(1).i32_store(mem(HEADER_LIVE, 2));
    s.local_get(1)
        .i32_const(HEADER_BYTES as i32)
        .i32_add()
        .local_get(0)
        .i32_wrap_i64()
        .i32_const(8)
        .i32_mul()
        .i32_add();
    s.i32_const(0).local_get(0).i32_wrap_i64().memory_fill(0);
    s.global_get(NEXT_ID).i32_const(1).i32_add().global_set(NEXT_ID);
    s.global_get(LIVE).i64_const(1).i64_add().global_set(LIVE);
    s.global_get(CHARGED).local_get(0).i64_const(1).i64_add().i64_add().global_set(CHARGED);
    s.local_get(1).i64_extend_i32_u().i64_const(32).i64_shl();
    s.end();
    f
}

/// Pushes the header address of pointer `local`.
fn header_of(s: &mut InstructionSink<'_>, local: u32) {
    s.local_get(local).i64_const(32).i64_shr_u().i32_wrap_i64();
}

/// `free(p)`: only a live allocation's base; its cells uncharged.
fn free_function() -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([]);
    let mut s = f.instructions();
    s.local_get(0).i32_wrap_i64();
    header_of(&mut s, 0);
    s.i32_load(mem(HEADER_LIVE, 2)).i32_eqz().i32_or();
    trap_if(&mut s);
    header_of(&mut s, 0);
    s.i32_const(0).i32_store(mem(HEADER_LIVE, 2));
    s.global_get(LIVE).i64_const(1).i64_sub().global_set(LIVE);
    s.global_get(CHARGED);
    header_of(&mut s, 0);
    s.i64_load(mem(HEADER_LEN, 3)).i64_sub().global_set(CHARGED);
    s.end();
    f
}

/// Locals for [`cell_address`]: the pointer (i64), its header (i32), its
/// offset (i64) and the address of the cell's written flag (i32); the
/// offset is [`pointer_add`]'s scratch too.
#[derive(Clone, Copy)]
struct CellLocals {
    ptr: u32,
    header: u32,
    offset: u32,
    flag: u32,
}

/// The address of the cell the pointer in `l.ptr` points to, in a live
/// allocation and in bounds; a write marks it written, a read needs it so
/// (else a trap). Emitted inline at every `load` and `store`: a call per
/// access cost memory-bound programs most of the tier's gain.
fn cell_address(s: &mut InstructionSink<'_>, l: CellLocals, write: bool) {
    header_of(s, l.ptr);
    s.local_set(l.header);
    s.local_get(l.ptr).i32_wrap_i64().i64_extend_i32_s().local_set(l.offset);
    s.local_get(l.header).i32_load(mem(HEADER_LIVE, 2)).i32_eqz();
    // A negative offset is a huge unsigned one.
    s.local_get(l.offset).local_get(l.header).i64_load(mem(HEADER_LEN, 3)).i64_ge_u().i32_or();
    trap_if(s);
    s.local_get(l.header).i32_const(HEADER_BYTES as i32).i32_add();
    s.local_get(l.header).i64_load(mem(HEADER_LEN, 3)).i32_wrap_i64().i32_const(8).i32_mul().i32_add();
    s.local_get(l.offset).i32_wrap_i64().i32_add().local_set(l.flag);
    if write {
        s.local_get(l.flag).i32_const(1).i32_store8(mem(0, 0));
    } else {
        s.local_get(l.flag).i32_load8_u(mem(0, 0)).i32_eqz();
        trap_if(s);
    }
    s.local_get(l.header)
        .i32_const(HEADER_BYTES as i32)
        .i32_add()
        .local_get(l.offset)
        .i32_wrap_i64()
        .i32_const(8)
        .i32_mul()
        .i32_add();
}

/// `ptradd p delta` for the pointer in local `ptr` and the offset in local
/// `delta`: the interpreter's 32-bit offsets, one leaving that range pinned
/// to `i32::MIN` (which every access rejects); `sum` (i64) is scratch.
/// Emitted inline, as the cell checks are.
fn pointer_add(s: &mut InstructionSink<'_>, ptr: u32, delta: u32, sum: u32) {
    s.local_get(ptr).i32_wrap_i64().i64_extend_i32_s().local_get(delta).i64_add().local_tee(sum);
    // In i32 range exactly when sum + 2^31 < 2^32 unsigned; a sum that
    // wrapped i64 is far outside it.
    s.i64_const(1 << 31).i64_add().i64_const(1 << 32).i64_ge_u().if_(BlockType::Empty);
    s.i64_const(i64::from(i32::MIN)).local_set(sum);
    s.end();
    s.local_get(ptr).i64_const(-1 << 32).i64_and();
    s.local_get(sum).i64_const(0xFFFF_FFFF).i64_and().i64_or();
}

/// `run()`: reads the header, calls `@main`, checks for leaks, stores the
/// count and the records' end, and returns the end of used memory.
fn run_function(program: &Program, main: u32, records: u64) -> wasm_encoder::Function {
    let mut f = wasm_encoder::Function::new([]);
    let mut s = f.instructions();
    let records = records as i32;
    let chunk = layout::CHUNK_BYTES as i32;
    for (global, zero) in
        [(COUNT, true), (CELLS, true), (RECORDS, true), (LIVE, true), (CHARGED, true), (DEPTH, false)]
    {
        if zero {
            s.i64_const(0).global_set(global);
        } else {
            s.i32_const(0).global_set(global);
        }
    }
    s.i32_const(1).global_set(NEXT_ID);
    s.i32_const(0).i64_load(mem(layout::FUEL, 3)).global_set(FUEL);
    // Depths past i32 are as good as unlimited.
    s.i32_const(0).i64_load(mem(layout::MAX_DEPTH, 3)).i64_const(i64::from(i32::MAX)).i64_lt_u();
    s.if_(BlockType::Result(ValType::I32));
    s.i32_const(0).i64_load(mem(layout::MAX_DEPTH, 3)).i32_wrap_i64();
    s.else_().i32_const(i32::MAX).end().global_set(MAX_DEPTH);
    s.i32_const(0).i64_load(mem(layout::MAX_CELLS, 3)).global_set(MAX_CELLS);
    s.i32_const(0).i64_load(mem(layout::MAX_RECORDS, 3)).global_set(MAX_RECORDS);
    s.i32_const(records + layout::RECORD_BYTES as i32).global_set(CURSOR);
    s.i32_const(records + chunk).global_set(CHUNK_END);
    s.i32_const(records + chunk).global_set(TOP);
    let main_fn = &program.functions[main as usize];
    for (i, p) in main_fn.params.iter().enumerate() {
        s.i32_const(0);
        let at = layout::ARGS + 8 * i as u64;
        match val_type(p.ty) {
            ValType::I64 => s.i64_load(mem(at, 3)),
            ValType::F64 => s.f64_load(mem(at, 3)),
            _ => s.i32_load(mem(at, 2)),
        };
    }
    s.call(main);
    if main_fn.ret.is_some() {
        s.drop();
    }
    // Memory still allocated at the end is an error.
    s.global_get(LIVE).i64_const(0).i64_ne();
    trap_if(&mut s);
    s.i32_const(0).global_get(COUNT).i64_store(mem(layout::COUNT, 3));
    s.i32_const(0).global_get(CURSOR).i64_extend_i32_u().i64_store(mem(layout::CURSOR, 3));
    s.global_get(TOP);
    s.end();
    f
}

/// One Bril function's body under construction.
struct FunctionEmitter<'p> {
    program: &'p Program,
    f: &'p Function,
    cells: u64,
    index: Index,
    /// Each variable's Bril type.
    types: Vec<Option<Type>>,
    /// Each variable's local and wasm type (a variable never given a type
    /// is never read in a verified program; it is kept as an `i64`).
    var: Vec<(u32, ValType)>,
    /// Each `set` target's shadow local and flag local.
    shadow: Vec<Option<(u32, u32)>>,
    /// The flag local of each variable some read may find unassigned.
    flag: Vec<Option<u32>>,
    /// Reads that may find their variable unassigned: (block, index, variable).
    risky: Vec<(usize, usize, usize)>,
    /// Locals past the parameters, in order.
    locals: Vec<ValType>,
    pc: u32,
    count: u32,
    fuel: u32,
    /// Scratch for `load` and `store` ([`cell_address`]).
    cell: CellLocals,
}

/// Each variable's type, from parameters and destinations.
fn variable_types(f: &Function) -> Result<Vec<Option<Type>>, Unsupported> {
    let mut types: Vec<Option<Type>> = vec![None; f.vars.len()];
    let typed = f
        .params
        .iter()
        .map(|p| (p.var, p.ty))
        .chain(f.instrs().filter_map(|i| i.dest.map(|d| (d.var, d.ty))));
    for (v, ty) in typed {
        match types.get_mut(v.index()) {
            Some(slot @ None) => *slot = Some(ty),
            Some(Some(old)) if *old == ty => {}
            _ => return Err("a variable of two types".into()),
        }
    }
    Ok(types)
}

impl<'p> FunctionEmitter<'p> {
    fn new(
        program: &'p Program,
        f: &'p Function,
        cells: u64,
        index: Index,
    ) -> Result<FunctionEmitter<'p>, Unsupported> {
        for i in f.instrs() {
            if matches!(i.op, Op::Undef | Op::Phi) {
                return Err(format!("instruction {}", i.op));
            }
        }
        let types = variable_types(f)?;
        let nvars = f.vars.len();
        let nparams = f.params.len() as u32;
        let mut locals: Vec<ValType> = Vec::new();
        let mut next = |t: ValType| {
            locals.push(t);
            nparams + locals.len() as u32 - 1
        };
        // A parameter's variable is its wasm parameter; the others get locals.
        let mut var: Vec<Option<(u32, ValType)>> = vec![None; nvars];
        for (k, p) in f.params.iter().enumerate() {
            var[p.var.index()] = Some((k as u32, val_type(p.ty)));
        }
        let var: Vec<(u32, ValType)> = (0..nvars)
            .map(|v| {
                var[v].unwrap_or_else(|| {
                    let t = types[v].map_or(ValType::I64, val_type);
                    (next(t), t)
                })
            })
            .collect();
        let mut shadow = vec![None; nvars];
        for i in f.instrs() {
            if let (Op::Set, Some(t)) = (i.op, i.shadow_target()) {
                if t.index() < nvars && shadow[t.index()].is_none() {
                    shadow[t.index()] = Some((next(var[t.index()].1), next(ValType::I32)));
                }
            }
        }
        let mut flag = vec![None; nvars];
        let mut risky = Vec::new();
        for read in unassigned_reads(f, &vec![true; nvars]) {
            let v = read.var.index();
            if flag[v].is_none() {
                flag[v] = Some(next(ValType::I32));
            }
            risky.push((read.block.index(), read.index, v));
        }
        let pc = next(ValType::I32);
        let count = next(ValType::I64);
        let fuel = next(ValType::I64);
        let cell = CellLocals {
            ptr: next(ValType::I64),
            header: next(ValType::I32),
            offset: next(ValType::I64),
            flag: next(ValType::I32),
        };
        risky.sort_unstable();
        Ok(FunctionEmitter {
            program,
            f,
            cells,
            index,
            types,
            var,
            shadow,
            flag,
            risky,
            locals,
            pc,
            count,
            fuel,
            cell,
        })
    }

    fn local(&self, v: crate::bril::VarId) -> Result<(u32, ValType), Unsupported> {
        self.var.get(v.index()).copied().ok_or_else(|| "an unknown variable".into())
    }

    fn get(&self, s: &mut InstructionSink<'_>, i: &Instr, k: usize) -> Result<ValType, Unsupported> {
        let v = *i.args.get(k).ok_or("a missing argument")?;
        let (local, ty) = self.local(v)?;
        s.local_get(local);
        Ok(ty)
    }

    /// Stores the value on the stack into `i`'s destination, and marks it
    /// assigned when some read checks it.
    fn set(&self, s: &mut InstructionSink<'_>, i: &Instr) -> Result<(), Unsupported> {
        let d = i.def().ok_or("a missing destination")?;
        s.local_set(self.local(d)?.0);
        if let Some(flag) = self.flag[d.index()] {
            s.i32_const(1).local_set(flag);
        }
        Ok(())
    }

    fn finish(self) -> Result<wasm_encoder::Function, Unsupported> {
        let mut body = wasm_encoder::Function::new_with_locals_types(self.locals.iter().copied());
        let mut s = body.instructions();
        self.prologue(&mut s);
        let blocks = self.f.blocks.len() as u32;
        if blocks > 0 {
            s.loop_(BlockType::Empty);
            for _ in 0..blocks {
                s.block(BlockType::Empty);
            }
            s.local_get(self.pc).br_table(0..blocks, blocks - 1);
            for b in 0..blocks as usize {
                s.end();
                self.block(&mut s, b)?;
            }
            s.end();
        }
        // Falling off the end returns nothing: a void function's end, or an
        // error the interpreter reports if the result is used.
        if self.f.ret.is_some() {
            s.unreachable();
        } else {
            self.epilogue(&mut s);
        }
        s.end();
        Ok(body)
    }

    /// Call depth and stack cells counted and checked; the count and fuel
    /// into locals.
    fn prologue(&self, s: &mut InstructionSink<'_>) {
        s.global_get(DEPTH).i32_const(1).i32_add().global_set(DEPTH);
        s.global_get(DEPTH).global_get(MAX_DEPTH).i32_gt_u().if_(BlockType::Empty).unreachable().end();
        s.global_get(CELLS).i64_const(self.cells as i64).i64_add().global_set(CELLS);
        s.global_get(CELLS).global_get(MAX_CELLS).i64_gt_u().if_(BlockType::Empty).unreachable().end();
        s.global_get(COUNT).local_set(self.count);
        s.global_get(FUEL).local_set(self.fuel);
    }

    /// Before leaving: the count saved, the frame released.
    fn epilogue(&self, s: &mut InstructionSink<'_>) {
        s.local_get(self.count).global_set(COUNT);
        s.global_get(DEPTH).i32_const(1).i32_sub().global_set(DEPTH);
        s.global_get(CELLS).i64_const(self.cells as i64).i64_sub().global_set(CELLS);
    }

    /// Control passes to block `to` from the end of block `from`, inside
    /// `nesting` structured blocks of its own.
    fn goto(&self, s: &mut InstructionSink<'_>, from: usize, to: usize, nesting: u32) {
        if to == from + 1 {
            return; // falls through
        }
        let blocks = self.f.blocks.len();
        s.i32_const(to as i32).local_set(self.pc);
        // From block `from`'s code the enclosing labels are the dispatch
        // blocks of the blocks after it, then the loop.
        s.br((blocks - 1 - from) as u32 + nesting);
    }

    fn block(&self, s: &mut InstructionSink<'_>, b: usize) -> Result<(), Unsupported> {
        let instrs = &self.f.blocks[b].instrs;
        // Instructions after a terminator never run.
        let live = instrs.iter().position(|i| i.is_terminator()).map_or(instrs.len(), |t| t + 1);
        if live > 0 {
            s.local_get(self.count).i64_const(live as i64).i64_add().local_tee(self.count);
            s.local_get(self.fuel).i64_gt_u().if_(BlockType::Empty).unreachable().end();
        }
        for (k, i) in instrs[..live].iter().enumerate() {
            let from = self.risky.partition_point(|&(rb, ri, _)| (rb, ri) < (b, k));
            for &(_, _, v) in self.risky[from..].iter().take_while(|&&(rb, ri, _)| (rb, ri) == (b, k)) {
                if let Some(flag) = self.flag[v] {
                    s.local_get(flag).i32_eqz().if_(BlockType::Empty).unreachable().end();
                }
            }
            self.instr(s, b, i)?;
        }
        Ok(())
    }

    fn instr(&self, s: &mut InstructionSink<'_>, b: usize, i: &Instr) -> Result<(), Unsupported> {
        let binary = |s: &mut InstructionSink<'_>| -> Result<ValType, Unsupported> {
            self.get(s, i, 0)?;
            self.get(s, i, 1)
        };
        match i.op {
            Op::Const => {
                let d = i.dest.ok_or("a missing destination")?;
                let bits = i.value.ok_or("a missing value")?.bits(d.ty);
                match val_type(d.ty) {
                    ValType::I64 => s.i64_const(bits as i64),
                    ValType::F64 => s.f64_const(Ieee64::new(bits)),
                    _ => s.i32_const(bits as i32),
                };
                self.set(s, i)?;
            }
            Op::Id => {
                self.get(s, i, 0)?;
                self.set(s, i)?;
            }
            Op::Add | Op::Sub | Op::Mul => {
                binary(s)?;
                match i.op {
                    Op::Add => s.i64_add(),
                    Op::Sub => s.i64_sub(),
                    _ => s.i64_mul(),
                };
                self.set(s, i)?;
            }
            Op::Div => {
                // Dividing by -1 negates, wrapping as the interpreter does
                // (wasm traps on the one overflowing quotient); by zero traps.
                self.get(s, i, 1)?;
                s.i64_const(-1).i64_eq().if_(BlockType::Result(ValType::I64));
                s.i64_const(0);
                self.get(s, i, 0)?;
                s.i64_sub().else_();
                binary(s)?;
                s.i64_div_s().end();
                self.set(s, i)?;
            }
            Op::Eq | Op::Lt | Op::Gt | Op::Le | Op::Ge => {
                binary(s)?;
                match i.op {
                    Op::Eq => s.i64_eq(),
                    Op::Lt => s.i64_lt_s(),
                    Op::Gt => s.i64_gt_s(),
                    Op::Le => s.i64_le_s(),
                    _ => s.i64_ge_s(),
                };
                self.set(s, i)?;
            }
            // Char comparisons compare code points.
            Op::Ceq | Op::Clt | Op::Cgt | Op::Cle | Op::Cge => {
                binary(s)?;
                match i.op {
                    Op::Ceq => s.i32_eq(),
                    Op::Clt => s.i32_lt_u(),
                    Op::Cgt => s.i32_gt_u(),
                    Op::Cle => s.i32_le_u(),
                    _ => s.i32_ge_u(),
                };
                self.set(s, i)?;
            }
            Op::Not => {
                self.get(s, i, 0)?;
                s.i32_eqz();
                self.set(s, i)?;
            }
            Op::And | Op::Or => {
                binary(s)?;
                if i.op == Op::And {
                    s.i32_and();
                } else {
                    s.i32_or();
                }
                self.set(s, i)?;
            }
            Op::Fadd | Op::Fsub | Op::Fmul | Op::Fdiv => {
                binary(s)?;
                match i.op {
                    Op::Fadd => s.f64_add(),
                    Op::Fsub => s.f64_sub(),
                    Op::Fmul => s.f64_mul(),
                    _ => s.f64_div(),
                };
                self.set(s, i)?;
            }
            Op::Feq | Op::Flt | Op::Fgt | Op::Fle | Op::Fge => {
                binary(s)?;
                match i.op {
                    Op::Feq => s.f64_eq(),
                    Op::Flt => s.f64_lt(),
                    Op::Fgt => s.f64_gt(),
                    Op::Fle => s.f64_le(),
                    _ => s.f64_ge(),
                };
                self.set(s, i)?;
            }
            Op::Char2Int => {
                self.get(s, i, 0)?;
                s.i64_extend_i32_u();
                self.set(s, i)?;
            }
            Op::Int2Char => {
                // Past U+10FFFF, negative, or a surrogate: no char.
                self.get(s, i, 0)?;
                s.i64_const(0x10FFFF).i64_gt_u();
                self.get(s, i, 0)?;
                s.i64_const(0xD800).i64_sub().i64_const(0x800).i64_lt_u().i32_or();
                s.if_(BlockType::Empty).unreachable().end();
                self.get(s, i, 0)?;
                s.i32_wrap_i64();
                self.set(s, i)?;
            }
            Op::Set => {
                let t = i.shadow_target().ok_or("a missing argument")?;
                let (shadow, flag) = self.shadow[t.index()].ok_or("no shadow")?;
                self.get(s, i, 1)?;
                s.local_set(shadow).i32_const(1).local_set(flag);
            }
            Op::Get => {
                let d = i.def().ok_or("a missing destination")?;
                // A `get` whose shadow no `set` writes always fails.
                let Some((shadow, flag)) = self.shadow.get(d.index()).copied().flatten() else {
                    s.unreachable();
                    return Ok(());
                };
                s.local_get(flag).i32_eqz().if_(BlockType::Empty).unreachable().end();
                s.local_get(shadow);
                self.set(s, i)?;
            }
            Op::Nop => {}
            Op::Print => self.print(s, i)?,
            Op::Call => {
                let callee = i.func.ok_or("a missing callee")?;
                let target = self.program.functions.get(callee.index()).ok_or("an unknown callee")?;
                if target.params.len() != i.args.len() {
                    return Err("a call of the wrong arity".into());
                }
                for k in 0..i.args.len() {
                    self.get(s, i, k)?;
                }
                s.local_get(self.count).global_set(COUNT);
                s.call(callee.0);
                s.global_get(COUNT).local_set(self.count);
                match (i.def(), target.ret) {
                    (Some(_), Some(_)) => self.set(s, i)?,
                    (None, Some(_)) => {
                        s.drop();
                    }
                    (None, None) => {}
                    (Some(_), None) => return Err("a void call's result used".into()),
                }
            }
            Op::Ret => {
                match (i.args.first(), self.f.ret) {
                    (Some(_), Some(_)) => {
                        self.get(s, i, 0)?;
                    }
                    (None, None) => {}
                    _ => return Err("a return of the wrong kind".into()),
                }
                self.epilogue(s);
                s.return_();
            }
            Op::Jmp => {
                let to = i.labels.first().ok_or("a missing label")?.index();
                self.goto(s, b, to, 0);
            }
            Op::Br => {
                let then = i.labels.first().ok_or("a missing label")?.index();
                let otherwise = i.labels.get(1).ok_or("a missing label")?.index();
                self.get(s, i, 0)?;
                s.if_(BlockType::Empty);
                self.goto(s, b, then, 1);
                s.else_();
                self.goto(s, b, otherwise, 1);
                s.end();
            }
            Op::Alloc => {
                self.get(s, i, 0)?;
                s.call(self.index.of(Helper::Alloc));
                self.set(s, i)?;
            }
            Op::Free => {
                self.get(s, i, 0)?;
                s.call(self.index.of(Helper::Free));
            }
            Op::Store => {
                self.get(s, i, 0)?;
                s.local_set(self.cell.ptr);
                cell_address(s, self.cell, true);
                let ty = self.get(s, i, 1)?;
                to_word(s, ty);
                s.i64_store(mem(0, 3));
            }
            Op::Load => {
                self.get(s, i, 0)?;
                s.local_set(self.cell.ptr);
                cell_address(s, self.cell, false);
                s.i64_load(mem(0, 3));
                let d = i.def().ok_or("a missing destination")?;
                from_word(s, self.local(d)?.1);
                self.set(s, i)?;
            }
            Op::PtrAdd => {
                let operand = |k: usize| -> Result<u32, Unsupported> {
                    Ok(self.local(*i.args.get(k).ok_or("a missing argument")?)?.0)
                };
                pointer_add(s, operand(0)?, operand(1)?, self.cell.offset);
                self.set(s, i)?;
            }
            Op::Undef | Op::Phi => return Err(format!("instruction {}", i.op)),
        }
        Ok(())
    }

    fn print(&self, s: &mut InstructionSink<'_>, i: &Instr) -> Result<(), Unsupported> {
        let emit = self.index.of(Helper::Emit);
        if i.args.is_empty() {
            s.i32_const(EMPTY_LINE as i32).i64_const(0).call(emit);
            return Ok(());
        }
        for (k, &v) in i.args.iter().enumerate() {
            let ty = self.types.get(v.index()).copied().flatten().ok_or("a value of no type printed")?;
            let last = if k + 1 == i.args.len() { END_OF_LINE } else { 0 };
            s.i32_const((layout::kind_of(ty) | last) as i32);
            if ty.is_ptr() {
                // The interpreter's pointer: allocation id and offset.
                let (local, _) = self.local(v)?;
                s.local_get(local).i64_const(32).i64_shr_u().i32_wrap_i64();
                s.i64_load32_u(mem(HEADER_ID, 2)).i64_const(32).i64_shl();
                s.local_get(local).i64_const(0xFFFF_FFFF).i64_and().i64_or();
            } else {
                let ty = self.get(s, i, k)?;
                to_word(s, ty);
            }
            s.call(emit);
        }
        Ok(())
    }
}

/// Turns the value on the stack into the interpreter's 64-bit word.
fn to_word(s: &mut InstructionSink<'_>, ty: ValType) {
    match ty {
        ValType::F64 => {
            s.i64_reinterpret_f64();
        }
        ValType::I32 => {
            s.i64_extend_i32_u();
        }
        _ => {}
    }
}

/// Turns the word on the stack into a value of type `ty`.
fn from_word(s: &mut InstructionSink<'_>, ty: ValType) {
    match ty {
        ValType::F64 => {
            s.f64_reinterpret_i64();
        }
        ValType::I32 => {
            s.i32_wrap_i64();
        }
        _ => {}
    }
}
