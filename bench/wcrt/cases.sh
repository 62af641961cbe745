#!/usr/bin/env bash
# The documented examples and every imported cuda_scheduling_examiner config through
# `gpuwcrt wcrt --engine smt` and `--engine enumerate` (must agree): wall seconds,
# exit code, and whether every operation's WCRT (and status) is the same for both engines.
# Usage (from the checkout root): bench/wcrt/cases.sh [TIMEOUT_SECONDS]   (default 300)
# GPUWCRT=path overrides the binary (default build/gpuwcrt).
set -u
timeout_s=${1:-300}
bin=${GPUWCRT:-build/gpuwcrt}
dir=$(mktemp -d)
files=(tests/data/smt/readme_full_example.toml tests/data/smt/readme_full_example_points.toml)
for cfg in tests/data/examiner-configs/*.json; do
    name=$(basename "$cfg" .json)
    # Configs whose multikernel kernels copy need a bandwidth (RTSS'17 Fig. 3: 1.25 GiB/s).
    if ! "$bin" import-examiner "$cfg" -o "$dir/$name.toml" 2>/dev/null; then
        "$bin" import-examiner "$cfg" --copy-bandwidth 1342177280 -o "$dir/$name.toml" || continue
    fi
    files+=("$dir/$name.toml")
done
values() {  # "op=wcrt status" per operation from wcrt --json, one a line
    python3 -c 'import json,sys; d=json.load(sys.stdin); [print(o["name"] + "=" + str(o.get("wcrt")), o["status"]) for o in d["operations"]]'
}
for f in "${files[@]}"; do
    name=$(basename "$f" .toml)
    for engine in smt enumerate; do
        start=$(date +%s.%N)
        "$bin" wcrt "$f" --engine "$engine" --timeout "$timeout_s" --json > "$dir/$name.$engine.json" 2>/dev/null
        rc=$?
        end=$(date +%s.%N)
        echo "$name $engine rc=$rc $(echo "$end - $start" | bc) s"
    done
    if [ -s "$dir/$name.smt.json" ] && [ -s "$dir/$name.enumerate.json" ]; then
        if diff <(values < "$dir/$name.smt.json") <(values < "$dir/$name.enumerate.json") > /dev/null; then
            echo "$name: same values ($(values < "$dir/$name.smt.json" | paste -sd ';'))"
        else
            echo "$name: DIFFERENT"; diff <(values < "$dir/$name.smt.json") <(values < "$dir/$name.enumerate.json")
        fi
    fi
done
rm -rf "$dir"
