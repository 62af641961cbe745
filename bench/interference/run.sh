#!/usr/bin/env bash
# The interference bound's wall time on camera pipelines of growing size and on gen_streams
# workloads of 1 000 to 4 000 operations (bench/RESULTS.md, "interference").
#   bench/interference/run.sh [BUILD_DIR] [RUNS] [SIZES] [STREAMS]
# With BASE=path/to/another/bench_interference (e.g. a build of main), the same runs with it in
# the same session (BASE_RUNS runs each, default RUNS), then every bound of both builds on the
# cases/ files, the camera sizes and the gen_streams files compared by compare.py: equal or
# tighter, never looser.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
runs=${2:-3}
sizes=${3:-3x8,4x10,8x6,16x16,32x32}
streams=${4:-"10 20 40"}
cmake --build "$build" --target bench_interference -j 2 >/dev/null
bin=$(realpath "$build/bench/interference/bench_interference")
[ -z "${BASE:-}" ] || BASE=$(realpath "$BASE")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
files=()
for s in $streams; do
    python3 "$here/../limits/gen_streams.py" "$s" 100 1 >"$dir/gen_streams-$s-100-1.toml"
    files+=("$dir/gen_streams-$s-100-1.toml")
done
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: BASE=${BASE:-} bench/interference/run.sh $build $runs $sizes \"$streams\"; commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
for b in "$bin" ${BASE:+"$BASE"}; do
    n=$runs
    [ "$b" = "$bin" ] || n=${BASE_RUNS:-$runs}
    echo
    echo "$b:"
    echo
    "$b" "$n" "$sizes"
    echo
    (cd "$dir" && "$b" --files "$n" "${files[@]##*/}")
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
[ -n "${BASE:-}" ] || exit 0
echo
echo "every bound, $bin against $BASE:"
cases=(cases/*/*.toml)
targets=("${cases[@]}")
for s in ${sizes//,/ }; do targets+=("camera:$s"); done
targets+=("${files[@]}")
: >"$dir/new.txt"
: >"$dir/base.txt"
for t in "${targets[@]}"; do  # one call each: a file that is not a block workload is skipped by both
    "$bin" --dump "$t" >>"$dir/new.txt" 2>/dev/null || true
    "$BASE" --dump "$t" >>"$dir/base.txt" 2>/dev/null || true
done
python3 "$here/compare.py" "$dir/base.txt" "$dir/new.txt"
