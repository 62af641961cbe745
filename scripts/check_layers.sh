#!/usr/bin/env bash
# Fails when a source file includes a header from a layer above its own (docs/architecture.md):
#   common < model < sim < encode < bounds < solver < report < app
# tests/, bench/ and tools/ stand above every layer and may include any of them.
set -euo pipefail
cd "$(dirname "$0")/.."
layers=(common model sim encode bounds solver report app)
rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo -1
}
bad=0
for dir in "${layers[@]}"; do
  own=$(rank "$dir")
  while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}
    inc=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")
    top=${inc%%/*}
    r=$(rank "$top")
    if [ "$r" -gt "$own" ]; then
      echo "$file:$line: layer '$dir' includes '$inc' from layer '$top' above it" >&2
      bad=1
    fi
  done < <(grep -rn --include='*.hpp' --include='*.cpp' '^[[:space:]]*#include "' "$dir" || true)
done
if [ "$bad" -ne 0 ]; then
  echo "check_layers: an include runs up the layers (order: ${layers[*]})" >&2
  exit 1
fi
echo "check_layers: every include runs down the layers (${layers[*]})"
