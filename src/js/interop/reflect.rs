//! Reading the values JavaScript hands in, whatever they are.
//!
//! Looking into a JS value can run the caller's code: getters, Proxy traps,
//! a revoked Proxy, a typed array over a detached buffer. That code may
//! throw, and a JS exception that unwinds through the wasm frames skips
//! their epilogues: the shadow stack pointer stays where the deepest frame
//! left it and borrows stay held, so a few thousand such throws kill the
//! instance. Every operation here is imported with `catch`, and a throw
//! becomes a TypeError naming what was being read.
//!
//! An array is read item by item once its length is known to fit the byte
//! budget (a Proxy may claim 2^32 − 1 items) and, if it is long, once it is
//! known to have no holes (`new Array(4e6)` costs its maker nothing and a
//! reader seconds), and [`Walk`] keeps recursive readers within a nesting
//! limit, off cycles and within the budget.

use crate::error::{Error, Result};
use crate::limits::{self, MAX_BYTES};
use js_sys::Array as JsArray;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(object: &JsValue) -> std::result::Result<JsArray, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(object: &JsValue) -> std::result::Result<JsArray, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = getPrototypeOf)]
    fn object_get_prototype_of(object: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = create)]
    fn object_create(prototype: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = assign)]
    fn object_assign(target: &JsValue, source: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> std::result::Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn reflect_get_index(target: &JsValue, index: u32) -> std::result::Result<JsValue, JsValue>;
    /// `Array.prototype.includes`, called on the array with `undefined`: true
    /// for a hole, found at once in a sparse array and at memory speed in a dense one.
    #[wasm_bindgen(catch, js_namespace = ["Array", "prototype", "includes"], js_name = call)]
    fn array_includes(array: &JsValue, item: &JsValue) -> std::result::Result<bool, JsValue>;
}

/// `typeof value`, with `null` and arrays told apart: a name for messages
/// that runs none of the value's code (see `object::type_of` for one that
/// names typed arrays too).
pub fn kind_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if is_array(value) {
        "array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// The most of a thrown value's message quoted in an error, in UTF-16 units.
const MAX_QUOTED_UNITS: u32 = 4096;

/// What a thrown value says: its `message` if that is a string (the first
/// [`MAX_QUOTED_UNITS`] of it), else its kind.
pub fn message_of(thrown: &JsValue) -> String {
    let message = reflect_get(thrown, &JsValue::from_str("message")).unwrap_or(JsValue::UNDEFINED);
    text_of(&message).unwrap_or_else(|| kind_of(thrown))
}

/// `thrown.name` if it is a short string.
pub fn name_of(thrown: &JsValue) -> Option<String> {
    text_of(&reflect_get(thrown, &JsValue::from_str("name")).ok()?)
}

/// A string to quote: at most [`MAX_QUOTED_UNITS`] of it, marked when cut.
fn text_of(value: &JsValue) -> Option<String> {
    let text: &js_sys::JsString = value.dyn_ref()?;
    let units = text.length();
    if units <= MAX_QUOTED_UNITS {
        return value.as_string();
    }
    let head = String::from(text.slice(0, MAX_QUOTED_UNITS));
    Some(format!("{head}... ({} more UTF-16 units)", units - MAX_QUOTED_UNITS))
}

/// A TypeError for a value whose reading threw `thrown`.
pub fn threw(what: &str, thrown: &JsValue) -> Error {
    Error::type_error(format!("{what}: reading it threw: {}", message_of(thrown)))
}

/// The longest string read from JS, in UTF-16 code units: its UTF-8 copy
/// (at most three bytes a unit) stays within [`MAX_BYTES`].
pub const MAX_STRING_UNITS: u32 = (MAX_BYTES / 3) as u32;

/// `value` as a Rust string if it is a string (None otherwise); a
/// LimitError naming `what` if it is longer than [`MAX_STRING_UNITS`],
/// checked before it is copied into the wasm memory.
pub fn string(value: &JsValue, what: &str) -> Result<Option<String>> {
    if !value.is_string() {
        return Ok(None);
    }
    let units = value.unchecked_ref::<js_sys::JsString>().length();
    if units > MAX_STRING_UNITS {
        return Err(Error::limit(format!(
            "{what} is a string of {units} UTF-16 units, more than the limit of {MAX_STRING_UNITS}"
        )));
    }
    Ok(value.as_string())
}

/// `Array.isArray(value)` (true for a Proxy of an array), false where it throws
/// (a revoked Proxy).
pub fn is_array(value: &JsValue) -> bool {
    value.is_object() && array_is_array(value).unwrap_or(false)
}

/// `object[key]`; a throw is an error naming `what`.
pub fn get(object: &JsValue, key: &str, what: &str) -> Result<JsValue> {
    reflect_get(object, &JsValue::from_str(key)).map_err(|e| threw(what, &e))
}

thread_local! {
    /// The key `"length"`, made once: read for every array.
    static LENGTH: JsValue = JsValue::from_str("length");
}

/// The bytes one item of a JS array or object costs a reader at least.
const ITEM_BYTES: u64 = limits::VALUE_SLOT_BYTES;

/// The items of an array (a TypeError if `value` is not one), read after
/// checking that their count fits the byte budget.
pub fn array_items(value: &JsValue, what: &str) -> Result<Vec<JsValue>> {
    if !is_array(value) {
        return Err(Error::type_error(format!("{what} must be an array, got {}", kind_of(value))));
    }
    items(value, what)
}

/// The items of `value`, known to be an array ([`is_array`]).
pub fn items(value: &JsValue, what: &str) -> Result<Vec<JsValue>> {
    let len = array_length(value, what)?;
    if len > HOLE_CHECK_FROM {
        refuse_holes(value, len, what)?;
    }
    (0..len).map(|i| reflect_get_index(value, i).map_err(|e| threw(&format!("{what}[{i}]"), &e))).collect()
}

/// Arrays longer than this are checked for holes before their items are
/// read: a shorter sparse array wastes at most a few milliseconds of reads.
pub const HOLE_CHECK_FROM: u32 = 1024;

/// A TypeError if the array `value` of length `len` has holes. `includes(undefined)`
/// tells a dense array at once; an array with holes or `undefined` items then has
/// its own keys counted, which costs what it holds, not its length.
fn refuse_holes(value: &JsValue, len: u32, what: &str) -> Result<()> {
    if !array_includes(value, &JsValue::UNDEFINED).map_err(|e| threw(what, &e))? {
        return Ok(());
    }
    let present = object_keys(value).map_err(|e| threw(what, &e))?.length();
    if present < len {
        return Err(Error::type_error(format!(
            "{what} is a sparse array: {len} long with at most {present} items; an array must have no holes"
        )));
    }
    Ok(())
}

/// The length of an array, checked against the byte budget before anything
/// is read (a Proxy's `length` is whatever its trap says).
pub fn array_length(value: &JsValue, what: &str) -> Result<u32> {
    let length = LENGTH.with(|key| reflect_get(value, key)).map_err(|e| threw(what, &e))?;
    let len = match length.as_f64() {
        Some(x) if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) => x as u32,
        _ => return Err(Error::type_error(format!("{what} has no valid length ({})", kind_of(&length)))),
    };
    limits::check_bytes(limits::bytes(len.into(), ITEM_BYTES), format!("{what} ({len} items)"))?;
    Ok(len)
}

/// `Object.keys(object)`, within the byte budget.
pub fn keys(object: &JsValue, what: &str) -> Result<Vec<String>> {
    let keys = object_keys(object).map_err(|e| threw(what, &e))?;
    limits::check_bytes(limits::bytes(keys.length().into(), ITEM_BYTES), format!("{what}'s keys"))?;
    // The engine made this array of strings: reading it runs nothing of the caller's.
    keys.iter().map(|k| Ok(string(&k, what)?.unwrap_or_default())).collect()
}

/// `Object.entries(object)` as `(key, value)` pairs, within the byte budget.
pub fn entries(object: &JsValue, what: &str) -> Result<Vec<(String, JsValue)>> {
    let entries = object_entries(object).map_err(|e| threw(what, &e))?;
    limits::check_bytes(limits::bytes(entries.length().into(), ITEM_BYTES), format!("{what}'s entries"))?;
    entries
        .iter()
        .map(|pair| {
            let pair: JsArray = pair.unchecked_into();
            Ok((string(&pair.get(0), what)?.unwrap_or_default(), pair.get(1)))
        })
        .collect()
}

/// A shallow copy of `object` with the same prototype.
pub fn shallow_copy(object: &JsValue, what: &str) -> Result<JsValue> {
    let prototype = object_get_prototype_of(object).map_err(|e| threw(what, &e))?;
    let copy = object_create(&prototype).map_err(|e| threw(what, &e))?;
    object_assign(&copy, object).map_err(|e| threw(what, &e))
}

/// The bytes a read of a JS value has made so far: a LimitError past
/// [`MAX_BYTES`], counted over the whole value, so many parts that each
/// fit cannot add up to an abort, nor a small object that shares its parts
/// many times over to an exponential amount.
#[derive(Default)]
pub struct Budget {
    bytes: u64,
}

impl Budget {
    /// Counts `bytes` more, made for the value at `path`.
    pub fn spend(&mut self, bytes: u64, path: &str) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > MAX_BYTES {
            return Err(Error::limit(format!(
                "{path}: the value read would take more than the limit of {MAX_BYTES} bytes ({} MiB)",
                MAX_BYTES >> 20
            )));
        }
        Ok(())
    }
}

/// One recursive read of a JS value without a space to guide it: how deep
/// it is (a LimitError past `limit`), and its [`Budget`]. A walk that
/// reaches the limit because an object contains itself says so instead (a
/// ValueError naming where): cycles are looked for only there, so the walk
/// costs nothing more per value.
pub struct Walk {
    limit: usize,
    /// The values being read, outermost first, each with the length of its path
    /// (the path of each is a prefix of the next's).
    ancestors: Vec<(JsValue, usize)>,
    pub budget: Budget,
}

impl Walk {
    pub fn new(limit: usize) -> Walk {
        Walk { limit, ancestors: Vec::new(), budget: Budget::default() }
    }

    /// Enters `value` at `path`, one level deeper; call [`Walk::leave`]
    /// after reading it (after an error the walk is dropped, not resumed).
    pub fn enter(&mut self, value: &JsValue, path: &str) -> Result<()> {
        self.budget.spend(ITEM_BYTES, path)?;
        self.ancestors.push((value.clone(), path.len()));
        if self.ancestors.len() > self.limit {
            if let Some(end) = self.first_repeat() {
                let at = path.get(..end).unwrap_or(path);
                return Err(Error::value(format!("{at} contains itself (a cycle)")));
            }
            return Err(limits::too_deep(path, self.limit));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.ancestors.pop();
    }

    /// The path length of the first object on the walk that is also an ancestor of itself.
    fn first_repeat(&self) -> Option<usize> {
        (1..self.ancestors.len()).find_map(|k| {
            let (value, end) = &self.ancestors[k];
            let repeats = value.is_object() && self.ancestors[..k].iter().any(|(a, _)| a == value);
            repeats.then_some(*end)
        })
    }
}
