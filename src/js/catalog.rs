//! `catalog()`: the core's registry ([`crate::catalog`]) as a plain object,
//! so the package's JS and the playground read the lists instead of
//! keeping copies; `runtimeReward()`: a runtime reward from instruction
//! counts measured elsewhere, by the core's own formula.

use super::error::to_js_error;
use super::interop::json::json_to_js;
use super::interop::{args, options};
use wasm_bindgen::prelude::*;

/// Every pass, observation, reward, agent and space kind with its sentence.
#[wasm_bindgen(unchecked_return_type = "Catalog")]
pub fn catalog() -> JsValue {
    json_to_js(&crate::catalog::catalog())
}

/// The reward `name` (one whose catalog entry has `runsProgram`) of a step
/// from a program executing `before` instructions to one executing `after`,
/// exactly as the environment computes it: `counts.o0` is the count of the
/// program as loaded (for the normalised and -O2 rewards), `counts.o2` its
/// count after -O2 (for a reward with `needsO2`). An unknown reward is a
/// LookupError; one that does not run the program, a missing or negative
/// count, a ValueError.
#[wasm_bindgen(js_name = runtimeReward)]
pub fn runtime_reward(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] after: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ o0?: number; o2?: number } | null")] counts: JsValue,
) -> Result<f64, JsValue> {
    let read = || {
        let name = args::string(&name, "name")?;
        let before = args::number(&before, "before")?;
        let after = args::number(&after, "after")?;
        let (o0, o2) = if options::check_keys(&counts, &["o0", "o2"], "counts")? {
            (options::number(&counts, "o0", "counts")?, options::number(&counts, "o2", "counts")?)
        } else {
            (None, None)
        };
        crate::compilers::bril::envs::runtime_reward(&name, before, after, o0, o2)
    };
    read().map_err(to_js_error)
}

#[wasm_bindgen(typescript_custom_section)]
const TS_CATALOG: &'static str = r#"
/** One entry of a registry: its name and one plain sentence. */
export interface CatalogEntry {
  name: string;
  description: string;
}

/** What `catalog()` returns: every list the core keeps, each in its own order (passes in action order). */
export interface Catalog {
  /** `description`: the technical line; `sentence`: plain words for a first meeting. */
  passes: (CatalogEntry & { sentence: string })[];
  observations: CatalogEntry[];
  /** `runsProgram`: a step's reward runs the program (see `runtimeReward`); `needsO2`: it is measured against the count after -O2. */
  rewards: (CatalogEntry & { runsProgram: boolean; needsO2: boolean })[];
  /** `seedOnly`: made from a seed alone (a search). */
  agents: (CatalogEntry & { name: AgentName; label: string; seedOnly: boolean })[];
  spaceKinds: (CatalogEntry & { name: SpaceType; batching: Batching })[];
  /** Autophase's features, in the observation vector's order. */
  autophase: CatalogEntry[];
}
"#;
