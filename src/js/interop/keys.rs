//! The JS strings of a space's dict keys, made once per space, so that
//! writing a value to JS does not decode every key of every dict again.

use crate::spaces::{Space, SpaceKind};
use wasm_bindgen::JsValue;

/// The keys of a space's dicts, shaped like the space.
#[derive(Clone, Default)]
pub enum Keys {
    /// No dict below.
    #[default]
    None,
    /// A dict's keys in order, each with its child's keys.
    Dict(Vec<(JsValue, Keys)>),
    /// A tuple's or union's children, in order.
    Items(Vec<Keys>),
    /// A space sequence's one child, for every item.
    Each(Box<Keys>),
}

const NONE: &Keys = &Keys::None;

impl Keys {
    pub fn of(space: &Space) -> Keys {
        match space.kind() {
            SpaceKind::Dict(d) => Keys::Dict(
                d.spaces().iter().map(|(key, child)| (JsValue::from_str(key), Keys::of(child))).collect(),
            ),
            SpaceKind::Tuple(t) => Self::items(t.spaces()),
            SpaceKind::Union(u) => Self::items(u.spaces()),
            SpaceKind::SpaceSequence(s) => match Keys::of(s.space()) {
                Keys::None => Keys::None,
                inner => Keys::Each(Box::new(inner)),
            },
            _ => Keys::None,
        }
    }

    fn items(spaces: &[Space]) -> Keys {
        let items: Vec<Keys> = spaces.iter().map(Keys::of).collect();
        if items.iter().all(|k| matches!(k, Keys::None)) {
            Keys::None
        } else {
            Keys::Items(items)
        }
    }

    /// The keys of child `i` of a tuple, union or space sequence.
    pub fn item(&self, i: usize) -> &Keys {
        match self {
            Keys::Items(items) => items.get(i).unwrap_or(NONE),
            Keys::Each(inner) => inner,
            _ => NONE,
        }
    }

    /// Key `i` of a dict and its child's keys, if made.
    pub fn entry(&self, i: usize) -> Option<&(JsValue, Keys)> {
        match self {
            Keys::Dict(entries) => entries.get(i),
            _ => None,
        }
    }
}
