// scripts/guard-glue.mjs: the build's rewrite of wasm-bindgen's glue, so that
// it takes every pointer from guard.js's brand. A glue of a form the rewrite
// does not know stops the build rather than ship a pointer read from a property.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { classArgumentTable, guardGlue } from '../../scripts/guard-glue.mjs';

// The shapes of the pinned wasm-bindgen's glue, one of each.
const GLUE = `/* @ts-self-types="./compgym.d.ts" */
export class Space {
    static __wrap(ptr) {
        const obj = Object.create(Space.prototype);
        obj.__wbg_ptr = ptr;
        SpaceFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        SpaceFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_space_free(ptr, 0);
    }
    equals(other) {
        _assertClass(other, Space);
        return wasm.space_equals(this.__wbg_ptr, other.__wbg_ptr) !== 0;
    }
    static batched(space, batchShape, options) {
        _assertClass(space, Space);
        const ret = wasm.space_batched(space.__wbg_ptr, batchShape, options);
        return Space.__wrap(ret);
    }
    sampleWith(constraint, rng) {
        let ptr0 = 0;
        if (!isLikeNone(rng)) {
            _assertClass(rng, Rng);
            ptr0 = rng.__destroy_into_raw();
        }
        return wasm.space_sampleWith(this.__wbg_ptr, constraint, ptr0);
    }
}
function _assertClass(instance, klass) {
    if (!(instance instanceof klass)) {
        throw new Error(\`expected instance of \${klass.name}\`);
    }
}
`;

test('every read, write and take of a pointer goes through the guard', () => {
  const out = guardGlue(GLUE);
  const lines = out.split('\n');
  assert.equal(lines[0], '/* @ts-self-types="./compgym.d.ts" */', 'the directive stays first');
  assert.equal(lines[1], "import { guardPointer, guardSetPointer, guardTakePointer } from './guard.js';");
  for (const expected of [
    'guardSetPointer(obj, ptr);',
    'SpaceFinalization.register(obj, guardPointer(obj), obj);',
    'const ptr = guardPointer(this);',
    'guardSetPointer(this, 0);',
    'const ptr = guardTakePointer(this);',
    'wasm.space_equals(guardPointer(this), guardPointer(other))',
    '__destroy_into_raw() {',
  ]) {
    assert.ok(out.includes(expected), expected);
  }
  assert.doesNotMatch(out, /__wbg_ptr/);
});

test('the class arguments of each method are written down as data, under the names the glue exports', () => {
  const expected = {
    'Space.prototype.equals': [[0, 'Space', false, 'other']],
    'Space.batched': [[0, 'Space', false, 'space']],
    'Space.prototype.sampleWith': [[1, 'Rng', true, 'rng']],
  };
  assert.deepEqual(classArgumentTable(GLUE), expected);
  const out = guardGlue(GLUE);
  const table = out.slice(out.lastIndexOf('export const GUARD_CLASS_ARGUMENTS = ') + 37).trim().replace(/;$/, '');
  assert.deepEqual(JSON.parse(table), expected);
});

test('a class argument the rewrite cannot place stops the build', () => {
  for (const glue of [
    'export class A {\n    get b() {\n        _assertClass(b, B);\n    }\n}\n',
    'export class A {\n    constructor(b) {\n        _assertClass(b, B);\n    }\n}\n',
    'export class A {\n    c(d) {\n        _assertClass(b, B);\n    }\n}\n',
    'function free(b) {\n    _assertClass(b, B);\n}\n',
  ]) {
    assert.throws(() => classArgumentTable(glue), /a class argument the rewrite does not know/, glue);
  }
});

test('a glue the rewrite does not know stops the build', () => {
  assert.throws(() => guardGlue('export const nothing = 1;'), /no pointer access found/);
  for (const unknown of ['x["__wbg_ptr"];', 'x.__wbg_ptr += 1;', 'x.__destroy_into_raw.call(y);']) {
    assert.throws(() => guardGlue(`a.__wbg_ptr = 1;\n${unknown}`), /a pointer access the rewrite does not know/, unknown);
  }
  assert.throws(() => guardGlue('function guardPointer() {}\na.__wbg_ptr = 1;'), /already uses the name guardPointer/);
  assert.throws(() => guardGlue('const GUARD_CLASS_ARGUMENTS = 1;\na.__wbg_ptr = 1;'), /already uses the name GUARD_CLASS_ARGUMENTS/);
});

test('the built package glue is the rewritten one', () => {
  const glue = readFileSync(new URL('../../pkg/compgym.js', import.meta.url), 'utf8');
  assert.match(glue, /^\/\* @ts-self-types="\.\/compgym\.d\.ts" \*\/\nimport \{ guardPointer, guardSetPointer, guardTakePointer \} from '\.\/guard\.js';/);
  assert.doesNotMatch(glue, /__wbg_ptr/);
  assert.match(glue, /guardTakePointer\(this\)/);
  assert.deepEqual(
    JSON.parse(glue.slice(glue.lastIndexOf('export const GUARD_CLASS_ARGUMENTS = ') + 37).trim().replace(/;$/, ''))['Space.prototype.sampleWith'],
    [[0, 'Rng', false, 'rng']],
  );
});
