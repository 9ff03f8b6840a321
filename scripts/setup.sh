#!/usr/bin/env bash
# Installs what is missing for building (`setup.sh build`), for running every
# test layer (`setup.sh test`), for the benchmarks (`setup.sh bench`), for the
# size report (`setup.sh size`), for the documentation site (`setup.sh docs`)
# or for the Python layer alone (`setup.sh python`; `setup.sh rllib` adds
# RLlib's example).
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
purpose=${1:-build}

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
die() { printf '\033[31msetup: %s\033[0m\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo is missing: install Rust with rustup (https://rustup.rs), then run this again."
command -v node >/dev/null || die "node is missing: install Node.js 20.19 or newer (Debian: apt-get install nodejs npm)."
# 20.19 is the first Node that can require() an ES module (the package's CommonJS face).
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' \
  || die "node $(node --version) is too old: install Node.js 20.19 or newer."

# The Python layer's virtual environment, .venv/ in the repository, with the
# tools pinned in python/requirements-test.txt (maturin, Gymnasium, numpy, Ray,
# pytest) from the package index; skipped when the same list was installed.
python_venv() {
  local list=python/requirements-test.txt
  if ! cmp -s "$list" .venv/.installed-requirements.txt; then
    command -v python3 >/dev/null || die "python3 is missing: install Python 3.11 or newer."
    say "installing the Python layer's tools into .venv"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$list"
    cp "$list" .venv/.installed-requirements.txt
  fi
}

# RLlib's example in a venv of its own, .venv/rllib (RLlib pins an older
# Gymnasium than the layer's), with torch and RLlib pinned in
# python/requirements-rllib.txt; skipped when the same list was installed.
rllib_venv() {
  local list=python/requirements-rllib.txt
  if ! cmp -s "$list" .venv/rllib/.installed-requirements.txt; then
    say "installing torch and RLlib into .venv/rllib (6.2 GB, once)"
    [ -x .venv/rllib/bin/python ] || python3 -m venv .venv/rllib
    .venv/rllib/bin/python -m pip install --quiet --disable-pip-version-check -r "$list"
    cp "$list" .venv/rllib/.installed-requirements.txt
  fi
}
if [ "$purpose" = python ]; then
  python_venv
  exit 0
fi
if [ "$purpose" = rllib ]; then
  python_venv
  rllib_venv
  exit 0
fi

# The wasm target.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  command -v rustup >/dev/null || die "rustup is missing: the wasm32-unknown-unknown target cannot be added. Install Rust with rustup."
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen CLI at exactly the version pinned in Cargo.toml: the
# generated glue must match the library's macros byte for byte.
pinned=$(sed -nE 's/^wasm-bindgen = "=([0-9.]+)"/\1/p' Cargo.toml | head -n 1)
[ -n "$pinned" ] || die "Cargo.toml does not pin wasm-bindgen with '='."
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $pinned" ]; then
  say "installing wasm-bindgen-cli $pinned (a few minutes, once)"
  # Not --locked: the CLI's own lock file can name a yanked dependency.
  cargo install wasm-bindgen-cli --version "=$pinned" --quiet
fi

# Installs the npm packages pinned in DIR/package-lock.json unless the very
# same lock file was installed last time (a copy is kept beside them).
npm_install_locked() {
  local dir=$1 what=$2
  if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json"; then
    say "installing $what"
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    cp "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json"
  fi
}

# The playground's libraries and its bundler (esbuild).
npm_install_locked www "the playground's libraries"

if [ "$purpose" = docs ]; then
  # TypeDoc (the JS reference) and markdown-it (the guides), pinned.
  npm_install_locked scripts/site "the documentation tools"
  exit 0
fi

if [ "$purpose" = size ]; then
  # twiggy, which attributes the wasm's bytes to the functions and data they belong to.
  if [ "$(twiggy --version 2>/dev/null)" != "twiggy-opt 0.8.0" ]; then
    say "installing twiggy 0.8.0 (a few minutes, once)"
    cargo install twiggy --version =0.8.0 --locked --quiet
  fi
  exit 0
fi

if [ "$purpose" = bench ]; then
  # Gymnasium, the anchor of the space benchmark, in a private virtualenv.
  if ! .tmp/bench-venv/bin/python -c 'import gymnasium' 2>/dev/null; then
    command -v python3 >/dev/null || die "python3 is missing: install Python 3.9 or newer."
    say "installing Gymnasium into .tmp/bench-venv"
    python3 -m venv .tmp/bench-venv
    .tmp/bench-venv/bin/pip install --quiet 'gymnasium==1.4.0'
  fi
  exit 0
fi

[ "$purpose" = test ] || exit 0

# The linters the native layer runs first (part of rustup's default profile).
for tool in rustfmt clippy; do
  if ! cargo "${tool/rustfmt/fmt}" --version >/dev/null 2>&1; then
    command -v rustup >/dev/null || die "cargo $tool is missing: install Rust with rustup."
    say "adding the $tool component"
    rustup component add "$tool"
  fi
done

# Browser tests: Debian's Chromium and its WebDriver.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian's chromium and chromium-driver"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    die "Chromium is missing. As root, run: apt-get update && apt-get install -y chromium chromium-driver"
  fi
fi

# The JS test tools (playwright-core drives the system Chromium; it downloads nothing).
npm_install_locked tests/js "the JS test tools"

# The documentation tools, for the test that builds the site.
npm_install_locked scripts/site "the documentation tools"

# The Python layer.
python_venv

# TensorFlow.js (pure JS, CPU backend) for the DQN example that tests/js/tfjs-dqn.test.mjs trains.
npm_install_locked examples/tfjs-dqn "TensorFlow.js for examples/tfjs-dqn"
