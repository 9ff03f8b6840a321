// Loads a built package the way Node users do and checks that the module
// works: an environment resets and steps (on a program of the dataset
// shipped as a file, which node.js registered), a Bril program runs. Run by the
// build on the optimised module, so a wasm-opt that breaks it fails the build.
//
//   node scripts/smoke.mjs [PKG_DIR]     (default: pkg)
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'pkg');
const compgym = await import(pathToFileURL(`${dir}/node.js`));

function check(condition, what) {
  if (!condition) {
    console.error(`smoke test of ${dir} failed: ${what}`);
    process.exit(1);
  }
}

const env = compgym.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code' });
env.reset();
const { reward, terminated } = env.step('-dce');
check(typeof reward === 'number' && reward > 0 && terminated === false, `step gave reward ${reward}`);
env.reset({ benchmark: 'benchmark://large-v0/bignum' });
check(env.step('-lvn').terminated === false, 'a step on large-v0/bignum ended the episode');
env.free();

const { stdout, dynInst } = compgym.runBril('@main {\n  x: int = const 6;\n  y: int = mul x x;\n  print y;\n}\n');
check(stdout === '36\n' && dynInst === 3, `runBril gave ${JSON.stringify({ stdout, dynInst })}`);

let name;
try {
  compgym.canonicalDtype('nope');
} catch (error) {
  name = error.name;
}
check(name === 'TypeError', `a bad dtype threw ${name}`);
