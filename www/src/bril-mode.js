// Bril's text format for CodeMirror, as a stream language: comments,
// function names (@f), labels (.l), types, opcodes, literals.
import { StreamLanguage } from '@codemirror/language';

const TYPES = /^(int|bool|float|char|ptr)\b/;
const LITERALS = /^(true|false)\b/;

/** Token types as CodeMirror's legacy names (mapped to highlight tags). */
export const brilLanguage = StreamLanguage.define({
  name: 'bril',
  startState: () => ({ afterColon: false, opcodeNext: true }),
  token(stream, state) {
    if (stream.sol()) {
      state.opcodeNext = true;
      state.afterColon = false;
    }
    if (stream.eatSpace()) return null;
    if (stream.match(/^#.*/)) return 'comment';
    if (stream.match(/^@[\w.]+/)) return 'def';
    if (stream.match(/^\.[\w.]+/)) return 'labelName';
    if (stream.match(/^'(?:\\.|[^'\\])'/)) return 'string';
    if (stream.match(/^-?\d+(\.\d+)?(e-?\d+)?/i)) return 'number';
    if (stream.eat(':')) {
      state.afterColon = true;
      return 'punctuation';
    }
    if (stream.eat('=')) {
      state.opcodeNext = true;
      state.afterColon = false;
      return 'operator';
    }
    if (stream.eat(';')) {
      state.opcodeNext = true;
      return 'punctuation';
    }
    if (stream.match(/^[{}(),<>]/)) return 'bracket';
    if (state.afterColon && stream.match(TYPES)) {
      stream.match(/^<[\w<>]*>/);
      state.afterColon = false;
      return 'typeName';
    }
    if (stream.match(LITERALS)) return 'atom';
    if (stream.match(/^[A-Za-z_][\w.]*/)) {
      const word = stream.current();
      // The first word of an instruction (or the one after `=`) is its opcode,
      // unless a `:` follows it (then it is a variable being defined).
      if (state.opcodeNext && !stream.match(/^\s*:/, false)) {
        state.opcodeNext = false;
        return 'keyword';
      }
      state.opcodeNext = false;
      return TYPES.test(word) ? 'typeName' : 'variableName';
    }
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});
