//! `ObservationSpaceSpec`: an observation space as the environment sees it,
//! with derived spaces computed from a base space by a translate function.

use crate::error::Result;
use crate::service::ObservationSpace;
use crate::spaces::{value_to_json, Space};
use crate::value::Value;
use std::fmt;
use std::rc::Rc;

/// Computes a derived observation from its base observation. A closure, so
/// JavaScript functions can be wrapped as translate functions.
pub type Translate = Rc<dyn Fn(Value) -> Result<Value>>;
/// Formats an observation as text.
pub type Format = Rc<dyn Fn(&Value) -> Result<String>>;

#[derive(Clone)]
pub struct ObservationSpaceSpec {
    pub id: String,
    /// The index of the base space in the service's observation spaces.
    pub index: usize,
    pub space: Space,
    pub deterministic: bool,
    pub platform_dependent: bool,
    pub default_value: Value,
    /// `None` for a base space (the service's value as is).
    pub translate: Option<Translate>,
    /// `None` for the default: strings as they are, anything else as value JSON.
    pub to_string: Option<Format>,
}

/// The optional arguments of [`ObservationSpaceSpec::make_derived_space`];
/// each one left `None` is inherited from the base space.
#[derive(Clone, Default)]
pub struct DerivedSpaceOptions {
    pub space: Option<Space>,
    pub deterministic: Option<bool>,
    /// Default: the base's default value translated (or None if that fails).
    pub default_value: Option<Value>,
    pub platform_dependent: Option<bool>,
    pub to_string: Option<Format>,
}

impl fmt::Debug for ObservationSpaceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObservationSpaceSpec")
            .field("id", &self.id)
            .field("index", &self.index)
            .field("space", &self.space)
            .field("deterministic", &self.deterministic)
            .field("platform_dependent", &self.platform_dependent)
            .field("default_value", &self.default_value)
            .field("derived", &self.translate.is_some())
            .finish()
    }
}

impl ObservationSpaceSpec {
    /// The spec of entry `index` of the service's observation spaces.
    pub fn from_service(index: usize, space: &ObservationSpace) -> ObservationSpaceSpec {
        ObservationSpaceSpec {
            id: space.name.clone(),
            index,
            space: space.space.clone(),
            deterministic: space.deterministic,
            platform_dependent: space.platform_dependent,
            default_value: space.default_observation.clone(),
            translate: None,
            to_string: None,
        }
    }

    /// Applies this space's translation to a value of the base space.
    pub fn translate(&self, value: Value) -> Result<Value> {
        match &self.translate {
            Some(t) => t(value),
            None => Ok(value),
        }
    }

    /// The text form of an observation of this space.
    pub fn format(&self, value: &Value) -> Result<String> {
        match (&self.to_string, value) {
            (Some(f), v) => f(v),
            (None, Value::Str(s)) => Ok(s.clone()),
            (None, v) => Ok(value_to_json(v).to_string()),
        }
    }

    /// A space computed from this one by `translate` (composed after this
    /// space's own translation, so derived spaces can be derived again).
    pub fn make_derived_space(
        &self,
        id: &str,
        translate: Translate,
        options: DerivedSpaceOptions,
    ) -> ObservationSpaceSpec {
        let composed: Translate = match &self.translate {
            None => translate,
            Some(base) => {
                let base = base.clone();
                Rc::new(move |v| translate(base(v)?))
            }
        };
        let default_value = match options.default_value {
            Some(v) => v,
            None => composed(self.default_value.clone()).unwrap_or(Value::None),
        };
        ObservationSpaceSpec {
            id: id.to_string(),
            index: self.index,
            space: options.space.unwrap_or_else(|| self.space.clone()),
            deterministic: options.deterministic.unwrap_or(self.deterministic),
            platform_dependent: options.platform_dependent.unwrap_or(self.platform_dependent),
            default_value,
            translate: Some(composed),
            to_string: options.to_string.or_else(|| self.to_string.clone()),
        }
    }
}
