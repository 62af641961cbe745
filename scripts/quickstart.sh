#!/usr/bin/env bash
# One entry point for the README's Quick start and for CI:
#   scripts/quickstart.sh main   install what is missing, build, run the main job on a bundled case
#   scripts/quickstart.sh test   install what is missing, build, run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libz3-dev libboost-dev libtomlplusplus-dev catch2
          libcli11-dev nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=${GPUWCRT_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
# The main job needs only the tool; the test job builds everything (tests, benchmarks).
if [ "${1:-main}" = main ]; then
  cmake --build "$build" --target gpuwcrt -j "$(nproc)"
else
  cmake --build "$build" -j "$(nproc)"
fi

case "${1:-main}" in
  main)
    echo "== gpuwcrt simulate cases/thesis/example.toml   (file order: completion times 4, 10, 12, 11)"
    "$build/gpuwcrt" simulate cases/thesis/example.toml
    echo
    echo "== gpuwcrt wcrt cases/thesis/example.toml       (worst case over every launch order and SM placement)"
    "$build/gpuwcrt" wcrt cases/thesis/example.toml
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 main|test" >&2
    exit 2
    ;;
esac
