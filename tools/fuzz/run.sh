#!/usr/bin/env bash
# Mutation fuzzer of the gpuwcrt CLI: builds gpuwcrt and fuzz_cli, then runs RUNS
# seeded mutants (2 jobs, 5 s hard limit per run). Reproducers and summary.txt go to
# BUILD_DIR/fuzz-SEED/. Usage: tools/fuzz/run.sh [BUILD_DIR] [RUNS] [SEED]
set -euo pipefail
build=${1:-build}
runs=${2:-20000}
seed=${3:-1}
src=$(cd "$(dirname "$0")/../.." && pwd)
cmake --build "$build" --target gpuwcrt fuzz_cli -j2 >/dev/null
exec "$build/tools/fuzz/fuzz_cli" "$build/gpuwcrt" "$src" "$runs" "$seed" 5 "$build/fuzz-$seed" --jobs 2
