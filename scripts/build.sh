#!/usr/bin/env bash
# Builds the publishable npm package into pkg/ (from pkg.json and the wasm
# build), copies it into www/pkg/, and bundles the playground into www/dist/
# (esbuild, from www/'s pinned dependencies; see www/build.mjs).
# Usage: scripts/build.sh [--dev]   (--dev: unoptimised, faster to build)
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
cargo_flags=(--release)
if [ "${1:-}" = --dev ]; then profile=debug; cargo_flags=(); fi

cargo build --quiet --lib --target wasm32-unknown-unknown "${cargo_flags[@]}"

rm -rf pkg
wasm-bindgen "target/wasm32-unknown-unknown/$profile/compgym.wasm" \
  --target web --out-dir pkg --out-name compgym
cp pkg.json pkg/package.json
cp src/js/npm/{index,node,worker,remote}.js src/js/npm/{worker,remote}.d.ts README.md LICENSE pkg/

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

node www/build.mjs
