#!/usr/bin/env bash
# Rewrites the option lists of docs/reference/commands.md from `build/gpuwcrt [COMMAND] --help`,
# so that the reference cannot drift from the tool: each list sits between the lines
# `<!-- help: COMMAND -->` and `<!-- end help -->` (COMMAND `gpuwcrt` is the main command).
# The memory default and maximum depend on the machine's RAM; they are written as words.
#
#   scripts/update_commands_reference.sh           # rewrite the lists in place
#   scripts/update_commands_reference.sh --check   # exit 1 (and show the diff) when a list is stale
set -euo pipefail
cd "$(dirname "$0")/.."
page=docs/reference/commands.md
binary=build/gpuwcrt
[ -x "$binary" ] || { echo "update_commands_reference: $binary not found; build first" >&2; exit 1; }
mode=${1:-update}

help_of() {
  local cmd=$1
  if [ "$cmd" = gpuwcrt ]; then "$binary" --help; else "$binary" "$cmd" --help; fi |
    sed -E 's/\(default [0-9]+: [0-9]+ or half/(default: 2048 or half/; s/64 to [0-9]+, RAM \+ swap/64 to RAM + swap/'
}

new=$(mktemp)
trap 'rm -f "$new"' EXIT
skipping=0
while IFS= read -r line || [ -n "$line" ]; do
  if [[ $line =~ ^'<!-- help: '([a-z-]+)' -->'$ ]]; then
    printf '%s\n```text\n' "$line" >>"$new"
    help_of "${BASH_REMATCH[1]}" >>"$new"
    printf '```\n' >>"$new"
    skipping=1
  elif [ "$line" = '<!-- end help -->' ]; then
    printf '%s\n' "$line" >>"$new"
    skipping=0
  elif [ $skipping -eq 0 ]; then
    printf '%s\n' "$line" >>"$new"
  fi
done <"$page"

if [ "$mode" = --check ]; then
  diff -u "$page" "$new" && exit 0
  echo "update_commands_reference: $page is stale; run scripts/update_commands_reference.sh" >&2
  exit 1
fi
cp "$new" "$page"
