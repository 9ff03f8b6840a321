# The two commands a newcomer needs (see README.md), and a few more.
.PHONY: serve test build fuzz fuzz-js bench-spaces bench-interp bench-passes bench-env clean

serve: ## set up what is missing, build the package, serve the playground on :8080
	@scripts/setup.sh build
	@scripts/build.sh
	@node scripts/serve.mjs

test: ## set up what is missing, run every test layer
	@scripts/setup.sh test
	@scripts/test.sh

fuzz: ## the long fuzz run: every fuzz/ target under libFuzzer, FUZZ_MINUTES (10) minutes each
	@scripts/fuzz.sh

fuzz-js: ## the long run of the JS API fuzzer over the built package, FUZZ_MINUTES (10) minutes, FUZZ_SEED (random)
	@scripts/setup.sh build
	@scripts/build.sh
	@node tests/js/fuzz-api.mjs --minutes $${FUZZ_MINUTES:-10} $${FUZZ_SEED:+--seed $$FUZZ_SEED}

build: ## build pkg/ and www/pkg/ (release)
	@scripts/setup.sh build
	@scripts/build.sh

clean:
	rm -rf pkg www/pkg .tmp target

bench-spaces: ## the space benchmark: compgym (wasm in Node, native) against Gymnasium
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym
	@scripts/setup.sh bench
	@node bench/spaces.mjs

bench-interp: ## interpreter throughput, natively and in wasm under Node, in one run
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym
	@node bench/interp.mjs

bench-passes: ## what -O1/-O2/-Oz cut on the community benchmarks, outputs checked
	@cargo run --quiet --release --bin compgym -- bench-passes ../shared/bril-bench

bench-env: ## environment steps/s, fork and observation latency: native, Node and Chromium in one run
	@scripts/setup.sh build
	@scripts/build.sh --bench
	@cargo build --quiet --release --bin compgym
	@scripts/setup.sh test
	@node bench/env.mjs
