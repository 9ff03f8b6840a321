// Display helpers shared by the panels.
import { isTypedArray } from '../pkg/gym/arrays.js';
import { valueError } from '../pkg/errors.js';

/**
 * The whole number typed into a field (its text), from `low` to `high`; a
 * ValueError naming `what` for anything else, an empty field included.
 * @param {string} text
 * @param {string} what
 * @param {number} low
 * @param {number} high
 */
export function wholeNumber(text, what, low, high) {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < low || value > high) {
    const range = `from ${low.toLocaleString('en-US')} to ${high.toLocaleString('en-US')}`;
    throw valueError(`${what} must be a whole number ${range}, got ${text || 'nothing'}`);
  }
  return value;
}

/**
 * A thrown value the way users meet it: `name: message`.
 * @param {any} error what was thrown
 */
export function describe(error) {
  if (error instanceof Error || (error && typeof error === 'object' && 'message' in error)) {
    return `${error.name ?? 'Error'}: ${error.message}`;
  }
  return String(error);
}

/**
 * A short, readable rendering of any value the package returns.
 * @param {unknown} value
 * @returns {string}
 */
export function show(value, digits = 3) {
  if (isTypedArray(value)) {
    const items = Array.from(/** @type {ArrayLike<number | bigint>} */ (value), (x) => show(x, digits));
    return `${value.constructor.name}[${items.join(', ')}]`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => show(v, digits)).join(', ')}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return value.toFixed(digits);
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${show(v, digits)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/**
 * A number with a sign and `digits` decimals (integers stay integers).
 * @param {number | null | undefined} x
 */
export function signed(x, digits = 3) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const text = Number.isInteger(x)
    ? count(Math.abs(x))
    : Math.abs(x).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${x > 0 ? '+' : x < 0 ? '−' : ''}${text}`;
}

/**
 * `n` things: "1 block", "12,345 blocks".
 * @param {number} n
 * @param {string} word
 */
export function plural(n, word) {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * 12345 → "12,345".
 * @param {number | bigint | null | undefined} n
 */
export function count(n) {
  return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US');
}

/** @typedef {Node | string | null | undefined | false} Child a child of h: falsy ones are left out */

/**
 * Creates an element: `h('button', {class: 'x', onclick}, 'text', child)`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{ [attribute: string]: any }} [attributes] listeners (`on...`), `dataset`, properties or attributes
 * @param {(Child | Child[])[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && typeof value !== 'string') /** @type {any} */ (node)[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(.../** @type {(Node | string)[]} */ (children.flat().filter((c) => c !== null && c !== undefined && c !== false)));
  return node;
}

/**
 * Scrolls `container` (an element that scrolls) just enough to show
 * `element`, never the page: `scrollIntoView` would move every scrolling
 * ancestor, the window included.
 * @param {Element} container
 * @param {Element} element
 */
export function scrollWithin(container, element) {
  const box = container.getBoundingClientRect();
  const item = element.getBoundingClientRect();
  if (item.top < box.top) container.scrollTop -= box.top - item.top;
  else if (item.bottom > box.bottom) container.scrollTop += Math.min(item.bottom - box.bottom, item.top - box.top);
}

/** A task boundary: input and painting come before what follows. */
/** @returns {Promise<void>} */
export function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
