// What each feature of the agent's observation vectors means: the
// Autophase sentences are the core's (src/bril/features/autophase.rs, copied
// here because the package does not export them; a Node test checks the
// names against the observation), and an InstCount count is of one opcode.

/** Autophase's 60 features, in the vector's order, each with its sentence. */
export const AUTOPHASE = {
  BlocksNoPred: "Blocks with no predecessor: entries and unreachable blocks.",
  BlocksOnePred: "Blocks with exactly one predecessor.",
  BlocksTwoPreds: "Blocks with exactly two predecessors.",
  BlocksManyPreds: "Blocks with more than two predecessors.",
  BlocksNoSucc: "Blocks with no successor: they return or fall off the function's end.",
  BlocksOneSucc: "Blocks with exactly one successor.",
  BlocksTwoSuccs: "Blocks with two successors (a `br` to two different labels).",
  BlocksOnePredOneSucc: "Blocks with one predecessor and one successor.",
  BlocksOnePredTwoSuccs: "Blocks with one predecessor and two successors.",
  BlocksTwoPredsOneSucc: "Blocks with two predecessors and one successor.",
  BlocksTwoPredsTwoSuccs: "Blocks with two predecessors and two successors.",
  Edges: "Control-flow edges between blocks (distinct source-target pairs).",
  CriticalEdges: "Edges from a block with several successors to a block with several predecessors.",
  LayoutBackEdges: "Edges to a block at or before their source in layout order (loops, in structured code).",
  UnreachableBlocks: "Blocks no path from the function's entry reaches.",
  EmptyBlocks: "Blocks without instructions (a label alone).",
  BlocksSmall: "Blocks with fewer than 15 instructions.",
  BlocksMid: "Blocks with 15 to 500 instructions.",
  BlocksLarge: "Blocks with more than 500 instructions.",
  BlocksStartingWithGet: "Blocks whose first instruction is a `get` (an SSA join, like an LLVM phi).",
  CondBranches: "Conditional branches (`br`).",
  UncondBranches: "Unconditional jumps (`jmp`).",
  FallThroughs: "Blocks without a terminator that fall through to the next block.",
  Returns: "`ret` instructions.",
  ReturnsValue: "`ret` instructions that return a value.",
  ReturnsVoid: "`ret` instructions without a value.",
  ConstZero: "Integer constants equal to 0.",
  ConstOne: "Integer constants equal to 1.",
  ConstOtherInt: "Integer constants other than 0 and 1.",
  Const32Bit: "Integer constants that fit in 32 signed bits.",
  Const64Bit: "Integer constants that need more than 32 bits.",
  ConstBool: "Boolean constants.",
  ConstFloat: "Float constants (of type float, whatever the literal's form).",
  ConstChar: "Char constants.",
  BinaryOpsConstArg: "Two-operand arithmetic, comparison or logic instructions with at least one constant-variable operand.",
  IntArith: "Integer arithmetic: add, sub, mul, div.",
  IntCompare: "Integer comparisons: eq, lt, gt, le, ge.",
  LogicOps: "Boolean logic: not, and, or.",
  FloatArith: "Float arithmetic: fadd, fsub, fmul, fdiv.",
  FloatCompare: "Float comparisons: feq, flt, fgt, fle, fge.",
  CharOps: "Char comparisons and conversions: ceq, clt, cgt, cle, cge, char2int, int2char.",
  MemAlloc: "`alloc` instructions.",
  MemFree: "`free` instructions.",
  MemLoad: "`load` instructions.",
  MemStore: "`store` instructions.",
  MemPtrAdd: "`ptradd` instructions.",
  MemTotal: "Memory instructions: alloc, free, load, store, ptradd.",
  Calls: "`call` instructions.",
  CallsWithResult: "`call` instructions that assign a result.",
  IdCopies: "`id` copies.",
  Prints: "`print` instructions.",
  Nops: "`nop` instructions.",
  SsaOps: "SSA instructions: set, get, undef, phi.",
  PointerDefs: "Instructions that define a pointer-typed variable.",
  TotalInsts: "Instructions (labels excluded).",
  TotalBlocks: "Basic blocks.",
  TotalFuncs: "Functions.",
  TotalParams: "Function parameters.",
  TotalVars: "Distinct variables over all functions (parameters included).",
  MaxBlockInsts: "Instructions in the largest block.",
};

/** The sentence of InstCount feature `name` ("AddCount": how many `add` instructions). */
export function instCountSentence(name) {
  const totals = {
    TotalInstsCount: 'Instructions in the program.',
    TotalBlocksCount: 'Basic blocks in the program.',
    TotalFuncsCount: 'Functions in the program.',
  };
  if (totals[name]) return totals[name];
  const op = name.replace(/Count$/, '').replace(/^./, (c) => c.toLowerCase());
  return `How many \`${op}\` instructions the program has.`;
}

/** The sentence of feature `name` of observation `space` ('Autophase' or 'InstCount'). */
export function featureSentence(space, name) {
  return space === 'Autophase' ? AUTOPHASE[name] ?? '' : instCountSentence(name);
}
