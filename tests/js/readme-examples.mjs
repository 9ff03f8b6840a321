// Runs a README's JS examples verbatim in Node, as a reader who pasted them
// into a fresh ES-module project with the built package installed would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes each source of `blocks` into a scratch project whose `compgym`
 * is `pkgDir`, runs it with Node, and hands `check(i, lines)` what it
 * printed; the project is removed afterwards.
 */
export function runExamples(pkgDir, blocks, check) {
  const scratch = mkdtempSync(join(tmpdir(), 'compgym-readme-'));
  try {
    mkdirSync(join(scratch, 'node_modules'));
    symlinkSync(pkgDir, join(scratch, 'node_modules', 'compgym'), 'dir');
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    blocks.forEach((source, i) => {
      const file = join(scratch, `example-${i + 1}.mjs`);
      writeFileSync(file, source);
      const out = execFileSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      check(i, out.trimEnd().split('\n'));
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
