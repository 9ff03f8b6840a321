// Plain sentences for the words the page uses: the reinforcement-learning
// terms, every pass, every reward and every observation it shows.

export const TERMS = {
  agent: 'Whoever chooses the actions: you, pressing passes, or a program such as the search agents below.',
  action: 'One choice the agent makes. Here an action is one optimisation pass, applied to the whole program.',
  environment: 'The world the agent acts on. Here it is the Bril compiler holding one program; it applies each pass and reports back.',
  observation: 'What the environment shows the agent after each action: here the program text, its size, its control-flow graph, its features.',
  reward: 'A number saying how good the last action was. The agent tries to collect as much reward as possible over an episode.',
  episode: 'Everything from a reset (the program as written) to the last action. Its reward is the sum of the step rewards.',
  step: 'One action and what follows from it: a new observation and a reward.',
  space: 'The set of values an action or observation can take, such as "one of 32 passes" or "48 counts, each 0 or more".',
  policy: 'The agent\'s rule for choosing an action from what it observes.',
  regret: 'The reward a policy gave up compared with always choosing the best action. A learning policy\'s regret grows ever slower.',
};

/** What each pass does, for a student meeting it for the first time. */
export const PASSES = {
  '-dce': 'Deletes instructions whose result nobody reads, and definitions overwritten before anyone reads them.',
  '-lvn': 'Within each block, reuses a value computed before instead of computing it again, folds arithmetic on constants and reads through copies.',
  '-peephole': 'Rewrites tiny patterns into simpler ones: x + 0 becomes x, x * 1 becomes x, x - x becomes 0.',
  '-dead-functions': 'Deletes the functions @main can never call.',
  '-inline': 'Copies the body of a small function into each place that calls it, so the call disappears.',
  '-tail-call': 'Turns a function that calls itself as its very last act into a loop.',
  '-dead-store': 'Deletes stores to memory that nothing reads afterwards.',
  '-mem2reg': 'Keeps small arrays that are only addressed by constants in plain variables instead of memory.',
  '-to-ssa': 'Rewrites the program so every variable is assigned exactly once (SSA form). It adds instructions, but makes later passes see more.',
  '-from-ssa': 'Leaves SSA form: its set/get bookkeeping becomes ordinary copies, and the copies not needed disappear.',
  '-sccp': 'Finds variables that hold the same constant on every path, folds them, and deletes branches that can never be taken.',
  '-copy-prop': 'Where a variable is only a copy of another, reads the original instead, then deletes copies nobody needs.',
  '-adce': 'Assumes everything is dead except what prints, stores, returns or calls, and keeps only what those need, across blocks and loops.',
  '-gvn': 'Across the whole function, reuses a value already computed on every path to here instead of computing it again.',
  '-simplify-cfg': 'Tidies the control-flow graph: drops unreachable blocks, folds branches on constants, merges blocks that always follow each other.',
  '-licm': 'Moves computations that give the same result in every iteration out of the loop, so they run once.',
  '-loop-unroll': 'Copies the body of a small loop with a known trip count once per iteration and removes the loop: bigger code, fewer branches.',
  '-strength-reduce': 'Replaces multiplications by the loop counter with additions carried from one iteration to the next.',
  '-loop-rotate': 'Copies a loop\'s test to the bottom of its body, so each iteration runs one jump fewer and the first test guards the whole loop.',
  '-jump-thread': 'Where a branch\'s outcome is already known on the way in (the same test was just made, or the flag was just set), jumps straight to where it would go.',
  '-pre': 'Where a value is computed on some paths and computed again later, computes it on the other paths too, so the later computation can go.',
  '-dead-args': 'Drops the parameters a function never reads and the results no caller uses, from the function and from every call.',
  '-specialize': 'Where a call passes constants, calls a copy of the function made for those values, which later passes can simplify.',
  '-reassociate': 'Reorders chains of additions, multiplications, ands and ors so equal sums look alike and the constants fold together.',
  '-sink': 'Moves a computation into the one branch that uses its result, so the other paths no longer pay for it.',
  '-loop-deletion': 'Deletes a loop that surely ends and computes nothing anyone reads afterwards.',
  '-inline=10': 'Like -inline, but only copies functions of at most 10 instructions: less growth, fewer calls removed.',
  '-inline=120': 'Like -inline, but copies functions of up to 120 instructions: more calls removed, more growth.',
  '-loop-unroll=2': 'Runs two iterations of a counting loop per test, whatever the trip count; the original loop does what is left.',
  '-loop-unroll=4': 'Runs four iterations of a counting loop per test, whatever the trip count; the original loop does what is left.',
  '-loop-unroll=8': 'Runs eight iterations of a counting loop per test, whatever the trip count; the original loop does what is left.',
  '-outline': 'Finds a run of instructions that appears in several places, moves it into a new function and calls that function from each place: smaller code, a call more at run time. The opposite of -inline.',
};

/** The rewards, as CompilerGym defines them. */
export const REWARDS = {
  IrInstructionCount:
    'Each step earns the number of instructions it removed (negative if it added some). The episode reward is how much smaller the program is than at the start.',
  IrInstructionCountNorm:
    'Each step earns the instructions it removed divided by the program\'s size at the start, so programs of any size score on one scale.',
  IrInstructionCountOz:
    'Each step earns the instructions it removed divided by how many the compiler\'s own -Oz pipeline removes: an episode reward of 1 matches -Oz, above 1 beats it.',
  DynamicInstructionCount:
    'Each step earns how many fewer instructions the program executes when it runs on its arguments: the environment\'s measure of speed.',
  DynamicInstructionCountNorm:
    'Each step earns the executed instructions it saved divided by those the unoptimised program executes.',
  DynamicInstructionCountO2:
    'Each step earns the executed instructions it saved divided by those -O2 saves: an episode reward of 1 matches -O2.',
};

/** The observations the page shows. */
export const OBSERVATIONS = {
  Ir: 'The program as text (Bril): what the agent would read.',
  IrInstructionCount: 'The number of instructions in the program: its static size.',
  IrInstructionCountOz: 'The size the compiler\'s -Oz pipeline reaches: the baseline for the -Oz reward.',
  DynamicInstructionCount: 'The number of instructions executed when the program runs on its arguments: its "run time".',
  Cfg: 'The control-flow graph: blocks of straight-line code, and arrows for the jumps and branches between them.',
  InstCount: 'How many instructions of each kind (add, mul, br, ...) the program has: 48 counts.',
  Autophase: '60 numbers describing the program\'s shape: blocks with one or two predecessors, constants, branches, memory operations...',
  Programl: 'The program as a graph of instructions, variables and constants joined by control, data and call edges.',
  BrilJson: 'The program in Bril\'s JSON form, the one the reference tools exchange.',
  IrSha1: 'A fingerprint of the program text: equal fingerprints, equal programs.',
  InstCountDict: 'The InstCount numbers, each under its name.',
  InstCountNorm: 'The InstCount numbers divided by the total instruction count: the program\'s mix of instructions.',
  AutophaseDict: 'The Autophase numbers, each under its name.',
  ProgramlJson: 'The ProGraML graph as JSON, nodes and edges spelled out.',
  CfgDot: 'The control-flow graph in Graphviz\'s dot language.',
  IrInstructionCountO0: 'The size of the program as written, before any pass.',
  IrInstructionCountO1: 'The size the compiler\'s -O1 pipeline reaches.',
  IrInstructionCountO2: 'The size the compiler\'s -O2 pipeline reaches.',
  DynamicInstructionCountO0: 'The instructions the unoptimised program executes.',
  DynamicInstructionCountO1: 'The instructions the program executes after -O1.',
  DynamicInstructionCountO2: 'The instructions the program executes after -O2: the baseline for the -O2 reward.',
  DynamicInstructionCountOz: 'The instructions the program executes after -Oz.',
  Output: 'What the program prints when it runs on its arguments.',
  IsRunnable: 'Whether the program can run at all (it has a @main).',
  Structure: 'The program\'s loops (how deep, whether their trip counts are known, how much code runs in them) and its call graph (recursion, depth, small and single-use functions).',
  Features: 'Autophase, InstCount and Structure in one vector: what the learned policy reads.',
};

/** A sentence for `name` from any of the tables, or null. */
export function sentence(name) {
  return TERMS[name] ?? PASSES[name] ?? REWARDS[name] ?? OBSERVATIONS[name] ?? null;
}
