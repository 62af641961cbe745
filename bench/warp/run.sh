#!/usr/bin/env bash
# Builds and runs the warp benchmarks; prints the machine, the date and the Markdown tables
# that bench/RESULTS.md quotes: explicit vs SMT engine on fair points (bench_warp), then the
# bounds engine vs the explicit engine without fairness (bench_warp_none) and the CLI's wall
# time and peak RSS on the largest no-fairness points.
# Usage: bench/warp/run.sh [build-dir] [--runs N --smt-runs M --timeout S]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_warp bench_warp_none gpuwcrt -j2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
"$build"/bench/warp/bench_warp "$@"
echo
"$build"/bench/warp/bench_warp_none --runs 5 --explicit-timeout 120
echo
echo "| command | exit | wall s | peak RSS MB |"
echo "|---|---|---|---|"
for args in "--threads 256 --rep 4" "--threads 256 --rep 8" "--threads 1024 --rep 8" \
            "--threads 1024 --rep 8 --issue-limit 1" "--threads 1024 --rep 8 --latency L=3"; do
  set +e
  /usr/bin/time -f "%e %M" -o /tmp/gpuwcrt_warp_time "$build"/gpuwcrt warp $args --fairness none >/dev/null
  code=$?
  set -e
  read -r wall rss < <(tail -n 1 /tmp/gpuwcrt_warp_time)  # GNU time may prepend "Command exited with ..."
  echo "| \`gpuwcrt warp $args --fairness none\` | $code | $wall | $((rss / 1024)) |"
done
