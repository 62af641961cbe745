#!/usr/bin/env bash
# The "across processes" table of bench/RESULTS.md: `gpuwcrt wcrt FILE --engine exact` in one
# process with 2 worker threads, and under mpirun with R = 2 processes of 1 thread (the 2 cores)
# and R = 4 (oversubscribed), on the same files one after the other, RUNS times each; wall time
# is the median over the runs, memory the largest peak RSS of any process of the run.
#   bench/mpi/run.sh [BUILD_DIR] [RUNS] [ROWS] [TIMEOUT_S]
# ROWS: comma-separated wcrt:N:RUN (the bench/wcrt family, gen_family) or camera:SxK (gen_camera,
# seed 1, fixed times). Every run's answers must equal the single process's (exit 1 otherwise).
# Raw JSON stays in OUT (default: a fresh temporary directory, printed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
runs=${2:-3}
rows=${3:-wcrt:8:0,wcrt:9:0,wcrt:10:0,camera:5x8,camera:6x6,camera:6x8}
timeout=${4:-600}
cmake --build "$build" --target gpuwcrt gen_family gen_camera -j 2 >/dev/null
source "$here/setup.sh"
echo "command: bench/mpi/run.sh $build $runs $rows $timeout   (raw: $out)"
echo
: > "$out/runs"
for row in ${rows//,/ }; do
  IFS=: read -r family size run <<< "$row"
  if [ "$family" = wcrt ]; then
    "$build/bench/engines/gen_family" wcrt "$size" "$((run + 1))" "$out" >/dev/null
    file="$out/wcrt-n$size-run$run.toml"
    name="wcrt n=$size run $run"
  else
    file="$out/camera-$size.toml"
    "$build/bench/camera/gen_camera" "${size%x*}" "${size#*x}" 1 fixed -o "$file"
    name="camera $size"
  fi
  for ((k = 0; k < runs; ++k)); do
    for config in single R2 R4; do
      json="$out/${row//:/-}.$config.$k.json"
      case $config in
        single) launch=() threads=(--threads 2) ;;
        R2) launch=(mpirun --oversubscribe -np 2) threads=(--threads 1) ;;
        R4) launch=(mpirun --oversubscribe -np 4) threads=(--threads 1) ;;
      esac
      start=$(date +%s.%N)
      /usr/bin/time -f "%M" -o "$out/rss" "${launch[@]}" "$build/gpuwcrt" wcrt "$file" --engine exact --json \
        --timeout "$timeout" "${threads[@]}" > "$json" 2> "$out/err" || true
      end=$(date +%s.%N)
      echo "$name|$config|$(echo "$end - $start" | bc)|$(tail -1 "$out/rss")|$json" >> "$out/runs"
    done
  done
done
python3 "$here/summarise.py" "$out/runs"
