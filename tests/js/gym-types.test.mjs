// The TypeScript declarations of compgym/gym and of the agents: usage files
// compile with `tsc --strict` against the built package, and every mistake
// they mark with @ts-expect-error is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pkgDir = new URL('../../pkg/', import.meta.url).pathname;
const tsc = new URL('./node_modules/typescript/bin/tsc', import.meta.url).pathname;
const usages = ['gym-usage.ts', 'agents-usage.ts', 'gym-wrappers-usage.ts'];

test('compgym/gym and the agents type-check under tsc --strict, and their mistakes are caught', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'compgym-types-'));
  try {
    mkdirSync(join(scratch, 'node_modules'));
    symlinkSync(pkgDir, join(scratch, 'node_modules', 'compgym'), 'dir');
    for (const usage of usages) copyFileSync(new URL(`./types/${usage}`, import.meta.url).pathname, join(scratch, usage));
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['esnext', 'dom'],
          types: [],
          noUnusedLocals: false,
        },
        files: usages,
      }),
    );
    let output = '';
    try {
      output = execFileSync(process.execPath, [tsc, '-p', scratch], { encoding: 'utf8' });
    } catch (e) {
      output = `${e.stdout}${e.stderr}`;
    }
    assert.equal(output.trim(), '', output);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
