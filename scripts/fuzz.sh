#!/usr/bin/env bash
# The long fuzz run: every target of fuzz/ under libFuzzer (`cargo fuzz`) for
# FUZZ_MINUTES minutes each (default 10), starting from the checked-in corpus
# and dictionary. What libFuzzer adds to the corpus goes to fuzz/work/, what
# crashes to fuzz/artifacts/<target>/. Ends with one line per target:
# executions and crashes. Usage: scripts/fuzz.sh [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."

minutes=${FUZZ_MINUTES:-10}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked --quiet || exit 1
# cargo fuzz passes nightly flags (-Zsanitizer, -Cpasses); a stable rustc
# accepts them when told it may.
export RUSTC_BOOTSTRAP=1

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v compgym-fuzz))
fi

(cd fuzz && cargo fuzz build -O) || exit 1
mkdir -p fuzz/work
summary=()
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/work/$t"
  log="fuzz/work/$t.log"
  printf '\n\033[1m== %s: %s min\033[0m\n' "$t" "$minutes"
  (cd fuzz && cargo fuzz run -O "$t" "work/$t" "corpus/$t" -- \
    -max_total_time=$((minutes * 60)) -dict="dict/$t.dict" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1) > "$log" 2>&1
  code=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  crashes=$(find "fuzz/artifacts/$t" -type f 2>/dev/null | wc -l)
  [ "$code" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
  tail -n 3 "$log"
  summary+=("$(printf '%-18s %12s executions  %s crashes  (exit %s)' "$t" "${runs:-?}" "$crashes" "$code")")
done
printf '\n\033[1m== fuzz summary (%s min per target)\033[0m\n' "$minutes"
printf '%s\n' "${summary[@]}"
exit $status
