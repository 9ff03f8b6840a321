// Typed arrays told apart from the other view of an ArrayBuffer, DataView,
// which has no length and no elements: what a Box holds, or a wrapper maps
// element by element, is a number, an array or a typed array.

/** @typedef {Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array} TypedArray */

/**
 * Whether `value` is a typed array (an ArrayBuffer view other than a DataView).
 * @param {unknown} value
 * @returns {value is TypedArray}
 */
export function isTypedArray(value) {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}
