#!/usr/bin/env bash
# Builds SAG's nptest (github.com/SAG-org/schedule_abstraction-main) into OUT_DIR.
#   build_nptest.sh OUT_DIR [SOURCE]
# SOURCE is a git directory (bare or not) or a URL; default: the public repository.
# NPTEST_COMMIT picks the commit (default: the one the committed results were measured with).
# Needs cmake, a C++20 compiler and Debian's libyaml-cpp-dev (the repository's yaml-cpp
# submodule is not needed then). TBB is only needed for its optional parallel build, not used here:
# the comparison is single-threaded on both sides.
set -euo pipefail
out=${1:?usage: build_nptest.sh OUT_DIR [SOURCE]}
src=${2:-https://github.com/SAG-org/schedule_abstraction-main}
commit=${NPTEST_COMMIT:-47a45b69cbc90d0d0fd36d7c9ac8edaf041a6f05}
jobs=${JOBS:-1}

mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ! -d "$out/src/.git" ]; then
  git clone --quiet --no-checkout "$src" "$out/src"
fi
git -C "$out/src" -c advice.detachedHead=false checkout --quiet "$commit"
cmake -S "$out/src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DUSE_YAML_CPP_PACKAGE=ON \
  > "$out/cmake.log"
cmake --build "$out/build" --target nptest -j "$jobs" > "$out/build.log"
git -C "$out/src" rev-parse HEAD > "$out/COMMIT"
echo "$out/build/nptest (commit $(cat "$out/COMMIT"))"
