// Makes the glue wasm-bindgen generates (`compgym.js`) take each object's
// pointer from guard.js's brand instead of the object's `__wbg_ptr`
// property, so that no property user code can add, shadow or redefine on
// an object reaches the wasm memory, and the objects need no own
// properties to stop it (two own properties per object were 40% of a
// fork's cost from JS):
//
//   x.__wbg_ptr = v          ->  guardSetPointer(x, v)
//   x.__wbg_ptr              ->  guardPointer(x)
//   x.__destroy_into_raw()   ->  guardTakePointer(x)
//
// The glue's form is fixed by the pinned wasm-bindgen; if it changes so that
// any use of those names is left, or none is found, the build stops here.
//
//   node scripts/guard-glue.mjs pkg/compgym.js
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const NAMES = ['guardPointer', 'guardSetPointer', 'guardTakePointer'];

/** `source` (the glue) with every pointer access going through guard.js. */
export function guardGlue(source) {
  for (const name of NAMES) {
    if (source.includes(name)) throw new Error(`the glue already uses the name ${name}`);
  }
  let count = 0;
  const counted = (replacement) => (...match) => {
    count += 1;
    return replacement(...match);
  };
  const rewritten = source
    .replace(/\b([A-Za-z_$][\w$]*)\.__wbg_ptr = ([^;\n]+);/g, counted((_, obj, value) => `guardSetPointer(${obj}, ${value});`))
    .replace(/\b([A-Za-z_$][\w$]*)\.__destroy_into_raw\(\)/g, counted((_, obj) => `guardTakePointer(${obj})`))
    .replace(/\b([A-Za-z_$][\w$]*)\.__wbg_ptr\b(?!\s*[-+*/%&|^<>]*=(?!=))/g, counted((_, obj) => `guardPointer(${obj})`));
  // Anything left but the classes' own `__destroy_into_raw() {` definitions.
  const left = rewritten.match(/.*(__wbg_ptr|__destroy_into_raw(?!\(\) \{)).*/);
  if (left) throw new Error(`a pointer access the rewrite does not know: ${left[0].trim()}`);
  if (count === 0) throw new Error('no pointer access found: has the glue changed?');
  // After the first line when it is the `@ts-self-types` comment, which must lead.
  const importLine = `import { ${NAMES.join(', ')} } from './guard.js';\n`;
  const head = rewritten.startsWith('/* @ts-self-types') ? rewritten.slice(0, rewritten.indexOf('\n') + 1) : '';
  return head + importLine + rewritten.slice(head.length);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path] = process.argv.slice(2);
  writeFileSync(path, guardGlue(readFileSync(path, 'utf8')));
}
