#!/usr/bin/env bash
# Compares two builds of gpuwcrt on every input file the project ships: for each file of cases/,
# bench/camera/ and tests/data/ and each command (simulate, rta, wcrt --timeout 20, certify,
# warp), stdout, stderr and the exit code, with elapsed times masked. A refactoring that must
# not change behaviour shows no difference.
#   scripts/compare_outputs.sh OLD_BINARY NEW_BINARY [OUT_DIR]
# COMPARE_DIRS narrows the inputs (default "cases bench/camera tests/data"). COMPARE_JSON=1 runs
# every command with --json, for scripts/explain_output_changes.py, which sorts the differences
# into answers changed and format changed. Prints one line per difference and a summary; exits 1
# when any output differs.
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: $0 OLD_BINARY NEW_BINARY [OUT_DIR]}
new=${2:?usage: $0 OLD_BINARY NEW_BINARY [OUT_DIR]}
out=${3:-$(mktemp -d)}
mkdir -p "$out"

# Elapsed times and what depends on them: "1.23 s", "12 ms", "elapsed_ms": 40, "(3.1 s)".
mask() {
  sed -E -e 's/[0-9]+(\.[0-9]+)? ?(s|ms|min)\b/<t>/g' \
         -e 's/"(elapsed|elapsed_ms|seconds|wall_ms|time_ms|seed_elapsed_ms)": ?[0-9.]+/"\1": <t>/g'
}

run() {  # run BINARY TAG COMMAND FILE ARGS...
  local bin=$1 tag=$2 cmd=$3 file=$4
  shift 4
  local base="$out/$tag/$cmd/${file//\//_}"
  mkdir -p "$(dirname "$base")"
  (cd "$out" && timeout 120 "$bin" "$cmd" "$OLDPWD/$file" "$@" >"$base.out" 2>"$base.err" </dev/null)
  echo $? >"$base.rc"
  mask <"$base.out" | sed "s|$PWD/||g" >"$base.out.m"
  mask <"$base.err" | sed "s|$PWD/||g" >"$base.err.m"
}

# shellcheck disable=SC2086
files=$(find ${COMPARE_DIRS:-cases bench/camera tests/data} -type f \( -name '*.toml' -o -name '*.json' -o -name '*.amxmi' \
          -o -name '*.txt' -o -name '*.csv' \) | sort)
commands=("simulate" "rta" "wcrt --timeout 20" "certify --timeout 20" "warp --timeout 20")
if [ "${COMPARE_JSON:-0}" = 1 ]; then
  for i in "${!commands[@]}"; do commands[i]="${commands[i]} --json"; done
fi
compared=0 differ=0
for f in $files; do
  for c in "${commands[@]}"; do
    read -r cmd args <<<"$c"
    # shellcheck disable=SC2086
    run "$old" old "$cmd" "$f" $args
    # shellcheck disable=SC2086
    run "$new" new "$cmd" "$f" $args
    b="${f//\//_}"
    compared=$((compared + 1))
    for part in out.m err.m rc; do
      if ! cmp -s "$out/old/$cmd/$b.$part" "$out/new/$cmd/$b.$part"; then
        echo "DIFF $cmd $f ($part)"
        differ=$((differ + 1))
        break
      fi
    done
  done
done
echo "compared $compared runs ($(echo "$files" | wc -l) files x ${#commands[@]} commands): $differ differ; outputs in $out"
[ "$differ" -eq 0 ]
