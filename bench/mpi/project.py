#!/usr/bin/env python3
"""Projects an exact search too large for one machine from a pilot run of its first levels and a
complete reference run of a smaller workload of the same family (docs/theory/distributed.md,
"Projecting a larger search").

  project.py REFERENCE.json PILOT.json [MEASURED.json]

REFERENCE: `wcrt --engine exact --json` of a complete run under mpirun -np 2 (its stats carry
level_states and level_bytes_exchanged). PILOT: the same command on the target workload, cut by
--timeout after a few levels (level_states holds the levels completed). MEASURED (optional): a
complete run of the target under mpirun -np 2, to check the projection against.

Model: the growth from level l to l + 1 depends on the number of operations still open,
r = n - l; it is read off the reference at the same r (rho(r) = S_ref(l + 1) / S_ref(l)) and
applied from the pilot's last level on. Bytes sent while a level is expanded (2 processes: half
of the children travel) are the reference's bytes per child state at the same r times the
projected children. States, bytes and the largest level are printed with, when MEASURED is
given, measured / projected."""
import json
import sys


def stats(path):
    return json.load(open(path))["stats"]


def main(ref_path, pilot_path, measured_path=None):
    ref, pilot = stats(ref_path), stats(pilot_path)
    rs, rb = ref["level_states"], ref["level_bytes_exchanged"]
    n_ref = len(json.load(open(ref_path))["operations"])
    n = len(json.load(open(pilot_path))["operations"])
    rho = {n_ref - l: rs[l + 1] / rs[l] for l in range(len(rs) - 1) if rs[l] > 0}
    beta = {n_ref - l: rb[l] / rs[l + 1] for l in range(len(rs) - 1) if rs[l + 1] > 0}
    levels = [s for s in pilot["level_states"]]
    known = len(levels)
    while len(levels) < n:
        r = n - (len(levels) - 1)
        if r not in rho:
            # Beyond the reference's range (more open operations than it had): its first ratio.
            r = max(rho)
        levels.append(levels[-1] * rho[r])
    bytes_per_level = []
    for l in range(n - 1):
        r = n - l
        bytes_per_level.append(levels[l + 1] * beta.get(r, beta[max(beta)]))
    states, sent = sum(levels), sum(bytes_per_level)
    print(f"reference: n = {n_ref}, {ref['states']:,} states; pilot: n = {n}, levels 0..{known - 1} measured "
          f"({sum(levels[:known]):,.0f} states)")
    print(f"projected: {states:,.0f} states, largest level {max(levels):,.0f}, "
          f"{sent:,.0f} bytes exchanged by 2 processes (busiest level {max(bytes_per_level):,.0f})")
    result = {"n": n, "states": states, "peak_level": max(levels), "bytes_2": sent,
              "busiest_level_bytes_2": max(bytes_per_level), "levels": levels}
    if measured_path:
        m = stats(measured_path)
        mb = m["bytes_exchanged"]
        print(f"measured:  {m['states']:,} states, largest level {m['peak_level_states']:,}, {mb:,} bytes "
              f"(busiest level {max(m['level_bytes_exchanged']):,}); measured / projected: states "
              f"{m['states'] / states:.2f}, bytes {mb / sent:.2f}")
        result["measured_over_projected"] = {"states": m["states"] / states, "bytes": mb / sent}
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(3)
    main(*sys.argv[1:])
