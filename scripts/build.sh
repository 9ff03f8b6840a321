#!/usr/bin/env bash
# Builds the publishable npm package into pkg/ (from pkg.json and the wasm
# build) and copies it into www/pkg/ for the playground.
# Usage: scripts/build.sh [--dev] [--bench]
#   --dev    unoptimised, faster to build
#   --bench  with the benchmark drivers (benchEnv, benchInterpreter) that the
#            shipped package leaves out; the `make bench-*` targets use it
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

rm -rf pkg
wasm-bindgen "target/wasm32-unknown-unknown/$profile/compgym.wasm" \
  --target web --out-dir pkg --out-name compgym
cp pkg.json pkg/package.json
cp src/js/npm/{index,node,guard,worker,remote}.js src/js/npm/{worker,remote}.d.ts README.md LICENSE pkg/

# Every file the manifest lists must exist, or `npm publish` ships a broken package.
node -e '
  const fs = require("fs");
  const m = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  const missing = m.files.filter((f) => !fs.existsSync("pkg/" + f));
  if (missing.length) { console.error("pkg/ lacks " + missing.join(", ")); process.exit(1); }
'

rm -rf www/pkg
cp -r pkg www/pkg
echo "built pkg/ ($(du -h pkg/compgym_bg.wasm | cut -f1) of wasm, $profile) and www/pkg/"
