#!/usr/bin/env bash
# The engine table of bench/RESULTS.md ("engines"): every engine through the command
# line on the same workloads, one after the other, each run timed by /usr/bin/time (wall time,
# peak RSS) and its JSON summarised by summarise.py.
#   bench/engines/run.sh [BUILD_DIR] [RUNS] [TIMEOUT_S] [ROWS] [ENGINES]
# ROWS: comma-separated FAMILY:SIZE, e.g. wcrt:10,wcrt:16,pipeline:4 (gen_family.cpp says what
# they are); ENGINES: comma-separated --engine values (default auto,exact,bounds,smt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
runs=${2:-3}
timeout=${3:-60}
rows=${4:-wcrt:6,wcrt:8,wcrt:10,wcrt:12,wcrt:16,wcrt:32,pipeline:4}
engines=${5:-auto,exact,bounds,smt}
cmake --build "$build" --target gpuwcrt gen_family -j "$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/engines/run.sh $build $runs $timeout $rows $engines"
echo
echo "| family | n | engine | workloads | wall median (s) | wall max (s) | peak RSS max (MiB) | states median | UB/LB median | UB/LB max | operations exact |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in ${rows//,/ }; do
  family=${row%%:*} size=${row##*:}
  files=$("$build/bench/engines/gen_family" "$family" "$size" "$runs" "$work")
  for engine in ${engines//,/ }; do
    : > "$work/runs"
    for f in $files; do
      out="$work/out.json"
      set +e
      /usr/bin/time -f "%e %M" -o "$work/time" "$build/gpuwcrt" wcrt "$f" --json --engine "$engine" \
        --timeout "$timeout" > "$out" 2> "$work/err"
      code=$?
      set -e
      echo "$code $(cat "$work/time" | tail -1) $out" >> "$work/runs"
      cp "$out" "$work/$(basename "$f" .toml)-$engine.json"
      sed -i "\$s|$out\$|$work/$(basename "$f" .toml)-$engine.json|" "$work/runs"
    done
    python3 "$here/summarise.py" "$family" "$size" "$engine" < "$work/runs"
  done
done
