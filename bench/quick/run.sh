#!/usr/bin/env bash
# The quick benchmark tier: fails (exit 1) when a plain command has become much slower.
#
# Times, end to end through the CLI, the CPU time (user + system, every thread) of each run, the
# least of RUNS runs: a shared runner's other jobs add wall time (waiting for a core, seconds on
# a 2-core machine under builds) far more than CPU time, and only ever add, so the least CPU time
# is the steadiest measure of the work itself. A change that makes the tool wait idle is not
# seen here:
#   simulate and rta   on 50 000 kernels (bench/scale/gen_workload.py 50000 1)
#   wcrt               on the hand-written 12-kernel camera pipeline bench/camera/newcomer-fixed.toml
#   wcrt               on cases/periodic/camera-radar.toml (the all-time analysis, a busy window)
# each run in turn with a yardstick of the same kind of work (bench/quick/calibrate.cpp, compiled
# like the tool, without its code): the 50 000-kernel commands against `input` (the same file
# parsed with toml++, copied into records, ordered and printed: page faults, malloc, parsing,
# formatting), the wcrt runs against `search` (exact rationals, maps, formatting). Each
# command's time is divided by its yardstick's, and that ratio compared with the one recorded in
# bench/quick/reference.tsv: a machine that is slower, or busy with other jobs, slows both, so
# the ratio moves only when the tool does. One yardstick for all would not do: machines differ
# in what they are fast at (a page fault costs far more in some virtual machines), and a
# command moves only with a yardstick of its own kind (bench/RESULTS.md "quick"). A command
# fails when its ratio passes FACTOR times the recorded one (default 1.5: above the noise of a
# shared 2-core runner and of the experiments that change the machine's relative speeds, within
# 0.89-1.12x of the recorded ratios (rta 0.59x with cheaper page faults), and below a binary
# that does its work twice, 1.66-1.91x:
# docs/decisions/0025-limits-on-any-machine.md). Record on the machine whose page faults cost most
# (the AMD EPYC VM today): on a machine where they cost less, rta, which pays more of them than
# its yardstick, only looks faster.
#
# Usage: bench/quick/run.sh [BUILD_DIR] [--record]
#   BIN=path  the binary under test (default BUILD_DIR/gpuwcrt)
#   RUNS=n    runs per command (default 5), FACTOR=x (default 1.5)
#   --record  write the ratios measured now to reference.tsv (on an idle machine, after a change
#             that is meant to move them; say so in the commit, and name the machine in
#             bench/RESULTS.md "quick")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
record=${2:-}
bin=${BIN:-$build/gpuwcrt}
runs=${RUNS:-5}
factor=${FACTOR:-1.5}
calibrate=$build/bench/quick/quick_calibrate
reference=$here/reference.tsv
for f in "$bin" "$calibrate"; do
  [ -x "$f" ] || { echo "bench/quick: $f is missing: build first (cmake --build $build)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/scale/gen_workload.py" 50000 1 > "$work/w50k.toml"

# The CPU time (user + system) of one run of "$@", in milliseconds (its output discarded; a
# failure stops the tier).
cpu_ms() {
  local TIMEFORMAT='%3U %3S' spent
  spent=$( { time "$@" > /dev/null 2> "$work/err"; } 2>&1 ) ||
    { echo "bench/quick: '$*' failed:" >&2; cat "$work/err" >&2; exit 2; }
  awk -v s="$spent" 'BEGIN {split(s, t, " "); printf "%d", (t[1] + t[2]) * 1000 + 0.5}'
}

# The least CPU time of RUNS runs of "$@" and of the yardstick YARD (words), run in turn so that
# both see the same machine: "command_s yardstick_s".
least_times() {
  local yard=$1 best=-1 best_yard=-1 t y
  shift
  for ((r = 0; r < runs; ++r)); do
    # shellcheck disable=SC2086  # the yardstick is its words
    y=$(cpu_ms "$calibrate" $yard)
    t=$(cpu_ms "$@")
    { [ "$best" -lt 0 ] || [ "$t" -lt "$best" ]; } && best=$t
    { [ "$best_yard" -lt 0 ] || [ "$y" -lt "$best_yard" ]; } && best_yard=$y
  done
  awk -v t="$best" -v y="$best_yard" 'BEGIN {printf "%.3f %.3f", t / 1000, y / 1000}'
}

names=("simulate 50000 kernels" "rta 50000 kernels" "wcrt newcomer-fixed" "wcrt camera-radar")
commands=("$bin simulate $work/w50k.toml"
          "$bin rta $work/w50k.toml"
          "$bin wcrt $root/bench/camera/newcomer-fixed.toml"
          "$bin wcrt $root/cases/periodic/camera-radar.toml")
yardsticks=("input $work/w50k.toml" "input $work/w50k.toml" search search)

failed=0
[ "$record" = --record ] && printf '# command\tratio to its yardstick (recorded %s on %s, %s cores)\n' "$(date -u +%F)" \
  "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" "$(nproc)" > "$reference.new"
printf '| command | least CPU time (s) | yardstick (s) | ratio | recorded ratio | limit | verdict |\n|---|---:|---:|---:|---:|---:|---|\n'
for i in "${!names[@]}"; do
  # shellcheck disable=SC2086  # each command is its words
  read -r t yard <<< "$(least_times "${yardsticks[$i]}" ${commands[$i]})"
  ratio=$(awk -v t="$t" -v y="$yard" 'BEGIN {printf "%.3f", t / y}')
  if [ "$record" = --record ]; then
    printf '%s\t%s\n' "${names[$i]}" "$ratio" >> "$reference.new"
    printf '| %s | %s | %s | %s | - | - | recorded |\n' "${names[$i]}" "$t" "$yard" "$ratio"
    continue
  fi
  ref=$(awk -F'\t' -v n="${names[$i]}" '$1 == n {print $2}' "$reference")
  [ -n "$ref" ] || { echo "bench/quick: no recorded ratio for '${names[$i]}' in $reference (run with --record)" >&2; exit 2; }
  limit=$(awk -v r="$ref" -v f="$factor" 'BEGIN {printf "%.3f", r * f}')
  verdict=ok
  if awk -v a="$ratio" -v l="$limit" 'BEGIN {exit !(a > l)}'; then verdict="SLOWER: more than $factor x the recorded ratio"; failed=1; fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "${names[$i]}" "$t" "$yard" "$ratio" "$ref" "$limit" "$verdict"
done
if [ "$record" = --record ]; then
  mv "$reference.new" "$reference"
  echo "recorded in $reference"
fi
if [ "$failed" = 1 ]; then
  echo "bench/quick: a command is more than $factor times slower, relative to the yardstick, than when recorded:" \
       "find the change that slowed it (bench/scale/run.sh, perf record) or, if it is meant, record again with --record" >&2
  exit 1
fi
