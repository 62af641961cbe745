#!/usr/bin/env bash
# How long a new contributor and CI wait: from a cold clone of this checkout's HEAD (no ccache,
# no build directory), each step timed on its own, in the order CI runs them:
#   1. the Release build of everything (tool, tests, benchmarks, fuzzer), warnings as errors
#   2. ctest -L fast (the developers' loop)
#   3. scripts/quickstart.sh main in a second cold clone (build the tool, run the main job)
#   4. bash .ci/run in a third cold clone (every CI tier; it prints each tier's time)
# Packages must be installed (scripts/quickstart.sh installs them). Usage:
#   bench/build/run.sh [WORK_DIR] [--no-ci]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
ci=yes
[ "${2:-}" = --no-ci ] && ci=no
export CCACHE_DISABLE=1
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -m); $(g++ --version | head -1)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git -C "$repo" rev-parse --short HEAD)"

timed() {  # timed NAME COMMAND...: prints "NAME: N s"
  local name=$1 start=$SECONDS
  shift
  "$@" >"$work/$name.log" 2>&1 || { echo "$name: FAILED (log: $work/$name.log)"; exit 1; }
  echo "$name: $((SECONDS - start)) s"
}

rm -rf "$work/build-clone" "$work/main-clone" "$work/ci-clone"
git clone -q "$repo" "$work/build-clone"
cd "$work/build-clone"
timed "release build of everything" bash -c \
  "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUWCRT_WERROR=ON && cmake --build build -j$(nproc)"
timed "ctest -L fast" ctest --test-dir build -L fast -j"$(nproc)"
git clone -q "$repo" "$work/main-clone"
cd "$work/main-clone"
timed "quickstart.sh main" scripts/quickstart.sh main
if [ "$ci" = yes ]; then
  git clone -q "$repo" "$work/ci-clone"
  cd "$work/ci-clone"
  timed "ci-run" env CI=true bash .ci/run
  grep '^== .*: [0-9]* s$' "$work/ci-run.log"
fi
