#!/usr/bin/env python3
"""The table of bench/mpi/run.sh from its raw lines (NAME|CONFIG|WALL_S|TIME_RSS_KIB|JSON).

One row per (workload, configuration): median wall time over the runs (mpirun's start of the
processes included, about 0.3 s here) and median time of the command itself (stats.seconds, rank
0's clock: the search and its exchanges without the launcher), states stored and
states per second, the largest peak RSS of any process (the single process's from
/usr/bin/time, a spread run's from its JSON stats), bytes exchanged in all and in the busiest
level, and the ratios the targets are stated in: wall time against the single process with 2
threads (wall, and the command's own time), and peak RSS per process against the single
process's. Exit 1 when any run's
operations differ from the single process's first run (values, statuses, witnesses; the
RTA comparison fields aside)."""
import json
import statistics
import sys
from collections import defaultdict


def answers(run):
    """The exact engine's answers: every field of every operation but the RTA's comparison
    (rta_*), whose search over launch orders is cut by time and so varies between runs."""
    return [{k: v for k, v in op.items() if not k.startswith("rta_")} for op in run.get("operations", [])]


def main(path):
    runs = defaultdict(list)
    order = []
    for line in open(path):
        name, config, wall, rss_kib, js = line.rstrip("\n").split("|")
        if (name, config) not in runs:
            order.append((name, config))
        runs[(name, config)].append((float(wall), int(rss_kib), json.load(open(js))))
    reference = {}
    differ = []
    print("| workload | configuration | wall median (s) | command median (s) | states stored | states/s "
          "| peak RSS per process, max (MiB) | RSS vs single | wall vs single | command vs single | bytes exchanged "
          "| busiest level (bytes) | status |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    single = {}
    for name, config in order:
        rows = runs[(name, config)]
        wall = statistics.median(r[0] for r in rows)
        own = statistics.median(r[2].get("stats", {}).get("seconds", 0) for r in rows)
        last = rows[-1][2]
        st = last.get("stats", {})
        states = st.get("states", 0)
        if config == "single":
            rss = max(r[1] for r in rows) / 1024
            reference[name] = answers(rows[0][2])
            single[name] = (wall, rss, own)
        else:
            if any(r[2].get("stats", {}).get("processes") != int(config[1:]) for r in rows):
                print(f"{name} {config}: the search did not run across processes (a build without MPI?)")
                return 1
            rss = max(max(r[2]["stats"].get("process_peak_rss_mib", [0])) for r in rows)
        for r in rows:
            if answers(r[2]) != reference.get(name):
                differ.append(f"{name} {config}")
        statuses = [o["status"] for o in last.get("operations", [])]
        status = f"{statuses.count('exact')}/{len(statuses)} exact"
        w0, r0, c0 = single.get(name, (wall, rss, own))
        level = max(st.get("level_bytes_exchanged", [0]) or [0])
        print(f"| {name} | {config_text(config)} | {wall:.2f} | {own:.2f} | {states} | {states / own:,.0f} | {rss:.0f} "
              f"| {rss / r0:.2f} | {wall / w0:.2f} | {own / c0:.2f} | {st.get('bytes_exchanged', 0):,} | {level:,} "
              f"| {status} |")
    if differ:
        print("\nANSWERS DIFFER from the single process: " + ", ".join(differ))
        return 1
    print("\nEvery run's operations (values, statuses, witnesses) equal the single process's.")
    return 0


def config_text(config):
    return {"single": "1 process, 2 threads", "R2": "mpirun -np 2, 1 thread each",
            "R4": "mpirun -np 4, 1 thread each (oversubscribed)"}[config]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
