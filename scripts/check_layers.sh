#!/usr/bin/env bash
# Fails when a source file includes a header from a layer above its own (docs/architecture.md):
#   common < model < sim < encode < bounds < solver < report < app
# tests/, bench/ and tools/ stand above every layer and may include any of them.
# One grep and one awk over every include: a process per include cost CI seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
layers="common model sim encode bounds solver report app"
# shellcheck disable=SC2086  # the layers are words
grep -rn --include='*.hpp' --include='*.cpp' '^[[:space:]]*#include "' $layers |
  awk -v layers="$layers" '
    BEGIN { n = split(layers, names, " "); for (i = 1; i <= n; ++i) rank[names[i]] = i }
    {
      split($0, parts, ":"); file = parts[1]; line = parts[2]
      own = substr(file, 1, index(file, "/") - 1)
      inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
      top = index(inc, "/") ? substr(inc, 1, index(inc, "/") - 1) : inc
      if ((top in rank) && rank[top] > rank[own]) {
        printf "%s:%s: layer '\''%s'\'' includes '\''%s'\'' from layer '\''%s'\'' above it\n", file, line, own, inc, top > "/dev/stderr"
        bad = 1
      }
    }
    END { exit bad }' ||
  { echo "check_layers: an include runs up the layers (order: $layers)" >&2; exit 1; }
echo "check_layers: every include runs down the layers ($layers)"
