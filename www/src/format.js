// Display helpers shared by the panels.

/** A thrown value the way users meet it: `name: message`. */
export function describe(error) {
  if (error instanceof Error || (error && typeof error === 'object' && 'message' in error)) {
    return `${error.name ?? 'Error'}: ${error.message}`;
  }
  return String(error);
}

/** An Error with the given `name`, as the package's typed errors are. */
export function typedError(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** A short, readable rendering of any value the package returns. */
export function show(value, digits = 3) {
  if (ArrayBuffer.isView(value)) {
    const items = Array.from(value, (x) => show(x, digits));
    return `${value.constructor.name}[${items.join(', ')}]`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => show(v, digits)).join(', ')}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return value.toFixed(digits);
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${show(v, digits)}`).join(', ')}}`;
  }
  return String(value);
}

/** A number with a sign and `digits` decimals (integers stay integers). */
export function signed(x, digits = 3) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const text = Number.isInteger(x) ? String(Math.abs(x)) : Math.abs(x).toFixed(digits);
  return `${x > 0 ? '+' : x < 0 ? '−' : ''}${text}`;
}

/** 12345 → "12,345". */
export function count(n) {
  return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US');
}

/** Creates an element: `h('button', {class: 'x', onclick}, 'text', child)`. */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
