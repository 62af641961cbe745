#!/usr/bin/env bash
# Formats every tracked .cpp/.hpp with the repository's .clang-format.
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --check   change nothing; list the files that would change, exit 1 if any
# CLANG_FORMAT picks the binary (default: clang-format-14, the version .clang-format is tuned for).
set -euo pipefail
cd "$(dirname "$0")/.."

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null; then cf=$c; break; fi
  done
fi
if [ -z "$cf" ]; then
  echo "format.sh: clang-format not found (Debian: apt-get install clang-format-14)" >&2
  exit 2
fi

mode=${1:-}
case "$mode" in
  "" | --check) ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.hpp')
if [ "$mode" = --check ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
      echo "would reformat: $f"
      bad=1
    fi
  done
  exit $bad
fi
"$cf" --style=file -i "${files[@]}"
