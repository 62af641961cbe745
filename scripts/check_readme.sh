#!/usr/bin/env bash
# Runs every command README.md shows, as a user would paste it from the checkout root after
# `scripts/quickstart.sh main`, in a temporary copy of the checkout (so that files the
# commands write never touch the real one), and reports each that fails.
#
#   scripts/check_readme.sh [README.md]
#
# Commands are the lines of ```sh blocks (comments and `scripts/quickstart.sh`, the
# precondition, skipped) and the `$ ` lines of other unlabelled blocks (a trailing `\`
# continues a command on the next line). A command fails when it exits with 3 (input error)
# or more, is killed, or runs over 300 s; exit codes 1 and 2 are verdicts (refuted, unknown).
# A `$ ` command followed by output lines must print exactly that output on stdout.
# Exit status: 0 when every command passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
readme=${1:-README.md}
binary=build/gpuwcrt
if [ ! -x "$binary" ]; then
  echo "check_readme: $binary not found; run scripts/quickstart.sh main first" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/checkout
mkdir -p "$copy/build" "$work/cmds"
git ls-files -z | xargs -0 cp --parents -t "$copy"
cp "$binary" "$copy/build/"

# One file per command (cmd.N), and the output it must print where the README shows one
# (expect.N). Line numbers (line.N) are the README's, for the report.
awk -v dir="$work/cmds" '
  function flush_expect() { if (n > 0 && collecting) close(dir "/expect." n) }
  function start(cmd, line) {
    flush_expect(); n++; collecting = 0
    printf "%s\n", cmd > (dir "/cmd." n); close(dir "/cmd." n)
    print line > (dir "/line." n); close(dir "/line." n)
  }
  /^```/ {
    if (!fence) { fence = 1; lang = substr($0, 4); sub(/[ \t].*/, "", lang); cont = 0 }
    else { flush_expect(); fence = 0; collecting = 0; cmd_open = 0 }
    next
  }
  !fence { next }
  lang == "sh" {
    line = $0; sub(/^[ \t]+/, "", line)
    if (cont) { pending = pending "\n" line }
    else {
      if (line == "" || line ~ /^#/ || line ~ /^scripts\/quickstart\.sh/) next
      pending = line; first = NR
    }
    cont = (line ~ /\\$/)
    if (!cont) start(pending, first)
    next
  }
  lang == "" || lang == "console" {
    if (cont) {
      pending = pending "\n" $0; cont = ($0 ~ /\\$/)
      if (!cont) { start(pending, first); cmd_open = 1 }
      next
    }
    if ($0 ~ /^\$ /) {
      pending = substr($0, 3); first = NR; cont = ($0 ~ /\\$/)
      if (!cont) { start(pending, first); cmd_open = 1 }
      next
    }
    if (cmd_open) { print > (dir "/expect." n); collecting = 1 }
  }
' "$readme"

failures=0 total=0
count=$(find "$work/cmds" -name 'cmd.*' | wc -l)
for i in $(seq 1 "$count"); do
  cmd_file=$work/cmds/cmd.$i
  total=$((total + 1))
  line=$(cat "$work/cmds/line.$i")
  (cd "$copy" && timeout 300 bash -c "$(cat "$cmd_file")") >"$work/out" 2>"$work/err"
  rc=$?
  problem=
  if [ $rc -ge 3 ]; then
    problem="exit code $rc"
  elif [ -f "$work/cmds/expect.$i" ] && ! diff -q "$work/cmds/expect.$i" "$work/out" >/dev/null; then
    problem="output differs from the README"
  fi
  if [ -n "$problem" ]; then
    failures=$((failures + 1))
    echo "FAIL $readme:$line: $(head -1 "$cmd_file") — $problem"
    sed 's/^/    stderr: /' "$work/err" | head -5
    if [ "$problem" = "output differs from the README" ]; then
      diff "$work/cmds/expect.$i" "$work/out" | sed 's/^/    /' | head -20
    fi
  else
    echo "ok   $readme:$line: $(head -1 "$cmd_file") (exit $rc)"
  fi
done
echo "check_readme: $((total - failures)) of $total commands passed"
[ $failures -eq 0 ]
