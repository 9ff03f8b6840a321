//! `catalog()`: the core's registry ([`crate::catalog`]) as a plain object,
//! so the package's JS and the playground read the lists instead of
//! keeping copies.

use super::interop::json::json_to_js;
use wasm_bindgen::prelude::*;

/// Every pass, observation, reward, agent and space kind with its sentence.
#[wasm_bindgen(unchecked_return_type = "Catalog")]
pub fn catalog() -> JsValue {
    json_to_js(&crate::catalog::catalog())
}

#[wasm_bindgen(typescript_custom_section)]
const TS_CATALOG: &'static str = r#"
/** One entry of a registry: its name and one plain sentence. */
export interface CatalogEntry {
  name: string;
  description: string;
}

/** How a space kind's values batch across vector environments: stacked into one array, gathered scalars, part by part (Dict, Tuple), or a list. */
export type Batching = "stack" | "gather" | "parts" | "list";

/** What `catalog()` returns: every list the core keeps, each in its own order (passes in action order). */
export interface Catalog {
  /** `description`: the technical line; `sentence`: plain words for a first meeting. */
  passes: (CatalogEntry & { sentence: string })[];
  observations: CatalogEntry[];
  rewards: CatalogEntry[];
  /** `seedOnly`: made from a seed alone (a search). */
  agents: (CatalogEntry & { name: AgentName; label: string; seedOnly: boolean })[];
  spaceKinds: (CatalogEntry & { name: SpaceType; batching: Batching })[];
  /** Autophase's features, in the observation vector's order. */
  autophase: CatalogEntry[];
}
"#;
