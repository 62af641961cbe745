#!/usr/bin/env python3
"""gpuwcrt workloads of the class both gpuwcrt and SAG's nptest model exactly (README.md).

  shared_class.py convert FILE.toml WCRT.json OUT_PREFIX HYPERPERIODS [PREV.map.json PREV.rta.csv]
      writes OUT_PREFIX.jobs.csv, OUT_PREFIX.prec.csv (nptest's inputs) and OUT_PREFIX.map.json,
      the kernels in the queue order that gpuwcrt's bounds suggest (or an earlier nptest run's);
      exit 3 with the reason when FILE is outside the class (on stderr, nothing written).
  shared_class.py compare OUT_PREFIX.map.json WCRT.json NPTEST.rta.csv
      prints one JSON line: per-operation comparison and whether the class still holds with
      nptest's completion times added to the queue-order argument.

The queue order is the EE queue's join order. It is fixed in every scenario when the join
windows of kernels of different streams are disjoint; the windows use gpuwcrt's proven upper
bounds (and nptest's, once known) and a lower bound that needs no tool (README.md).
"""
import csv
import json
import math
import sys
import tomllib
from decimal import Decimal
from fractions import Fraction as F

TX2 = {"sms": 2, "threads_per_sm": 2048, "shared_mem_per_sm": 65536, "registers_per_sm": 65536,
       "blocks_per_sm_max": 32}
STREAM_KEYS_OUTSIDE = ("jitter", "min_interarrival", "null")
KERNEL_KEYS_OUTSIDE = ("wait", "after_stream_idle")


class OutsideClass(Exception):
    pass


def exact(value):
    """A TOML time (integer, decimal read exactly, or "a/b") as a Fraction."""
    if isinstance(value, (int, Decimal)):
        return F(value)
    if isinstance(value, str):
        return F(value)
    raise OutsideClass(f"time {value!r} is not a number")


def interval(value):
    if isinstance(value, list):
        return exact(value[0]), exact(value[1])
    return exact(value), exact(value)


def share_no_sm(a, b, platform):
    """A block of A and one of B never run on one SM together (each fills its SM)."""
    def use(k):
        return k["threads"], k.get("shared_mem", 0), k.get("registers", 0) * k["threads"]
    (ta, sa, ra), (tb, sb, rb) = use(a), use(b)
    return (ta + tb > platform["threads_per_sm"] or sa + sb > platform["shared_mem_per_sm"]
            or ra + rb > platform["registers_per_sm"] or platform["blocks_per_sm_max"] < 2)


def read_workload(path):
    """Streams (name -> period, offset) and their kernels in file order; OutsideClass otherwise."""
    with open(path, "rb") as f:
        doc = tomllib.load(f, parse_float=Decimal)
    if doc.get("copy"):
        raise OutsideClass("copies use the copy engine, a resource nptest's cores do not model")
    platform = dict(TX2, **doc.get("platform", {}))
    streams = {}
    for s in doc.get("stream", []):
        for key in STREAM_KEYS_OUTSIDE:
            if s.get(key):
                raise OutsideClass(f"stream '{s['name']}' has {key}")
        period = exact(s["period"]) if "period" in s else None
        streams[s["name"]] = {"period": period, "offset": exact(s.get("offset", 0)),
                              "priority": s.get("priority", "low")}
    if len({s["priority"] if s["priority"] != "none" else "low" for s in streams.values()}) > 1:
        raise OutsideClass("two priority levels: A2's queues are not one FIFO order")
    kernels = []
    for k in doc.get("kernel", []):
        for key in KERNEL_KEYS_OUTSIDE:
            if key in k:
                raise OutsideClass(f"kernel '{k['name']}' has {key}")
        if "stream" not in k:
            raise OutsideClass(f"kernel '{k['name']}' has no stream")
        if isinstance(k.get("issue"), list):
            raise OutsideClass(f"kernel '{k['name']}' has an issue window")
        for other in doc["kernel"]:
            if not share_no_sm(k, other, platform):
                raise OutsideClass(f"a block of '{k['name']}' and one of '{other['name']}' fit on one SM")
        kernels.append({"name": k["name"], "stream": k["stream"], "blocks": int(k["blocks"]),
                        "cost": interval(k["block_time"]),
                        "issue": exact(k["issue"]) if "issue" in k else None})
    periods = {s["period"] for s in streams.values()}
    if None in periods and len(periods) > 1:
        raise OutsideClass("periodic and single-frame streams mixed: no hyperperiod restarts them")
    return streams, kernels, platform["sms"]


def instances(streams, kernels, hyperperiods):
    """Every kernel of every frame released in the first HYPERPERIODS hyperperiods, each with its
    issue instant, in stream order (one list per stream, frames in order)."""
    periods = [s["period"] for s in streams.values() if s["period"] is not None]
    horizon = None
    if periods:
        h = F(1)
        for p in periods:
            h = F(math.lcm(h.numerator * p.denominator, p.numerator * h.denominator),
                  h.denominator * p.denominator)
        horizon = h * hyperperiods
    per_stream = {}
    for name, s in streams.items():
        ops = [k for k in kernels if k["stream"] == name]
        frame, chain = 0, []
        while True:
            release = s["offset"] + frame * (s["period"] or 0)
            if horizon is not None and release >= horizon:
                break
            last_issue = release
            for k in ops:
                last_issue = release + k["issue"] if k["issue"] is not None else last_issue
                chain.append(dict(k, frame=frame, release=release, issue_at=last_issue, seq=len(chain)))
            frame += 1
            if s["period"] is None:
                break
        per_stream[name] = chain
    return per_stream, horizon


def waves(x, sms):
    return -(-x["blocks"] // sms)


def queue_order(per_stream, finish_bounds, sms, strict):
    """The kernel instances sorted by their EE join windows; with STRICT, OutsideClass unless
    the windows fix the join order in every scenario.

    A kernel joins at max(issue, its stream predecessor's completion) (G2, G4); joins at one
    instant go in launch order, which is fixed when the issue instants differ (§4 step 3).
    FINISH_BOUNDS(x, trivial_min) gives an instance's completion window; trivial_min needs no
    tool: its join + ceil(blocks / SMs) waves of its shortest block time."""
    every = []
    for chain in per_stream.values():
        prev = None
        for x in chain:
            x["join_min"] = max(x["issue_at"], prev["finish_min"]) if prev else x["issue_at"]
            x["join_max"] = max(x["issue_at"], prev["finish_max"]) if prev else x["issue_at"]
            x["finish_min"], x["finish_max"] = finish_bounds(x, x["join_min"] + waves(x, sms) * x["cost"][0])
            every.append(x)
            prev = x
    every.sort(key=lambda x: (x["join_min"], x["issue_at"]))
    for j, b in enumerate(every):
        for a in every[:j] if strict else []:
            if a["stream"] == b["stream"]:
                continue
            before = a["join_max"] < b["join_min"] or (
                a["join_max"] == b["join_min"] and a["issue_at"] < b["issue_at"])
            if not before:
                raise OutsideClass(
                    f"the EE queue order is not fixed: '{a['name']}'#{a['frame']} may join in "
                    f"[{a['join_min']}, {a['join_max']}], '{b['name']}'#{b['frame']} in "
                    f"[{b['join_min']}, {b['join_max']}]")
    return every


def upper_bounds(wcrt_json):
    with open(wcrt_json) as f:
        ops = json.load(f)["operations"]
    return {o["name"]: (F(o["lower_bound"]) if o.get("lower_bound") else None,
                        F(o["upper_bound"]) if o.get("upper_bound") else None) for o in ops}


def nptest_completions(rta_csv):
    """(task, job) -> (best-case completion, worst-case completion) from nptest -r."""
    out = {}
    with open(rta_csv) as f:
        for row in csv.reader(f):
            if not row or not row[0].strip().lstrip("-").isdigit():
                continue
            out[(int(row[0]), int(row[1]))] = (F(row[2].strip()), F(row[3].strip()))
    return out


def completions_by_instance(map_json, rta_csv):
    """(kernel, frame) -> nptest's (best, worst) completion, in the workload's time unit."""
    with open(map_json) as f:
        m = json.load(f)
    rta = {k: (v[0] / m["scale"], v[1] / m["scale"]) for k, v in nptest_completions(rta_csv).items()}
    res = {}
    for task, (name, frame, blocks) in enumerate(m["order"], 1):
        c = [rta[(task, b)] for b in range(1, blocks + 1)]
        res[(name, frame)] = (max(b[0] for b in c), max(b[1] for b in c))
    return m, res


def settle(toml, wcrt_json, hyperperiods, npt=None, strict=False):
    """The workload, gpuwcrt's bounds and the instances in queue order. Without nptest's
    completions NPT the windows use gpuwcrt's upper bounds and the tool-free lower bound (a
    guess of the order); with them, nptest's per-frame completion bounds (gpuwcrt's are per
    operation, the largest over frames, too wide to order frames). STRICT: OutsideClass unless the windows fix the order (README.md: why that proves
    it, given the order nptest analysed is the one they give)."""
    streams, kernels, sms = read_workload(toml)
    bounds = upper_bounds(wcrt_json)
    per_stream, horizon = instances(streams, kernels, hyperperiods)

    def window(x, low):
        if npt is None:
            return low, x["issue_at"] + gpu_ub(bounds, x)
        best, worst = npt[(x["name"], x["frame"])]
        return max(low, best), worst

    order = queue_order(per_stream, window, sms, strict)
    return streams, kernels, sms, horizon, bounds, order


def gpu_ub(bounds, x):
    ub = bounds.get(x["name"], (None, None))[1]
    if ub is None:
        raise OutsideClass(f"gpuwcrt has no upper bound for '{x['name']}': the order is not proven fixed")
    return ub


def convert(toml, wcrt_json, prefix, hyperperiods, previous=None):
    """nptest's inputs in the guessed order, or (PREVIOUS: map and rta of an earlier run) in the
    order the earlier run's completion windows give."""
    npt = completions_by_instance(*previous)[1] if previous else None
    streams, kernels, sms, horizon, bounds, order = settle(toml, wcrt_json, hyperperiods, npt)
    latest = max(x["issue_at"] for x in order) + sum(x["blocks"] * x["cost"][1] for x in order)
    scale = math.lcm(*[t.denominator for x in order for t in (x["issue_at"], *x["cost"])], latest.denominator)
    deadline = latest * scale  # no deadline binds: nptest runs with -c and reports completions
    jobs, prec, rank = [], [], 0
    for task, x in enumerate(order, 1):
        for b in range(1, x["blocks"] + 1):
            rank += 1
            jobs.append([task, b, x["issue_at"] * scale, x["issue_at"] * scale, x["cost"][0] * scale,
                         x["cost"][1] * scale, deadline, rank])
    task_of = {id(x): t for t, x in enumerate(order, 1)}
    for chain in streams_chains(order):
        for p, s in zip(chain, chain[1:]):
            for bp in range(1, p["blocks"] + 1):
                for bs in range(1, s["blocks"] + 1):
                    prec.append([task_of[id(p)], bp, task_of[id(s)], bs])
    with open(prefix + ".jobs.csv", "w") as f:
        f.write("Task ID, Job ID, Arrival min, Arrival max, Cost min, Cost max, Deadline, Priority\n")
        for r in jobs:
            f.write(", ".join(str(int(v)) for v in r) + "\n")
    with open(prefix + ".prec.csv", "w") as f:
        f.write("Predecessor TID, Predecessor JID, Successor TID, Successor JID\n")
        for r in prec:
            f.write(", ".join(str(v) for v in r) + "\n")
    with open(prefix + ".map.json", "w") as f:
        json.dump({"toml": toml, "hyperperiods": hyperperiods, "scale": scale, "sms": sms,
                   "horizon": str(horizon) if horizon is not None else None,
                   "jobs": len(jobs), "edges": len(prec),
                   "order": [[x["name"], x["frame"], x["blocks"]] for x in order]}, f)
    print(f"{len(order)} kernel instances, {len(jobs)} jobs, {len(prec)} edges, scale {scale}, "
          f"m = {sms}")


def streams_chains(order):
    chains = {}
    for x in order:
        chains.setdefault(x["stream"], []).append(x)
    return [sorted(c, key=lambda x: x["seq"]) for c in chains.values()]


def repeating_window(order, npt, horizon, hyperperiods):
    """An instant X such that the frames issued before X cover all time, or None.

    The GPU is idle at x in every scenario when every kernel of a frame released before x
    (issued then or later) completes by x (nptest's worst case). Idle at c and at c + kH
    (c < H, k >= 1): both instants start the same future (releases repeat every H), so the
    behaviour from c on repeats every kH and the frames released before X = c + kH (all in
    the job set, X <= the horizon) show every frame's response. Later frames in the job set
    are left out: jobs beyond the horizon, absent from it, could delay them."""
    period = horizon / hyperperiods

    def idle(t):
        return all(npt[(x["name"], x["frame"])][1] <= t for x in order if x["release"] < t)

    starts = sorted({F(0)} | {x["release"] for x in order if x["release"] < period})
    for k in range(1, hyperperiods + 1):
        for c in starts:
            if c + k * period <= horizon and idle(c) and idle(c + k * period):
                return c + k * period
    return None


def compare(map_json, wcrt_json, rta_csv):
    m, npt = completions_by_instance(map_json, rta_csv)
    result = {"class": "holds"}
    try:
        _, kernels, _, horizon, bounds, order = settle(m["toml"], wcrt_json, m["hyperperiods"], npt, True)
        if [[x["name"], x["frame"], x["blocks"]] for x in order] != m["order"]:
            raise OutsideClass("the windows order the kernels otherwise than the order nptest analysed")
    except OutsideClass as e:
        print(json.dumps({"class": f"outside: {e}"}))
        return
    covered = order
    if horizon is not None:
        until = repeating_window(order, npt, horizon, m["hyperperiods"])
        if until is None:
            result["class"] = f"outside: no instant c < H with the GPU idle at c and c + kH up to {horizon}"
        else:
            covered = [x for x in order if x["release"] < until]
            result["window"] = str(until)
    per_op = {}
    for x in covered:
        best, worst = npt[(x["name"], x["frame"])]
        o = per_op.setdefault(x["name"], {"npt_ub": F(0), "npt_lb_max": F(0)})
        o["npt_ub"] = max(o["npt_ub"], worst - x["issue_at"])
        o["npt_lb_max"] = max(o["npt_lb_max"], best - x["issue_at"])
    rows = []
    for k in kernels:
        o = per_op[k["name"]]
        lb, ub = bounds[k["name"]]
        rows.append({"op": k["name"], "gpu_lb": str(lb), "gpu_ub": str(ub), "npt_ub": str(o["npt_ub"]),
                     "npt_best": str(o["npt_lb_max"]),
                     "disagree": bool((lb is not None and lb > o["npt_ub"]) or (ub is not None and o["npt_lb_max"] > ub)),
                     "gpu_ub_above": bool(ub is not None and ub > o["npt_ub"]),
                     "npt_exact": bool(lb is not None and o["npt_ub"] == lb),
                     "gpu_exact": bool(lb is not None and ub == lb)})
    result["ops"] = rows
    # Kernel instances that may wait for their stream predecessor (join after issue in some
    # scenario): where the precedence edges matter.
    result["waits"] = sum(x["join_max"] > x["issue_at"] for x in order)
    result["instances"] = len(order)
    print(json.dumps(result))


def main():
    try:
        if len(sys.argv) >= 5 and sys.argv[1] == "convert":
            convert(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 1,
                    sys.argv[6:8] if len(sys.argv) > 7 else None)
        elif len(sys.argv) == 5 and sys.argv[1] == "compare":
            compare(sys.argv[2], sys.argv[3], sys.argv[4])
        else:
            sys.exit(__doc__)
    except OutsideClass as e:
        print(f"{sys.argv[2]}: outside the shared class: {e}", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
