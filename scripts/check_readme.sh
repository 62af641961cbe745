#!/usr/bin/env bash
# Runs every command that README.md and the guide pages (docs/guide/*.md) show, as a user would
# paste it from the checkout root after `scripts/quickstart.sh main`, and reports each that
# fails. Each page runs in a temporary copy of the checkout of its own (so that files the
# commands write never touch the real one, and no page depends on another), in page order.
#
#   scripts/check_readme.sh [--update] [PAGE.md ...]     (default: README.md docs/guide/*.md)
#
# What runs:
# - every line of a ```sh block (a trailing `\` continues it; comments and
#   `scripts/quickstart.sh`, the precondition, are skipped);
# - every `$ ` line of an unlabelled or ```console block (a trailing `\` continues it); the lines
#   after it, up to the next `$ ` line or the end of the block, are the output it must print on
#   stdout, exactly (trailing empty lines aside). A `$ ` command followed by no lines is run
#   but its output is not checked;
# - a ```toml file=NAME block is written to NAME in the copy at that point, so that a page can
#   show a workload and then run commands on it.
# Blocks labelled otherwise (```text, ```toml, ```json, …) are illustrative and never run: use
# ```text for commands that need MPI or take longer than the limit below.
#
# A command fails when it exits with 3 (input error) or more, is killed, or runs over 300 s;
# exit codes 1 and 2 are verdicts (refuted, unknown). With --update, the output shown after each
# `$ ` command that passed is replaced in place by what it prints now (the page is rewritten
# only when something changed; a failing command keeps its block): run it after a change of
# an output format, then read the diff. Only deterministic output belongs in such blocks —
# no timings, no machine-dependent values.
# Exit status: 0 when every command passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
update=0
pages=()
for arg in "$@"; do
  case $arg in
    --update) update=1 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check_readme: unknown option $arg" >&2; exit 1 ;;
    /*) pages+=("$(realpath -m --relative-to=. "$arg")") ;;
    *) pages+=("$(realpath -m --relative-to=. "$OLDPWD/$arg")") ;;
  esac
done
[ ${#pages[@]} -eq 0 ] && pages=(README.md docs/guide/*.md)
binary=build/gpuwcrt
if [ ! -x "$binary" ]; then
  echo "check_readme: $binary not found; run scripts/quickstart.sh main first" >&2
  exit 1
fi
for page in "${pages[@]}"; do
  [ -f "$page" ] || { echo "check_readme: $page: no such file" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Splits PAGE into steps in $2: step.N is a command (cmd.N) or a file to write (file.N, named
# by target.N); line.N is the page's line, for the report; expect.N with from.N/to.N (the
# page's lines it occupies) is the output a `$ ` command must print.
parse_page() {
  awk -v dir="$2" '
    function start(kind, line) {
      n++; collecting = 0
      print line > (dir "/line." n); close(dir "/line." n)
      print kind > (dir "/kind." n); close(dir "/kind." n)
    }
    function command(text, line) {
      start("cmd", line)
      printf "%s\n", text > (dir "/cmd." n); close(dir "/cmd." n)
    }
    function end_expect() {
      if (collecting) { close(dir "/expect." n); print last > (dir "/to." n); close(dir "/to." n) }
      collecting = 0
    }
    /^```/ {
      if (!fence) {
        fence = 1; info = substr($0, 4); lang = info; sub(/[ \t].*/, "", lang); cont = 0; target = ""
        if (lang == "toml" && match(info, /file=[^ \t]+/)) {
          target = substr(info, RSTART + 5, RLENGTH - 5)
          start("file", NR)
          print target > (dir "/target." n); close(dir "/target." n)
          printf "" > (dir "/file." n)
        }
      } else {
        end_expect()
        if (target != "") close(dir "/file." n)
        fence = 0; cmd_open = 0; target = ""
      }
      next
    }
    !fence { next }
    target != "" { print > (dir "/file." n); next }
    lang == "sh" {
      line = $0; sub(/^[ \t]+/, "", line)
      if (cont) { pending = pending "\n" line }
      else {
        if (line == "" || line ~ /^#/ || line ~ /^scripts\/quickstart\.sh/) next
        pending = line; first = NR
      }
      cont = (line ~ /\\$/)
      if (!cont) command(pending, first)
      next
    }
    lang == "" || lang == "console" {
      if (cont) {
        pending = pending "\n" $0; cont = ($0 ~ /\\$/)
        if (!cont) { command(pending, first); cmd_open = 1 }
        next
      }
      if ($0 ~ /^\$ /) {
        end_expect()
        pending = substr($0, 3); first = NR; cont = ($0 ~ /\\$/)
        if (!cont) { command(pending, first); cmd_open = 1 }
        next
      }
      if (cmd_open) {
        if (!collecting) { print NR > (dir "/from." n); close(dir "/from." n) }
        print > (dir "/expect." n); collecting = 1; last = NR
      }
    }
  ' "$1"
}

# Rewrites the output blocks of PAGE from the replacements in $2 (new.N replaces lines
# from.N..to.N), atomically.
rewrite_page() {
  local page=$1 dir=$2 tmp
  tmp=$(mktemp "$page.XXXXXX")
  awk -v dir="$dir" '
    BEGIN {
      while ((getline f < (dir "/replaced")) > 0) {
        getline a < (dir "/from." f); getline b < (dir "/to." f)
        from[a] = f; to[f] = b
      }
    }
    FNR in from {
      f = from[FNR]; file = dir "/new." f
      while ((getline l < file) > 0) print l
      skip_to = to[f]; next
    }
    FNR <= skip_to { next }
    { print }
  ' "$page" >"$tmp" && mv "$tmp" "$page"
}

same_output() { [ "$(cat "$1")" = "$(cat "$2")" ]; }

total=0 failures=0 updated=0
for page in "${pages[@]}"; do
  steps=$work/steps
  rm -rf "$steps" "$work/checkout"
  mkdir -p "$steps" "$work/checkout/build"
  copy=$work/checkout
  git ls-files -z | xargs -0 cp --parents -t "$copy"
  cp "$binary" "$copy/build/"
  parse_page "$page" "$steps"
  : >"$steps/replaced"
  count=$(find "$steps" -name 'kind.*' | wc -l)
  for i in $(seq 1 "$count"); do
    line=$(cat "$steps/line.$i")
    if [ "$(cat "$steps/kind.$i")" = file ]; then
      cp "$steps/file.$i" "$copy/$(cat "$steps/target.$i")"
      continue
    fi
    total=$((total + 1))
    cmd_file=$steps/cmd.$i
    (cd "$copy" && timeout 300 bash -c "$(cat "$cmd_file")") >"$work/out" 2>"$work/err"
    rc=$?
    problem=
    if [ $rc -ge 3 ]; then
      problem="exit code $rc"
    elif [ -f "$steps/expect.$i" ] && ! same_output "$steps/expect.$i" "$work/out"; then
      if [ $update -eq 1 ]; then
        cp "$work/out" "$steps/new.$i"
        echo "$i" >>"$steps/replaced"
        updated=$((updated + 1))
        echo "upd  $page:$line: $(head -1 "$cmd_file") (exit $rc): output block rewritten"
        continue
      fi
      problem="output differs from the page"
    fi
    if [ -n "$problem" ]; then
      failures=$((failures + 1))
      echo "FAIL $page:$line: $(head -1 "$cmd_file") — $problem"
      sed 's/^/    stderr: /' "$work/err" | head -5
      if [ "$problem" = "output differs from the page" ]; then
        diff "$steps/expect.$i" "$work/out" | sed 's/^/    /' | head -20
      fi
    else
      echo "ok   $page:$line: $(head -1 "$cmd_file") (exit $rc)"
    fi
  done
  [ -s "$steps/replaced" ] && rewrite_page "$page" "$steps"
done
if [ $update -eq 1 ]; then
  echo "check_readme: $((total - failures)) of $total commands passed; $updated output blocks rewritten"
else
  echo "check_readme: $((total - failures)) of $total commands passed"
fi
[ $failures -eq 0 ]
