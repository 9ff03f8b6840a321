// Values of spaces that wrappers need: the typed array of a dtype, a Box's
// bounds element by element, and Gymnasium's create_zero_array (the value
// of a space nearest zero, for FrameStackObservation's and
// DelayObservation's padding).
import { describe, isSpace, typeError } from './core.js';
import { DTYPES } from './ml-wrappers.js';
/** @import { DescriptionBounds, DescriptionNumber, DType, Space, SpaceDescription } from '../compgym.js' */
/** @typedef {typeof DTYPES[keyof typeof DTYPES] | Uint8ArrayConstructor} TypedArrayConstructor */

/** A description number (`"inf"`, `"-inf"`, `"nan"`, a decimal string for 64 bits) as a number. */
const numberOf = (/** @type {DescriptionNumber} */ x) =>
  x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x === 'nan' ? NaN : Number(x);

const product = (/** @type {number[]} */ shape) => shape.reduce((a, b) => a * b, 1);

/** The typed array that holds values of `dtype` (bool as bytes, as batches hold them). */
export const typedArrayOf = (/** @type {DType} */ dtype) =>
  /** @type {TypedArrayConstructor} */ (dtype === 'bool' ? Uint8Array : DTYPES[dtype]);

/**
 * Description bounds (one for all, or nested like the shape) as `size` numbers.
 * @param {DescriptionBounds} bound
 * @param {number} size
 * @returns {number[]}
 */
function flatBounds(bound, size) {
  if (!Array.isArray(bound)) return new Array(size).fill(numberOf(bound));
  return /** @type {DescriptionNumber[]} */ (/** @type {unknown[]} */ (bound).flat(Infinity)).map(numberOf);
}

/**
 * A Box space's shape, element count, dtype and bounds (one number per
 * element, infinities as Infinity), or a TypeError naming `who`.
 * @param {unknown} space
 * @param {string} who
 */
export function boxBounds(space, who) {
  if (!isSpace(space)) throw typeError(`${who} needs a Box action space, got ${describe(space)}`);
  const d = space.toJSON();
  if (d.type !== 'Box') throw typeError(`${who} needs a Box action space, got ${space}`);
  const size = product(d.shape);
  return { shape: d.shape, size, dtype: d.dtype, low: flatBounds(d.low, size), high: flatBounds(d.high, size) };
}

/** The element nearest zero within [low, high]. */
const nearestZero = (/** @type {number} */ low, /** @type {number} */ high) => (low > 0 ? low : high < 0 ? high : 0);

/**
 * The value of the description `d` nearest zero (a TypeError for kinds without one).
 * @param {SpaceDescription} d
 * @returns {unknown}
 */
function zeroOf(d) {
  switch (d.type) {
    case 'Box': {
      const size = product(d.shape);
      const low = flatBounds(d.low, size);
      const high = flatBounds(d.high, size);
      const Ctor = typedArrayOf(d.dtype);
      const big = Ctor === BigInt64Array || Ctor === BigUint64Array;
      return /** @type {any} */ (Ctor).from(low, (/** @type {number} */ lo, /** @type {number} */ i) =>
        big ? BigInt(nearestZero(lo, high[i])) : nearestZero(lo, high[i]),
      );
    }
    case 'Discrete':
      return Number(d.start);
    case 'MultiDiscrete': {
      const Ctor = DTYPES[/** @type {keyof typeof DTYPES} */ (d.dtype ?? 'int64')];
      const big = Ctor === BigInt64Array || Ctor === BigUint64Array;
      return /** @type {any} */ (Ctor).from(d.start, (/** @type {number} */ x) => (big ? BigInt(x) : Number(x)));
    }
    case 'MultiBinary':
      return new Int8Array(product(d.shape));
    case 'Binary':
      return new Uint8Array(product(d.shape));
    case 'Text':
      return d.charset.length ? d.charset[0].repeat(d.min_length) : '';
    case 'Tuple':
      return d.spaces.map(zeroOf);
    case 'Dict':
      return Object.fromEntries(d.spaces.map(([key, child]) => [key, zeroOf(child)]));
    default:
      throw typeError(`a ${d.type} space has no zero value: pass a custom padding value (an element of the space)`);
  }
}

/**
 * Gymnasium's create_zero_array: the value of `space` nearest zero, checked to be in it.
 * @param {Space} space
 */
export function zeroValue(space) {
  const zero = zeroOf(space.toJSON());
  if (!space.contains(zero))
    throw typeError(`no zero value of ${space} could be made: pass a custom padding value (an element of the space)`);
  return zero;
}
