//! [`EnvSpec`]: how to make the environment of one id.

use crate::env::{CompilerEnv, EnvOptions};
use crate::error::Result;

/// How to make the environment of one id.
#[derive(Clone, Debug)]
pub struct EnvSpec {
    pub id: String,
    /// Builds the environment from the merged options.
    pub entry_point: fn(EnvOptions) -> Result<CompilerEnv>,
    /// Options of this id, under those given to `make`.
    pub defaults: EnvOptions,
}
