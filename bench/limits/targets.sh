#!/usr/bin/env bash
# The targets of "limits that hold" at scale, one process each, measured by /usr/bin/time -v
# (wall clock, peak RSS, exit code):
#   1. wcrt --timeout 30 on 40 streams x 100 operations with ranges and jitter (gen_streams.py),
#      and the same with --rta-timeout 1: ends within 31 s, exit 0 or 2;
#   2. wcrt without --timeout on 3 streams x 6 operations with ranges: ends at the default time
#      limit (60 s + 0.1 s per operation) or before, exit 0 or 2;
#   3. SIGINT after 2 s of wcrt --json on the 4 000 operations: exit 2 within 1 s, the JSON whole;
#   4. wcrt --timeout 120 on 12 streams x 12 kernels with ranges and jitter: peak RSS.
# Usage: bench/limits/targets.sh [BUILD_DIR] [SEED]   (defaults: build 1)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
seed=${2:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$here/gen_streams.py" 40 100 "$seed" >"$dir/s40x100.toml"
python3 "$here/gen_streams.py" 3 6 "$seed" >"$dir/s3x6.toml"
python3 "$here/gen_streams.py" 12 12 "$seed" >"$dir/s12x12.toml"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "| workload | command | wall | peak RSS | exit | statuses |"
echo "|---|---|---|---|---|---|"
measure() {  # measure NAME FILE [gpuwcrt arguments after the file]
    local name=$1 file=$2
    shift 2
    set +e
    /usr/bin/time -v "$build/gpuwcrt" wcrt "$file" --json "$@" >"$dir/out.json" 2>"$dir/time.txt"
    set -e
    row "$name" "wcrt $*"
}
row() {  # row NAME COMMAND: one table row from $dir/time.txt and $dir/out.json
    local wall rss code statuses
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    code=$(sed -n 's/.*Exit status: //p' "$dir/time.txt")
    statuses=$(python3 - "$dir/out.json" <<'PY'
import collections, json, sys
try:
    ops = json.load(open(sys.argv[1]))["operations"]
except Exception as e:  # a run that printed no whole JSON
    print("no JSON: %s" % type(e).__name__)
    sys.exit()
c = collections.Counter(o["status"] + (" (%s)" % o["unknown_reason"] if "unknown_reason" in o else "") for o in ops)
bounded = sum(o["upper_bound"] is not None for o in ops)
print(", ".join("%d %s" % (n, s) for s, n in sorted(c.items())) + "; %d of %d with an upper bound" % (bounded, len(ops)))
PY
)
    echo "| $1 | $2 | $wall | $((rss / 1024)) MiB | $code | $statuses |"
}
measure "40 x 100" "$dir/s40x100.toml" --timeout 30
measure "40 x 100" "$dir/s40x100.toml" --timeout 30 --rta-timeout 1
measure "3 x 6" "$dir/s3x6.toml"
# SIGINT after 2 s: the time of the whole run, the signal 2 s after the start.
set +e
/usr/bin/time -v "$build/gpuwcrt" wcrt "$dir/s40x100.toml" --json >"$dir/out.json" 2>"$dir/time.txt" &
pid=$!
sleep 2
kill -INT "$(pgrep -P "$pid")"  # the gpuwcrt process under time
wait "$pid"
set -e
row "40 x 100" "wcrt (SIGINT at 2 s)"
measure "12 x 12" "$dir/s12x12.toml" --timeout 120
