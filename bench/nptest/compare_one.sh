#!/usr/bin/env bash
# One workload through both tools, one row of run.sh's table on stdout:
#   compare_one.sh FILE.toml NPTEST_BIN GPUWCRT_BIN
# FILE's answers and nptest's files are written next to it (FILE without .toml + suffixes);
# REUSE=1 keeps an earlier gpuwcrt answer. gpuwcrt: `wcrt --json`, its defaults. nptest:
# -m SMS -t dense -c -r, merge l1 (its default). A periodic workload is unrolled over 1, 2 or 3
# hyperperiods until nptest proves every job done by the horizon (then the GPU is idle there in
# every scenario and the hyperperiods repeat); per horizon up to 3 queue orders: gpuwcrt's
# guess, then the order the previous nptest run's completion windows give.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
f=$(realpath "$1"); npt=$2; gpu=$3
b=${f%.toml}
if [ -z "${REUSE:-}" ] || [ ! -s "$b.gpu.json" ]; then
  set +e
  /usr/bin/time -f "%e %M" -o "$b.gpu.time" "$gpu" wcrt "$f" --json > "$b.gpu.json" 2> /dev/null
  echo $? > "$b.gpu.code"
  set -e
fi
row="$(basename "$f") $(cat "$b.gpu.code") $(tail -1 "$b.gpu.time")"
for k in 1 2 3; do
  prev=()
  for attempt in 1 2 3; do
    if ! python3 "$here/shared_class.py" convert "$f" "$b.gpu.json" "$b" "$k" "${prev[@]}" > "$b.convert" 2>&1; then
      echo "$row - - {\"class\": \"outside: $(sed 's/.*outside the shared class: //; s/"/\\"/g' "$b.convert")\"}"
      exit 0
    fi
    m=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['sms'])" "$b.map.json")
    (cd "$(dirname "$b")" && /usr/bin/time -f "%e %M" -o "$b.npt.time" "$npt" -m "$m" -t dense -c -r \
       "$b.jobs.csv" -p "$b.prec.csv" > "$b.npt.out")
    python3 "$here/shared_class.py" compare "$b.map.json" "$b.gpu.json" "$b.jobs.rta.csv" > "$b.compare.json"
    grep -q 'otherwise than the order' "$b.compare.json" || break
    cp "$b.map.json" "$b.prev.map.json"; cp "$b.jobs.rta.csv" "$b.prev.rta.csv"
    prev=("$b.prev.map.json" "$b.prev.rta.csv")
  done
  grep -q 'no instant c < H' "$b.compare.json" || break
done
echo "$row $(tail -1 "$b.npt.time") $(cat "$b.compare.json")"
