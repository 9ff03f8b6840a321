// The short run of the API fuzzer (fuzz-api.mjs) in `make test`: a few
// fixed seeds, so a failure replays with `node tests/js/fuzz-api.mjs --seed S
// --calls N`. The long run is `make fuzz-js`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz, report } from './fuzz-api.mjs';

const SEEDS = [1, 2, 3];
const CALLS = 2000;

for (const seed of SEEDS) {
  test(`fuzz-api: seed ${seed}, ${CALLS} calls of hostile values: typed errors only, the instance alive`, async () => {
    const start = performance.now();
    const result = await fuzz({ seed, calls: CALLS });
    report(result, (performance.now() - start) / 1000);
    assert.equal(result.calls, CALLS);
    assert.deepEqual(
      result.failures.map((f) => `call ${f.call} ${f.target}(${f.args.join(', ')}): ${f.problem}`),
      [],
    );
  });
}
