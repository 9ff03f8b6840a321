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
// It also writes down which arguments of which methods must be objects of
// which class (the glue's `_assertClass(param, Class)` calls), as data the
// glue exports (`GUARD_CLASS_ARGUMENTS`), so that guard.js checks them
// before the glue runs without reading any function's source or name at
// run time: a bundler renames classes and parameters, and a minifier
// rewrites the calls, so what the source says there is not what it said here.
//
// The glue's form is fixed by the pinned wasm-bindgen; if it changes so that
// any use of those names is left, or none is found, the build stops here.
//
//   node scripts/guard-glue.mjs pkg/compgym.js
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const NAMES = ['guardPointer', 'guardSetPointer', 'guardTakePointer'];
const TABLE = 'GUARD_CLASS_ARGUMENTS';

/**
 * The class arguments of every method of the glue: `{"Space.prototype.sampleWith":
 * [[0, "Rng", false, "rng"]], "Space.batched": [...]}`, each `[index, class,
 * optional, parameter]`, a method named as guard.js names it (class and
 * member as the glue exports and defines them).
 */
export function classArgumentTable(source) {
  const table = {};
  let className = null;
  let member = null;
  for (const line of source.split('\n')) {
    const opened = /^(?:export )?class (\w+)/.exec(line);
    if (opened) [className, member] = [opened[1], null];
    const defined = /^ {4}(static |get |set )?(\w+)\(([^)]*)\) \{$/.exec(line);
    if (defined) {
      const [, kind, name, params] = defined;
      member = { kind, what: `${className}.${kind === 'static ' ? '' : 'prototype.'}${name}`, params: params.split(',').map((p) => p.trim()), body: '' };
    } else if (/^\S/.test(line)) {
      member = null;
    }
    if (member) member.body += `${line}\n`;
    const asserted = /\b_assertClass\((\w+), (\w+)\);/.exec(line);
    if (!asserted || /^function _assertClass/.test(line)) continue;
    const [, param, klass] = asserted;
    const index = member ? member.params.indexOf(param) : -1;
    if (!member || member.kind === 'get ' || member.kind === 'set ' || member.what.endsWith('.constructor') || index < 0) {
      throw new Error(`a class argument the rewrite does not know: ${line.trim()}`);
    }
    (table[member.what] ??= []).push([index, klass, member.body.includes(`isLikeNone(${param})`), param]);
  }
  return table;
}

/** `source` (the glue) with every pointer access going through guard.js. */
export function guardGlue(source) {
  for (const name of [...NAMES, TABLE]) {
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
  const table = `\n/** Which arguments of which methods guard.js checks, and for what class (scripts/guard-glue.mjs). */\nexport const ${TABLE} = ${JSON.stringify(classArgumentTable(source))};\n`;
  return head + importLine + rewritten.slice(head.length) + table;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path] = process.argv.slice(2);
  writeFileSync(path, guardGlue(readFileSync(path, 'utf8')));
}
