# The two commands a newcomer needs (see README.md), and a few more.
.PHONY: serve test test-python test-rllib wheel build docs size fuzz fuzz-js bench-spaces bench-interp bench-passes bench-datasets bench-scaling bench-env bench-python bench-ray bench-vector bench-page bench-learning clean

serve: ## set up what is missing, build the package, serve the playground on :8080
	@scripts/setup.sh build
	@scripts/build.sh
	@node scripts/serve.mjs

test: ## set up what is missing, run every test layer
	@scripts/setup.sh test
	@scripts/test.sh

test-python: ## set up the Python layer, build the wheel once, run its tests (pytest)
	@scripts/setup.sh python
	@scripts/test.sh python

test-rllib: ## RLlib's PPO on a compgym environment: torch and RLlib into .venv/rllib (6.2 GB, once), the dev wheel, a short seeded training whose mean return must rise
	@scripts/setup.sh rllib
	@rm -rf .tmp/wheels-rllib
	@.venv/bin/maturin build --quiet --profile dev -m python/Cargo.toml -o .tmp/wheels-rllib
	@.venv/rllib/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall .tmp/wheels-rllib/compgym-*.whl
	@.venv/rllib/bin/python -m pytest -q -p no:cacheprovider python/tests-rllib

wheel: ## the release wheel of the Python package in .tmp/wheels-release/ (pip install it anywhere)
	@scripts/setup.sh python
	@rm -rf .tmp/wheels-release
	@.venv/bin/maturin build --quiet --release -m python/Cargo.toml -o .tmp/wheels-release

fuzz: ## the long fuzz run: every fuzz/ target under libFuzzer, FUZZ_MINUTES (10) minutes each
	@scripts/fuzz.sh

fuzz-js: ## the long run of the JS API fuzzer over the built package, FUZZ_MINUTES (10) minutes, FUZZ_SEED (random)
	@scripts/setup.sh build
	@scripts/build.sh
	@node tests/js/fuzz-api.mjs --minutes $${FUZZ_MINUTES:-10} $${FUZZ_SEED:+--seed $$FUZZ_SEED}

build: ## build pkg/ and www/pkg/ (release)
	@scripts/setup.sh build
	@scripts/build.sh

docs: ## after make build: the documentation site in .tmp/site/ (the guides, the JS and Rust references), served at /docs/ by make serve
	@scripts/setup.sh docs
	@node scripts/site/build.mjs

size: ## build, then print the package's sizes (raw, gzip, brotli, tarball) and what takes the wasm's bytes
	@scripts/setup.sh build
	@scripts/setup.sh size
	@scripts/build.sh
	@node scripts/size-report.mjs

clean:
	rm -rf pkg www/pkg www/dist .tmp target

bench-spaces: ## the space benchmark: compgym (wasm in Node, native) against Gymnasium
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym-bench
	@scripts/setup.sh bench
	@node bench/spaces.mjs

bench-interp: ## interpreter and compiling tier throughput, natively, in Node and in Chromium, beside brilift (BRILIFT=dir)
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym-bench
	@node bench/interp.mjs
	@node bench/long-runs.mjs

bench-passes: ## what -O1/-O2/-Oz cut on the community benchmarks, outputs checked
	@cargo run --quiet --release --bin compgym-bench -- passes data/bril-community

bench-datasets: ## what -O2, -Oz and each pass do to random-v0, random-v1, suite-v0, large-v0 and the community programs
	@cargo run --quiet --release --bin compgym-bench -- datasets data/bril-community

bench-scaling: ## CPU time of every pass, pipeline, feature and reader at 1k, 10k, 100k instructions (one-variable up to 1M), growth exponents and the worst growth per doubling
	@cargo run --quiet --release --bin compgym-bench -- scaling
	@cargo run --quiet --release --bin compgym-bench -- scaling --shapes one-variable --sizes 125000,250000,500000,1000000

bench-python: wheel ## Python environment steps/s beside the native (and, after make build, Node's) in one run
	@cargo build --quiet --release --bin compgym-bench
	@.venv/bin/python -m pip install --quiet --no-deps --force-reinstall .tmp/wheels-release/compgym-*.whl
	@.venv/bin/python bench/python_env.py

bench-ray: wheel ## Ray actors' aggregate steps/s (1 to all CPUs) and Ray's per-task and per-call overhead
	@.venv/bin/python -m pip install --quiet --no-deps --force-reinstall .tmp/wheels-release/compgym-*.whl
	@.venv/bin/python bench/python_ray.py

bench-env: ## environment steps/s, fork and observation latency: native, Node and Chromium in one run
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym-bench
	@scripts/setup.sh test
	@node bench/env.mjs

bench-vector: ## vector environments in Node: steps/s of one environment, SyncVectorEnv, AsyncVectorEnv on 1, 2 and 4 workers; then 32 environments on new programs over time, with their memory
	@scripts/setup.sh build
	@scripts/build.sh
	@node bench/vector.mjs
	@node bench/vector-memory.mjs 32 30

bench-learning: ## docs/learning.md's tables from scratch: the policies of both tasks, three seeds each, ranked on held-out programs (hours of CPU)
	@scripts/learning.sh

bench-page: ## the playground's load in Chromium: navigation to the first possible step, cold and reloaded, on loopback and at 9 Mbps, and whether its goals are met
	@scripts/setup.sh test
	@scripts/build.sh
	@node bench/page-load.mjs
