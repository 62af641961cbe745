#!/usr/bin/env bash
# gpuwcrt against SAG's nptest on the class both model exactly (README.md): one table.
#   bench/nptest/run.sh NPTEST_BIN [BUILD_DIR] [OUT_DIR]
# NPTEST_BIN: built by build_nptest.sh. BUILD_DIR holds gpuwcrt (default build). OUT_DIR keeps
# every input, answer and nptest file (default: a temporary directory, removed).
# Instances (gen_shared.py): one frame of 80 and of 160 kernels with 40 % block-time ranges,
# the same with 30 % of the kernels chained to their stream predecessor and 10 % ranges,
# 4 periodic streams with fixed times (seeds 1-3) and with 20 % ranges (seeds 1-6). Each tool runs once,
# alone, single-threaded on nptest's side (its default build), `wcrt --json` with its defaults on
# gpuwcrt's. nptest: -m SMS -t dense -c -r, merge l1 (its default); a periodic workload is
# unrolled over 1, 2 or 3 hyperperiods until nptest proves every job done by the horizon (then
# the GPU is idle there in every scenario and the hyperperiods repeat).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
npt=$(realpath "${1:?usage: run.sh NPTEST_BIN [BUILD_DIR] [OUT_DIR]}")
build=${2:-build}
gpu=$(realpath "$build/gpuwcrt")
if [ -n "${3:-}" ]; then out=$3; mkdir -p "$out"; else out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
out=$(realpath "$out")
: > "$out/rows"
for seed in 1 2 3; do
  python3 "$here/gen_shared.py" frame 80 "$seed" > "$out/frame80-s$seed.toml"
  python3 "$here/gen_shared.py" frame 160 "$seed" > "$out/frame160-s$seed.toml"
  # 30 % of the kernels issued with their stream predecessor: they join when it completes, so
  # the precedence edges bind; 10 % ranges keep most of these draws inside the class.
  python3 "$here/gen_shared.py" frame 80 "$seed" 10 60 30 > "$out/chained80-s$seed.toml"
  python3 "$here/gen_shared.py" frame 160 "$seed" 10 60 30 > "$out/chained160-s$seed.toml"
  python3 "$here/gen_shared.py" periodic "$seed" fixed > "$out/periodic-fixed-s$seed.toml"
done
# With ranges a kernel issued while its stream predecessor may still run joins in a window that
# often overlaps another stream's join: such draws are outside the class (their row says which
# pair); six seeds keep about three inside.
for seed in 1 2 3 4 5 6; do
  python3 "$here/gen_shared.py" periodic "$seed" ranges 40 20 > "$out/periodic-ranges-s$seed.toml"
done
for f in "$out"/frame80-s*.toml "$out"/frame160-s*.toml "$out"/chained80-s*.toml "$out"/chained160-s*.toml \
         "$out"/periodic-fixed-s*.toml "$out"/periodic-ranges-s*.toml; do
  "$here/compare_one.sh" "$f" "$npt" "$gpu" >> "$out/rows"
done
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: bench/nptest/run.sh $1 $build; gpuwcrt: $("$gpu" --version | head -1), tree $(git -C "$root" rev-parse --short HEAD); nptest: $(cat "$(dirname "$npt")/../COMMIT" 2>/dev/null || echo '?')"
echo
python3 "$here/summarise.py" "$out/rows"
