#!/usr/bin/env bash
# The learning tables of docs/learning.md, from scratch: trains the policy
# for each task with three seeds, then ranks every policy, the fixed-sequence
# ablation and the searches on the held-out hand-written programs.
#
#   make bench-learning                 (or: scripts/learning.sh [OUT_DIR])
#
# About two hours on two cores: each training run is a fixed number
# of updates (5 to 25 minutes on one core of the machine the docs were
# measured on), two run at a time. Everything is seeded: the same commit gives the same
# policies and tables on any machine, only the seconds differ.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.tmp/learning}
mkdir -p "$out"
cargo build --quiet --release --bin compgym
cli=target/release/compgym
programs=data/bril-community

# The training command of each task (the bundled policies are seed 1's).
train() {
  local task=$1 seed=$2
  case $task in
    size) set -- --updates 4000 --hidden 32,32 --entropy 0.02 --batch 64 --program-share 1.0 --validate-every 500 ;;
    runtime) set -- --updates 800 --hidden 64,64 --episode-length 3 --batch 64 --program-share 0.5 --validate-every 100 ;;
  esac
  "$cli" train --task "$task" --seed "$seed" --own "$programs" "$@" \
    --out "$out/policy-$task-$seed.json" > "$out/train-$task-$seed.log"
}

for seed in 1 2 3; do
  train size "$seed" &
  train runtime "$seed"
  wait
done

for task in size runtime; do
  for seed in 1 2 3; do
    "$cli" leaderboard --tasks "$task" --split held-out --programs "$programs" --generated 0 \
      --agents policy --policy "$out/policy-$task-$seed.json" --json > "$out/policy-$task-$seed.json.board"
  done
done

# The searches, with three seeds of their own (the fixed sequence has none).
search() {
  local task=$1 seed=$2 agents=explore,guided
  [ "$seed" = 0 ] && agents=fixed,$agents
  "$cli" leaderboard --tasks "$task" --split held-out --programs "$programs" --generated 0 \
    --agents "$agents" --policy "$out/policy-$task-1.json" --steps 5000 --no-time-limit \
    --seed "$seed" --json > "$out/searches-$task-$seed.json"
}
for seed in 0 1 2; do
  search size "$seed" &
  search runtime "$seed"
  wait
done
node scripts/learning-tables.mjs "$out"
