// Shared display helpers for the playground.

/** A thrown value the way users meet it: `name: message`. */
export function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A short, readable rendering of any value the package returns. */
export function show(value) {
  if (ArrayBuffer.isView(value)) {
    const items = Array.from(value, (x) => (typeof x === 'number' && !Number.isInteger(x) ? x.toFixed(3) : String(x)));
    return `${value.constructor.name}[${items.join(', ')}]`;
  }
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return value.toFixed(4);
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${show(v)}`).join(', ')}}`;
  }
  return String(value);
}
