#!/bin/sh
# The run cache's differential property test (tests/cache_differential.rs,
# docs/cache.md "What the differential test covers"), run long: CASES
# generated problems and programs (default 2000), each judged cold with
# the cache, then after one perturbation with the cache and with
# --no-cache; any disagreement fails with the case shrunk. Each SEED (a
# list: default "1 2 3") is a run of its own, so a failure names its seed.
# Usage: sh benches/run_cache/differential.sh [CASES] [SEEDS]
#   e.g. sh benches/run_cache/differential.sh 5000 "7 8"
set -eu
cases=${1:-2000}
seeds=${2:-1 2 3}
cd "$(dirname "$(realpath "$0")")/../.."
CARGO_PROFILE_RELEASE_INCREMENTAL=true cargo test --release --test cache_differential --no-run
for seed in $seeds; do
  echo "seed $seed: $cases cases"
  CACHE_DIFF_CASES=$cases CACHE_DIFF_SEED=$seed \
    cargo test --release --test cache_differential -- --nocapture
done
