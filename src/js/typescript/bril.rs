//! The Bril compiler's functions: programs as Bril JSON, runs, passes.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_BRIL: &'static str = r#"
/** A Bril type: a primitive (`"int"`, `"bool"`, `"float"`, `"char"`) or a pointer. */
export type BrilType = string | { ptr: BrilType };
/** Where an instruction is in the source text. */
export interface BrilPosition {
  row: number;
  col: number;
}
export interface BrilSourced {
  pos?: BrilPosition;
  pos_end?: BrilPosition;
}
export interface BrilArgument {
  name: string;
  type: BrilType;
}
export interface BrilLabel extends BrilSourced {
  label: string;
}
export interface BrilConstant extends BrilSourced {
  op: "const";
  dest: string;
  type: BrilType;
  value: number | boolean | string;
}
/** An operation with a result (`add`, `call`, `load`...). */
export interface BrilValueOperation extends BrilSourced {
  op: string;
  dest: string;
  type: BrilType;
  args?: string[];
  funcs?: string[];
  labels?: string[];
}
/** An operation run for its effect (`print`, `br`, `ret`, `store`...). */
export interface BrilEffectOperation extends BrilSourced {
  op: string;
  args?: string[];
  funcs?: string[];
  labels?: string[];
}
export type BrilInstruction = BrilConstant | BrilValueOperation | BrilEffectOperation;
export interface BrilFunction extends BrilSourced {
  name: string;
  args?: BrilArgument[];
  type?: BrilType;
  instrs: (BrilInstruction | BrilLabel)[];
}
/** A Bril program in its JSON form, as `bril2json` writes it. */
export interface BrilProgram {
  functions: BrilFunction[];
}

/** Who runs a program: `'auto'` (the interpreter, then the program compiled to WebAssembly once a run is long), the compiled tier whenever it covers the program, or the interpreter. */
export type BrilTier = 'auto' | 'compiled' | 'interpreter';
/** `runBril`'s options. */
export interface BrilRunOptions {
  tier?: BrilTier;
}
/** `runBril`'s result: what the program printed and the instructions it executed (`brili -p`'s `total_dyn_inst`), and which tier ran it. */
export interface BrilRun {
  stdout: string;
  dynInst: number;
  tier: 'compiled' | 'interpreter';
}
/** What `runBril` throws for a program that fails while running: the error, with what it printed and executed until then (always the interpreter's). */
export interface BrilRunError extends CompgymError {
  stdout: string;
  dynInst: number;
  tier: 'compiled' | 'interpreter';
}

export interface BrilPass {
  flag: string;
  description: string;
}
/** How a pipeline runs pass by pass: its groups of pass flags in order; with `keepGroupIfNoLarger` (`-Oz`), a group is kept only if the program comes out no larger and changed, otherwise always. */
export interface BrilPipelinePlan {
  groups: string[][];
  keepGroupIfNoLarger: boolean;
}
/** `brilPasses()`: every pass and pipeline flag `optimizeBril` and `runBril` accept, and each pipeline's plan by name. */
export interface BrilPasses {
  passes: BrilPass[];
  pipelines: string[];
  pipelinePlans: Record<string, BrilPipelinePlan>;
}
"#;
