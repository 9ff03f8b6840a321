//! Space descriptions: JSON → space → sample → contains → flatten and
//! unflatten → JSON, Event and protocol round trips.

use super::{expect_kind, seed_of};
use crate::error::ErrorKind;
use crate::rng::Rng;
use crate::service::{space_from_message, space_to_message, value_from_event, value_to_event};
use crate::spaces::{flatten, space_from_json, unflatten, value_from_json, value_to_json, Space};
use crate::value::Value;

const DESCRIPTION_ERRORS: &[ErrorKind] =
    &[ErrorKind::Value, ErrorKind::Type, ErrorKind::Lookup, ErrorKind::Limit, ErrorKind::Overflow];

/// Whether two values are equal, NaN equal to itself (floats survive JSON
/// exactly, but `NaN != NaN`).
fn same(a: &Value, b: &Value) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Reads the bytes as a JSON space description; a space that results must
/// sample values it contains, and round-trip with them through every form.
pub fn space_description(data: &[u8]) {
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let mut space = match space_from_json(&json) {
        Ok(s) => s,
        Err(e) => return expect_kind(&e, DESCRIPTION_ERRORS, "space_from_json"),
    };
    let described = space.to_json();
    let again =
        space_from_json(&described).unwrap_or_else(|e| panic!("{described}: does not read back: {e}"));
    assert_eq!(again, space, "description round trip of {described}");
    assert_eq!(again.to_json(), described);
    space.seed(seed_of(data));
    for round in 0..3 {
        let value = if round == 0 { space.sample() } else { space.sample_with(Rng::seed_from_u64(round)).1 };
        check_value(&space, &value, &described);
    }
    let _ = space.create_empty();
    let _ = space.to_string();
    if let Ok(batch) = space.sample_batch(3) {
        assert_eq!(batch.shape().first(), Some(&3), "sample_batch of {described}");
    }
    check_message(&space, &described);
}

fn check_value(space: &Space, value: &Value, described: &serde_json::Value) {
    assert!(space.contains(value), "{described}: its sample {value:?} is not in it");
    let j = value_to_json(value);
    let back = value_from_json(&j).unwrap_or_else(|e| panic!("value JSON {j} does not read back: {e}"));
    assert!(same(&back, value), "value JSON round trip: {value:?} became {back:?}");
    let event = value_to_event(value);
    let back = value_from_event(&event).unwrap_or_else(|e| panic!("Event {event} does not read back: {e}"));
    // Protobuf maps do not keep key order, so compare by membership.
    assert!(space.contains(&back), "{described}: Event round trip of {value:?} gave {back:?}");
    if let Ok(flat) = flatten(space, value) {
        // Flattening promotes to one dtype (Gymnasium's rule), so int64 beyond
        // 2^53 may round through float64: the round trip is exact only from
        // then on.
        let back = unflatten(space, &flat).unwrap_or_else(|e| panic!("{described}: unflatten failed: {e}"));
        let again = flatten(space, &back).unwrap_or_else(|e| panic!("{described}: reflatten failed: {e}"));
        assert_eq!(again, flat, "{described}: flatten round trip of {value:?}");
        let twice = unflatten(space, &again).unwrap_or_else(|e| panic!("{described}: unflatten failed: {e}"));
        assert!(same(&twice, &back), "{described}: unflatten round trip: {back:?} became {twice:?}");
    }
}

/// The protocol's Space message names nothing below the top (reading names
/// the children after their parent), so compare what it can say: the
/// read-back space holds the original's samples, and a second round trip
/// changes nothing.
fn check_message(space: &Space, described: &serde_json::Value) {
    let read = |message: &serde_json::Value| {
        space_from_message(space.name(), message)
            .unwrap_or_else(|e| panic!("{described}: its message {message} does not read back: {e}"))
    };
    let back = read(&space_to_message(space));
    let message = space_to_message(&back);
    assert_eq!(space_to_message(&read(&message)), message, "{described}: message round trip");
    let value = space.sample_with(Rng::seed_from_u64(9)).1;
    assert!(back.contains(&value), "{described}: the message's space lacks {value:?}");
}
