//! The TypeScript shapes of the plain objects that cross the boundary,
//! written into `compgym.d.ts` by wasm-bindgen (`typescript_custom_section`),
//! so that every export can name precisely what it takes and returns
//! (`unchecked_param_type`, `unchecked_return_type`). One file per area;
//! the environment API's own shapes are in `env/typescript.rs`; the unions
//! of the core's registries (`SpaceType`, `Batching`, `AgentName`) are
//! built from them at compile time (`unions.rs`).
//!
//! These are declarations only: nothing here runs. `tests/js/types.test.mjs`
//! checks them with the TypeScript compiler against real values.

mod bril;
mod protocol;
mod spaces;
mod timestep;
mod unions;
mod values;
