//! `sample(mask)` and `sample({mask, probability})`'s argument as a core
//! [`Constraint`] (the rules are the core's, [`crate::spaces::masked`]).
//!
//! A mask is a `Uint8Array`, an `Int8Array` or an array of 0/1 numbers (or
//! booleans); probabilities a `Float64Array`, a `Float32Array` or an array
//! of numbers. Either may also be an array of such rows, nested as deep as
//! a MultiDiscrete's shape (Gymnasium's tuple of masks): the rows are read
//! in order. Anything else is a TypeError; values that are not integers in
//! `[0, 255]` in a mask are a ValueError.

use super::object::type_of;
use super::reflect;
use super::typed::{read_typed, typed_array};
use crate::error::{Error, Result};
use crate::limits;
use crate::spaces::Constraint;
use crate::value::DType;
use wasm_bindgen::prelude::*;

/// What one row of numbers is read as.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Mask,
    Probability,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Kind::Mask => "mask",
            Kind::Probability => "probability",
        }
    }
    fn accepts(self, dtype: DType) -> bool {
        match self {
            Kind::Mask => matches!(dtype, DType::U8 | DType::I8),
            Kind::Probability => dtype.is_float(),
        }
    }
    fn wrong_type(self, value: &JsValue) -> Error {
        let expected = match self {
            Kind::Mask => "a Uint8Array, an Int8Array or an array of 0/1",
            Kind::Probability => "a Float64Array, a Float32Array or an array of numbers",
        };
        Error::type_error(format!(
            "{} must be {expected} (or an array of them), got {}",
            self.what(),
            type_of(value)
        ))
    }
}

/// Rows of numbers as f64, in reading order.
fn read_rows(value: &JsValue, kind: Kind, depth: usize, rows: &mut Vec<Vec<f64>>) -> Result<()> {
    if depth > limits::MAX_DIMS {
        return Err(limits::too_deep(kind.what(), limits::MAX_DIMS));
    }
    if let Some(info) = typed_array(value) {
        if !kind.accepts(info.dtype) {
            return Err(kind.wrong_type(value));
        }
        rows.push(read_typed(value, info, kind.what())?.to_f64_vec());
        return Ok(());
    }
    if !reflect::is_array(value) {
        return Err(kind.wrong_type(value));
    }
    let items = reflect::items(value, kind.what())?;
    let is_row = |x: &JsValue| x.as_f64().is_some() || x.as_bool().is_some();
    if items.iter().all(is_row) {
        rows.push(items.iter().map(|x| x.as_f64().or(x.as_bool().map(f64::from)).unwrap_or(0.0)).collect());
        return Ok(());
    }
    if items.iter().any(is_row) {
        return Err(kind.wrong_type(value));
    }
    items.iter().try_for_each(|item| read_rows(item, kind, depth + 1, rows))
}

fn mask(value: &JsValue) -> Result<Constraint> {
    let mut rows = Vec::new();
    read_rows(value, Kind::Mask, 0, &mut rows)?;
    let rows = rows
        .into_iter()
        .map(|row| {
            row.into_iter()
                .enumerate()
                .map(|(i, x)| {
                    if x.fract() == 0.0 && (0.0..=255.0).contains(&x) {
                        Ok(x as u8)
                    } else {
                        Err(Error::value(format!(
                            "mask values must be 0 or 1 (2 for MultiBinary), got {x} at {i}"
                        )))
                    }
                })
                .collect::<Result<Vec<u8>>>()
        })
        .collect::<Result<_>>()?;
    Ok(Constraint::Mask(rows))
}

fn probability(value: &JsValue) -> Result<Constraint> {
    let mut rows = Vec::new();
    read_rows(value, Kind::Probability, 0, &mut rows)?;
    Ok(Constraint::Probability(rows))
}

fn given(value: &JsValue) -> bool {
    !value.is_undefined() && !value.is_null()
}

/// The constraint of `sample(argument)`: None for no argument (or an
/// object with neither key); a mask for a typed array or array; `{mask}`
/// or `{probability}` (both: ValueError; other keys: TypeError).
pub fn read_constraint(argument: &JsValue) -> Result<Option<Constraint>> {
    if !given(argument) {
        return Ok(None);
    }
    if typed_array(argument).is_some() || reflect::is_array(argument) {
        return mask(argument).map(Some);
    }
    if !argument.is_object() {
        return Err(Error::type_error(format!(
            "sample takes a mask or {{mask, probability}}, got {}",
            type_of(argument)
        )));
    }
    super::options::check_keys(argument, &["mask", "probability"], "sample's options")?;
    let m = reflect::get(argument, "mask", "sample's mask")?;
    let p = reflect::get(argument, "probability", "sample's probability")?;
    match (given(&m), given(&p)) {
        (true, true) => Err(Error::value("only one of mask and probability can be given")),
        (true, false) => mask(&m).map(Some),
        (false, true) => probability(&p).map(Some),
        (false, false) => Ok(None),
    }
}
