#!/usr/bin/env bash
# The "frames" table of bench/RESULTS.md: `gpuwcrt wcrt` on workloads with periodic streams
# (the all-time analysis, docs/theory/all-time.md), each file REPS times, one after the other.
#   bench/frames/run.sh [BUILD_DIR] [REPS] [TIMEOUT_S]
# Files: gen_multirate.py's 3-stream family (30/15/10 Hz, load 40 %), the same with a sporadic
# lidar (frames at least 100 ms apart), and the 8-stream family (with a fusion stream that waits
# on two cameras, load 30 %), seeds 1–3 each, ±20 % block times, 1–2 ms
# jitter; cases/periodic/*.toml; an overloaded stream. Without TIMEOUT_S the runs use wcrt's own
# default (the analysis ends by itself). Per file: median wall time, largest peak RSS, how many
# operations got an upper bound, the largest and median upper/lower ratio over the operations
# with both, and which argument bounded the frames (closure: the GPU proven idle after k
# hyperperiods; steady: the interference bound's steady state over L hyperperiods; explored: the
# frames' exact states explored to a fixed point in a window of W hyperperiods).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
reps=${2:-3}
timeout=${3:-}
bin=$build/gpuwcrt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for seed in 1 2 3; do
  python3 "$here/gen_multirate.py" 3 "$seed" 20 40 > "$out/multirate3-s$seed.toml"
  python3 "$here/gen_multirate.py" 8 "$seed" 20 30 > "$out/multirate8-s$seed.toml"
  python3 "$here/gen_multirate.py" 3 "$seed" 20 40 sporadic > "$out/sporadic3-s$seed.toml"
done
cat > "$out/overloaded.toml" <<'TOML'
title = "a camera stream whose frame needs more than its period"
[[stream]]
name = "cam"
period = 5
[[kernel]]
name = "K"
stream = "cam"
blocks = 1
threads = 1024
block_time = 3
[[kernel]]
name = "L"
stream = "cam"
blocks = 1
threads = 1024
block_time = [3, 4]
TOML
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: bench/frames/run.sh $build $reps ${timeout:-}; binary: $(git -C "$root" rev-parse --short HEAD)"
echo
files=("$out"/multirate3-s*.toml "$out"/multirate8-s*.toml "$out"/sporadic3-s*.toml "$root"/cases/periodic/*.toml
       "$out/overloaded.toml")
: > "$out/runs"
for f in "${files[@]}"; do
  for r in $(seq "$reps"); do
    args=(wcrt "$f" --json)
    [ -n "$timeout" ] && args+=(--timeout "$timeout")
    set +e
    /usr/bin/time -f "%e %M" -o "$out/time" "$bin" "${args[@]}" > "$out/answer.json" 2> /dev/null
    code=$?
    set -e
    echo "$(basename "$f") $code $(tail -1 "$out/time") $out/answer-$(basename "$f")-$r.json" >> "$out/runs"
    cp "$out/answer.json" "$out/answer-$(basename "$f")-$r.json"
  done
done
python3 "$here/summarise.py" "$out/runs"
