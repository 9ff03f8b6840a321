#!/usr/bin/env bash
# Builds the publishable npm package into pkg/ (from pkg.json and the wasm
# build), copies it into www/pkg/, and bundles the playground into www/dist/
# (esbuild, from www/'s pinned dependencies; see www/build.mjs).
# Usage: scripts/build.sh [--dev] [--bench]
#   --dev    unoptimised, faster to build
#   --bench  with the benchmark drivers (benchEnv, benchInterpreter) that the
#            shipped package leaves out; the `make bench-*` targets use it
#
# A release build ships the module without its function names and producers
# section (debugging aids: a tenth of the bytes), keeps a copy with names in
# .tmp/size/named/ for `make size`, and smoke-tests the module it ships.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
optimise=(--release)
features=(--no-default-features)
for arg in "$@"; do
  case $arg in
    --dev) profile=debug; optimise=() ;;
    --bench) features+=(--features bench) ;;
    *) echo "usage: scripts/build.sh [--dev] [--bench]" >&2; exit 2 ;;
  esac
done

cargo build --quiet --lib --target wasm32-unknown-unknown "${optimise[@]}" "${features[@]}"

# The module just built, bound for the web; a release ships without its
# debugging names (`shipped`).
bindgen() {
  wasm-bindgen "target/wasm32-unknown-unknown/$profile/compgym.wasm" --target web "$@"
}
shipped=()
[ "$profile" = release ] && shipped=(--remove-name-section --remove-producers-section)
rm -rf pkg
bindgen --out-name compgym --out-dir pkg "${shipped[@]}"
if [ "$profile" = release ]; then
  rm -rf .tmp/size/named
  bindgen --out-name compgym --out-dir .tmp/size/named
fi

# The glue takes each object's pointer from guard.js's brand, not from a property.
node scripts/guard-glue.mjs pkg/compgym.js
cp pkg.json pkg/package.json
rm pkg/compgym_bg.wasm.d.ts  # the raw module's exports: nothing a user imports
# The package's init() and initSync() return nothing (api.js): the glue's return the wasm exports.
sed -i -e 's/^\(export function initSync(.*\)): InitOutput;$/\1): void;/' \
  -e 's/^\(export default function __wbg_init (.*\)): Promise<InitOutput>;$/\1): Promise<void>;/' pkg/compgym.d.ts
grep -q 'Promise<void>;$' pkg/compgym.d.ts || { echo "compgym.d.ts: init's declaration has changed" >&2; exit 1; }
# InitOutput types those exports (wasm-bindgen's ABI, full of `any`); nothing public returns it now.
perl -0pi -e 's/export interface InitOutput \{.*?\n\}\n\n?//s; s/^ \* \@returns \{(Promise<)?InitOutput>?\}\n//mg' pkg/compgym.d.ts
! grep -q InitOutput pkg/compgym.d.ts || { echo "compgym.d.ts: InitOutput is still declared" >&2; exit 1; }
cp src/js/npm/{index,node,api,guard,errors,cli,shipped,pretrained,datasets,worker,worker-node,worker-host,worker-listen,remote,remote-node}.js src/js/npm/{worker,remote}.d.ts pkg/
# The pretrained policies, outside the module (src/agents/policy/pretrained.rs).
mkdir -p pkg/policies
cp src/agents/policy/pretrained-{size,runtime}.json pkg/policies/
# large-v0's programs, outside the module (src/bril/suite/large/mod.rs).
node scripts/dataset-file.mjs pkg/datasets/large-v0.json
cp src/js/npm/{agents,agents-node,agents-worker,agents-worker-node,agents-worker-host}.js src/js/npm/{agents,agents-worker}.d.ts pkg/
cp -r src/js/npm/gym pkg/gym
cp src/js/npm/README.md LICENSE pkg/
chmod +x pkg/cli.js

# Every file the manifest lists must exist, or `npm publish` ships a broken package.
node -e '
  const fs = require("fs");
  const m = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  const missing = m.files.filter((f) => !fs.existsSync("pkg/" + f));
  if (missing.length) { console.error("pkg/ lacks " + missing.join(", ")); process.exit(1); }
'
# The module as shipped loads, steps an environment and runs a program.
node scripts/smoke.mjs pkg

rm -rf www/pkg
cp -r pkg www/pkg
echo "built pkg/ ($(du -h pkg/compgym_bg.wasm | cut -f1) of wasm, $profile) and www/pkg/"

# The playground's first-step module (src/first_step.rs): the compiler alone,
# which the page loads before the package's module (see www/src/wasm.js).
cargo build --quiet --lib --target wasm32-unknown-unknown "${optimise[@]}" --no-default-features --features first-step
rm -rf www/first-step
bindgen --out-name first-step --out-dir www/first-step "${shipped[@]}"
rm www/first-step/first-step_bg.wasm.d.ts
echo "built www/first-step/ ($(du -h www/first-step/first-step_bg.wasm | cut -f1) of wasm)"

node www/build.mjs
