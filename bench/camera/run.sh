#!/usr/bin/env bash
# The camera table of bench/RESULTS.md: realistic camera-perception
# pipelines on the TX2 (model/generate/camera_pipeline.hpp, gen_camera) and the hand-written
# 18-operation pipeline (newcomer-*.toml), each through `gpuwcrt wcrt` with every engine of
# ENGINES, with the binary under test (BIN) and a baseline built from main (BASE) one after
# the other on the same files, so the ratio of their wall times is measured in one run.
#   BIN=path BASE=path bench/camera/run.sh [BUILD_DIR] [TIMEOUT_S] [SEEDS] [REPS] [CONFIGS] [ENGINES]
# BUILD_DIR builds gen_camera (and is BIN's default, BASE defaults to BIN). SEEDS: seeds 1..SEEDS
# of each generated configuration; REPS: runs of each (binary, engine, file), wall time is the
# median over them. CONFIGS: comma-separated SxK:VARIANT (gen_camera's variants) or
# newcomer:fixed|ranged|window; ENGINES: comma-separated --engine values, "wcrt" meaning the
# default plan (no --engine). Every run gets --max-memory 3000 (MiB) and --timeout TIMEOUT_S.
# Raw results (one line per run) and every JSON stay in OUT (default: a fresh temporary
# directory, printed); summarise.py turns the lines into the markdown table on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
timeout=${2:-60}
seeds=${3:-3}
reps=${4:-1}
configs=${5:-3x8:fixed,3x8:ranged-jitter1,4x10:ranged-jitter2,8x6:fixed,5x8:fixed,newcomer:fixed,newcomer:ranged,newcomer:window}
engines=${6:-wcrt,bounds}
bin=${BIN:-$build/gpuwcrt}
base=${BASE:-$bin}
memory=${MEMORY_MIB:-3000}
cmake --build "$build" --target gen_camera -j 2 >/dev/null
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: BIN=$bin BASE=$base bench/camera/run.sh $build $timeout $seeds $reps $configs $engines"
echo "bin: $(cd "$(dirname "$bin")" && git rev-parse --short HEAD 2>/dev/null || echo '?') $bin; base: $base; raw results: $out/runs"
echo
: > "$out/runs"
run_one() {  # CONFIG SEED FILE ENGINE WHICH BINARY REP
    local json="$out/$1-s$2-$4-$5-r$7.json" args=(wcrt "$3" --json --timeout "$timeout" --max-memory "$memory")
    [ "$4" = wcrt ] || args+=(--engine "$4")
    set +e
    /usr/bin/time -f "%e %M" -o "$out/time" "$6" "${args[@]}" > "$json" 2> "$out/err"
    local code=$?
    set -e
    echo "$1 $2 $4 $5 $7 $code $(tail -1 "$out/time") $json" >> "$out/runs"
}
for config in ${configs//,/ }; do
  shape=${config%%:*} variant=${config##*:}
  if [ "$shape" = newcomer ]; then
    files=("$here/newcomer-$variant.toml")
  else
    files=()
    for seed in $(seq 1 "$seeds"); do
      f="$out/camera-$shape-$variant-s$seed.toml"
      "$build/bench/camera/gen_camera" "${shape%x*}" "${shape#*x}" "$seed" "$variant" -o "$f"
      files+=("$f")
    done
  fi
  for i in "${!files[@]}"; do
    for engine in ${engines//,/ }; do
      for rep in $(seq 1 "$reps"); do
        run_one "$config" $((i + 1)) "${files[$i]}" "$engine" bin "$bin" "$rep"
        run_one "$config" $((i + 1)) "${files[$i]}" "$engine" base "$base" "$rep"
      done
    done
  done
done
python3 "$here/summarise.py" < "$out/runs"
