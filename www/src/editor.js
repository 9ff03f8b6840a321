// The program editor: CodeMirror 6 with the Bril mode, line numbers, undo,
// and the error of a program that did not load marked at its line.
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle, indentUnit } from '@codemirror/language';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { tags } from '@lezer/highlight';
import { brilLanguage } from './bril-mode.js';

// Colours chosen for contrast of at least 4.5:1 on the editor's background.
const brilHighlight = HighlightStyle.define([
  { tag: tags.comment, color: '#5c6670', fontStyle: 'italic' },
  { tag: tags.keyword, color: '#8a1f63', fontWeight: '600' },
  { tag: tags.definition(tags.variableName), color: '#1d4f91', fontWeight: '600' },
  { tag: tags.labelName, color: '#7a4a00' },
  { tag: tags.typeName, color: '#0d6b58' },
  { tag: tags.number, color: '#1d4f91' },
  { tag: tags.atom, color: '#1d4f91' },
  { tag: tags.string, color: '#1d4f91' },
  { tag: tags.operator, color: '#3b4450' },
]);

/**
 * Mounts an editor in `host`; returns the small interface the program panel uses.
 * @param {Element} host
 * @param {{ label?: string }} [options]
 */
export function createEditor(host, { label = 'Bril program text' } = {}) {
  /** @type {(() => void)[]} */
  const editListeners = [];
  /** @type {(() => void)[]} */
  const submitListeners = [];
  const extensions = [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    indentUnit.of('  '),
    brilLanguage,
    syntaxHighlighting(brilHighlight),
    lintGutter(),
    keymap.of([{ key: 'Mod-Enter', run: () => (submitListeners.forEach((f) => f()), true) }, ...defaultKeymap, ...historyKeymap]),
    EditorView.contentAttributes.of({ 'aria-label': label }),
    // Only typing changes the document: a loaded text replaces the whole state (see setText).
    EditorView.updateListener.of((update) => {
      if (update.docChanged) editListeners.forEach((f) => f());
    }),
  ];
  const view = new EditorView({ parent: host, state: EditorState.create({ doc: '', extensions }) });

  // The scroller is a scrollable region: it must be reachable by keyboard.
  view.scrollDOM.tabIndex = 0;
  view.scrollDOM.setAttribute('aria-label', `${label} (scroll)`);

  return {
    view,
    text: () => view.state.doc.toString(),
    /** @param {string} text */
    setText(text) {
      if (text === view.state.doc.toString()) return;
      // A fresh state rather than a change: the editor parses only the first
      // screenful now (a change to a parsed text parses up to 20 ms of it
      // at once, a long task on a large program), no error mark is left over,
      // and undo starts from the loaded text.
      view.setState(EditorState.create({ doc: text, extensions }));
    },
    onEdit: (/** @type {() => void} */ f) => editListeners.push(f),
    onSubmit: (/** @type {() => void} */ f) => submitListeners.push(f),
    focus: () => view.focus(),
    /**
     * Marks `line` (1-based) with `message`; no line clears the marks.
     * @param {number | null} line
     * @param {string} message
     */
    markError(line, message) {
      const doc = view.state.doc;
      if (!line || line > doc.lines) {
        view.dispatch(setDiagnostics(view.state, []));
        return;
      }
      const { from, to } = doc.line(line);
      view.dispatch(setDiagnostics(view.state, [{ from, to: Math.max(to, from), severity: 'error', message }]));
      view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    },
  };
}
