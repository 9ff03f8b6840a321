//! Core errors become JS `Error`s whose `name` is the error kind.

use crate::Error;
use wasm_bindgen::JsValue;

/// The longest message a JS error carries, in bytes: a message that quotes
/// a huge input is cut, so making the error cannot itself fail.
const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A JS `Error` with `name` set to the kind (`ValueError`, `LookupError`...)
/// and `message` to the core's message.
pub fn to_js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&cut(error.message()));
    js.set_name(error.name());
    js.into()
}

/// `message`, or its first [`MAX_MESSAGE_BYTES`] marked as cut.
fn cut(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message.into();
    }
    let end = (0..=MAX_MESSAGE_BYTES).rev().find(|&i| message.is_char_boundary(i)).unwrap_or(0);
    format!("{}... ({} more bytes)", &message[..end], message.len() - end).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn long_messages_are_cut_on_a_char_boundary() {
        assert_eq!(cut("short"), "short");
        let long = "é".repeat(MAX_MESSAGE_BYTES);
        let out = cut(&long);
        assert!(out.len() < MAX_MESSAGE_BYTES + 40, "{}", out.len());
        assert!(out.ends_with(&format!("... ({} more bytes)", long.len() - MAX_MESSAGE_BYTES)));
    }
}
