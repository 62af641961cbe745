#!/usr/bin/env bash
# Before/after table for the exact engine (bench/RESULTS.md, "exact"): the same
# workloads through two gpuwcrt binaries in the same run, alternating per workload (so both see
# the same machine load), one row per binary as bench/engines/run.sh prints them.
#   bench/exact/compare.sh OLD_GPUWCRT [BUILD_DIR] [RUNS] [TIMEOUT_S] [ROWS] [ENGINE] [NEW_ARGS]
# OLD_GPUWCRT: e.g. a build of main before the change; BUILD_DIR: this checkout's build (its
# gpuwcrt and gen_family); ROWS as run.sh (wcrt:10); NEW_ARGS: extra options for the new binary
# only (e.g. "--threads 1").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
old=$1
build=${2:-build}
runs=${3:-3}
timeout=${4:-60}
rows=${5:-wcrt:10}
engine=${6:-exact}
new_args=${7:-}
cmake --build "$build" --target gpuwcrt gen_family -j 2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: bench/exact/compare.sh $old $build $runs $timeout $rows $engine \"$new_args\""
echo
echo "| family | n | engine | workloads | wall median (s) | wall max (s) | peak RSS max (MiB) | states median | UB/LB median | UB/LB max | operations exact |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in ${rows//,/ }; do
  family=${row%%:*} size=${row##*:}
  files=$("$build/bench/engines/gen_family" "$family" "$size" "$runs" "$work")
  : > "$work/runs-old"
  : > "$work/runs-new"
  for f in $files; do
    for which in old new; do
      bin=$old args=()
      if [ "$which" = new ]; then bin=$build/gpuwcrt; read -r -a args <<< "$new_args"; fi
      out="$work/$(basename "$f" .toml)-$which.json"
      set +e
      /usr/bin/time -f "%e %M" -o "$work/time" "$bin" wcrt "$f" --json --engine "$engine" --timeout "$timeout" \
        "${args[@]}" > "$out" 2> "$work/err"
      code=$?
      set -e
      echo "$code $(tail -1 "$work/time") $out" >> "$work/runs-$which"
    done
  done
  python3 "$here/../engines/summarise.py" "$family" "$size" "$engine (before)" < "$work/runs-old"
  python3 "$here/../engines/summarise.py" "$family" "$size" "$engine (after)" < "$work/runs-new"
done
