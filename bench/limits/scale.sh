#!/usr/bin/env bash
# Every operation a proven upper bound at 10^3–10^4 operations (bench/RESULTS.md, "limits"): the
# binary under test (BIN) and a baseline (BASE, e.g. a build of main) alternate on each run, one
# process each under /usr/bin/time -v (wall clock, peak RSS, exit code):
#   1. wcrt --timeout 30 --json on gen_streams.py 40 100 SEED for each seed: ends within 31 s,
#      every operation with an upper bound;
#   2. wcrt --engine bounds --timeout 60 --json on gen_streams.py 100 100 1 (10^4 operations).
# Each row is the median wall time over RUNS runs (the other columns of that median run).
# Usage: BIN=build/gpuwcrt BASE=../main-build/gpuwcrt bench/limits/scale.sh [RUNS] [SEEDS]
#        (defaults: 3 runs, seeds "1 2 3"; BASE defaults to BIN)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-3}
seeds=${2:-"1 2 3"}
bin=${BIN:-build/gpuwcrt}
base=${BASE:-$bin}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for seed in $seeds; do python3 "$here/gen_streams.py" 40 100 "$seed" >"$dir/s40x100-$seed.toml"; done
python3 "$here/gen_streams.py" 100 100 1 >"$dir/s100x100-1.toml"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "BIN: $bin; BASE: $base; runs: $runs"
echo
echo "| workload | binary | command | median wall | peak RSS | exit | statuses | load average |"
echo "|---|---|---|---|---|---|---|---|"
one() {  # one BINARY FILE ARGS...: "wall_seconds|rss_mib|exit|statuses" of one run
    local b=$1 file=$2
    shift 2
    set +e
    /usr/bin/time -v "$b" wcrt "$file" --json "$@" >"$dir/out.json" 2>"$dir/time.txt"
    set -e
    python3 - "$dir/time.txt" "$dir/out.json" <<'PY'
import collections, json, sys
t = open(sys.argv[1]).read()
def field(name):
    return [l.split(": ", 1)[1] for l in t.splitlines() if name in l][0].strip()
parts = field("Elapsed (wall clock) time").split(":")
wall = sum(float(p) * 60 ** (len(parts) - 1 - i) for i, p in enumerate(parts))
try:
    ops = json.load(open(sys.argv[2]))["operations"]
    c = collections.Counter(o["status"] + (" (%s)" % o["unknown_reason"] if "unknown_reason" in o else "") for o in ops)
    by = collections.Counter(o.get("upper_by") for o in ops if o["upper_bound"] is not None)
    bounded = sum(o["upper_bound"] is not None for o in ops)
    statuses = "%s; %d of %d with an upper bound (%s)" % (", ".join("%d %s" % (n, s) for s, n in sorted(c.items())),
               bounded, len(ops), ", ".join("%s %d" % (k, n) for k, n in sorted(by.items())))
except Exception as e:  # no whole JSON: a refusal or a run that was cut
    statuses = "no JSON (%s)" % type(e).__name__
print("%.2f|%d|%s|%s" % (wall, int(field("Maximum resident set size")) // 1024, field("Exit status"), statuses))
PY
}
measure() {  # measure NAME FILE ARGS...: BIN and BASE alternate, then one row each
    local name=$1 file=$2
    shift 2
    local -a a=() b=()
    for ((r = 0; r < runs; r++)); do
        a+=("$(one "$bin" "$file" "$@")|$(cut -d' ' -f1 /proc/loadavg)")
        b+=("$(one "$base" "$file" "$@")|$(cut -d' ' -f1 /proc/loadavg)")
    done
    row "$name" BIN "$*" "${a[@]}"
    row "$name" BASE "$*" "${b[@]}"
}
row() {  # row NAME LABEL COMMAND RESULTS...: the median run by wall time
    local name=$1 label=$2 cmd=$3
    shift 3
    local median
    median=$(printf '%s\n' "$@" | sort -t'|' -k1,1 -g | sed -n "$((($# + 1) / 2))p")
    IFS='|' read -r wall rss code statuses load <<<"$median"
    echo "| $name | $label | wcrt $cmd | $wall s | $rss MiB | $code | $statuses | $load |"
}
for seed in $seeds; do measure "40 x 100, seed $seed" "$dir/s40x100-$seed.toml" --timeout 30; done
measure "100 x 100, seed 1" "$dir/s100x100-1.toml" --engine bounds --timeout 60
