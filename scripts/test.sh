#!/usr/bin/env bash
# Runs every test layer and ends with a one-line summary per layer:
#   native    cargo fmt --check, cargo clippy (native and wasm32, -D warnings), then
#             cargo test --no-fail-fast (unit, integration, CLI, doc tests, and
#             the short fuzz run of tests/fuzz_short.rs, which needs the fuzzing
#             feature; every test binary runs even after one fails)
#   chromium  the wasm tests in headless Chromium (cargo test --target
#             wasm32-unknown-unknown, through wasm-bindgen's test runner)
#   node      the same wasm tests in Node
#   js        prettier --check and eslint over src/js/npm and www/src, the
#             build, tsc over the same JS (tsconfig.json: JSDoc against the
#             generated compgym.d.ts), then the npm package (pack, install,
#             import from Node and a plain page) and the playground end to
#             end in Chromium (playwright-core), two test files at a time
#   python    the wheel built once (dev profile, the binding crate linted by
#             clippy in the same build) and installed into .venv, then pytest
#             on python/tests (Gymnasium's checker and vector envs,
#             CompilerGym's API, errors, a short fuzz, the docs' blocks)
# Exits non-zero if any layer fails; later layers still run so one report shows all.
# Arguments name the layers to run (`scripts/test.sh python`); none runs all.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=.tmp/test-logs
mkdir -p "$logs"
summaries=()
failed=0
only=" $* "

# Sums cargo/wasm-bindgen "test result:" lines of a log into "N passed, M failed".
cargo_counts() {
  awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
       END { printf "%d passed, %d failed", p, f }' "$1"
}

# Runs one layer: name, counter function, command...
# Each layer gets its own TMPDIR, removed afterwards: a browser the test
# runner stops without a clean quit leaves its profile (~70 MB) behind, and
# one run of the wasm tests starts a browser per test binary.
layer() {
  local name=$1 counter=$2; shift 2
  [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || return 0
  local log="$logs/$name.log" start=$SECONDS
  printf '\n\033[1m== %s: %s\033[0m\n' "$name" "$*"
  local scratch; scratch=$(mktemp -d)
  TMPDIR=$scratch "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  rm -rf "$scratch"
  local counts; counts=$($counter "$log")
  if [ "$status" -ne 0 ] && [[ "$counts" == *" 0 failed" ]]; then
    counts="${counts%0 failed}1 failed"  # a build or runner failure counts as a failure
  fi
  [ "$status" -eq 0 ] || failed=1
  summaries+=("$(printf '%-9s %s (%ss)' "$name:" "$counts" $((SECONDS - start)))")
}

# Lints first: rustfmt, then clippy on the native targets and on the wasm
# layer (src/js and the wasm tests build only for wasm32; the first-step
# module's bindings only with their feature), warnings as errors.
lint() {
  cargo fmt --check &&
    cargo clippy --quiet --all-targets --features fuzzing -- -D warnings &&
    cargo clippy --quiet --target wasm32-unknown-unknown --lib --tests -- -D warnings &&
    cargo clippy --quiet --target wasm32-unknown-unknown --lib --no-default-features --features first-step -- -D warnings
}
# tests/js/cli.test.mjs asks cargo for this very build (same features) to
# find the native command: change both together, or the JS layer compiles again.
native() { lint && cargo test --locked --no-fail-fast --features fuzzing; }
# The wasm layers build and run the library's unit tests and the wasm
# integration tests only: tests/wasm/ (one binary) and tests/wasm_hostile.rs
# (tests/house.rs checks that every wasm test lives there). The native tests
# have none for wasm32, and each test module costs a build, a link, a
# wasm-bindgen run and, in Chromium, a browser. Without debug information a
# module is a tenth of the size, which every one of those steps reads; the
# name section still names each function in a trap's stack. The runner is
# wasm-bindgen's (.cargo/config.toml); both layers share one build.
wasm_tests() {
  CARGO_PROFILE_DEV_DEBUG=0 WASM_BINDGEN_TEST_TIMEOUT=600 \
    cargo test --locked --no-fail-fast --target wasm32-unknown-unknown --lib --test wasm --test wasm_hostile
}
chromium() { CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_USE_BROWSER=1 wasm_tests; }
node_wasm() { wasm_tests; }
# The JS linters: formatting and eslint first (they need no build), the types
# after the build, which writes the generated compgym.d.ts the JS is typed against.
js_bin=tests/js/node_modules/.bin
js_lint() {
  "$js_bin/prettier" --check --log-level warn 'src/js/npm/**/*.{js,d.ts}' 'www/src/**/*.js' &&
    "$js_bin/eslint" --config tests/js/eslint.config.mjs src/js/npm www/src
}
js_types() { node tests/js/typecheck.mjs; }
# Two test files at a time, even on two cores: a file's time is partly a
# browser or a worker waiting on another process (a cold run's tests took
# 476-599 s, against 684 s one at a time), and no test asserts a time (each
# holds with the machine's other core busy).
js() { js_lint && scripts/build.sh && js_types && node --test --test-concurrency=2 --test-reporter=spec tests/js/; }
# The wheel is built once, in the dev profile (opt-level 1: quick to build,
# fast enough to test), with clippy-driver as the workspace wrapper: the
# binding crate is linted in the same compilation (its Cargo.toml denies
# warnings and clippy's lints), the core compiled once. It is installed into
# .venv and tested from outside python/ so the installed wheel is imported.
# --locked (here and in native) fails when a Cargo.lock is stale instead of
# rewriting a tracked file.
python_layer() {
  local wheels=.tmp/wheels
  rm -rf "$wheels"
  (cd python && cargo fmt --check) &&
    RUSTC_WORKSPACE_WRAPPER=clippy-driver \
      .venv/bin/maturin build --quiet --locked --profile dev -m python/Cargo.toml -o "$wheels" &&
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheels"/*.whl &&
    COMPGYM_WHEEL=$(ls "$wheels"/*.whl) .venv/bin/python -m pytest -q -p no:cacheprovider python/tests
}
pytest_counts() {
  awk '/ passed| failed/ && /in [0-9.]+s/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
       END { printf "%d passed, %d failed", p, f }' "$1"
}
node_counts() {
  awk '/^ℹ pass / { p = $3 } /^ℹ fail / { f = $3 } END { printf "%d passed, %d failed", p, f }' "$1"
}

layer native cargo_counts native
layer chromium cargo_counts chromium
layer node cargo_counts node_wasm
layer js node_counts js
layer python pytest_counts python_layer

printf '\n\033[1m== summary\033[0m\n'
printf '%s\n' "${summaries[@]}"
exit $failed
