// Errors in the user's own program, placed and explained: the line the
// message points at, and a hint when the real cause is a missing `;` (Bril
// ends every instruction with one, so without it two lines read as one
// instruction and the message talks about its arguments instead).

/**
 * The `line:column` an error message points at, or null.
 * @param {string} message
 */
export function errorPosition(message) {
  const at = /(?:^|[\s(])(\d+):(\d+)(?=[:\s)])/.exec(message);
  return at ? { line: Number(at[1]), column: Number(at[2]) } : null;
}

/**
 * A line's code without its comment, trimmed.
 * @param {string | undefined} line
 */
function code(line) {
  return (line ?? '').replace(/#.*$/, '').trim();
}

/**
 * Whether a line of Bril is (the start of) an instruction that needs a `;`.
 * @param {string} text
 */
function needsSemicolon(text) {
  if (!text || text.endsWith(';') || text.endsWith('{') || text.endsWith('}')) return false;
  if (/^\.[\w.]+:?$/.test(text)) return false; // a label
  if (/^@\w[\w.]*/.test(text)) return false; // a function header
  return true;
}

/**
 * `{line, message}`: where an error about `source` is and what it says, with
 * a hint naming the missing `;` when the line the error points at (or the
 * one before, for a message about the next line) lacks it.
 * @param {any} error what was thrown: an Error, or one as data
 * @param {string} source
 * @returns {{ line: number | null, message: string }}
 */
export function explainProgramError(error, source) {
  // The environment names the benchmark first; the user knows which program it is.
  const text = `${error.name}: ${error.message.replace(/^\S+:\/\/\S+?: /, '')}`;
  const position = errorPosition(error.message);
  if (!position) return { line: null, message: text };
  const lines = source.split('\n');
  for (const line of [position.line, position.line - 1]) {
    if (line >= 1 && needsSemicolon(code(lines[line - 1])) && !/^\s*$/.test(lines[line] ?? '')) {
      return {
        line,
        message: `Line ${line} does not end with ";". Bril ends every instruction with ";", so line ${line} and the next were read as one instruction. (${text})`,
      };
    }
  }
  return { line: position.line, message: `Line ${position.line}: ${text}` };
}
