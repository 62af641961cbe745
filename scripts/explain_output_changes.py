#!/usr/bin/env python3
"""Sorts the differences that `COMPARE_JSON=1 scripts/compare_outputs.sh OLD NEW DIR` found.

    scripts/explain_output_changes.py DIR [--details N]

Each run (command x input file) falls in the first class that applies:
  exit code changed      the old and new binary end differently: an answer or a refusal changed
  answer value changed   a key both JSON outputs have holds another value (elapsed times, the
                         tool's version and progress aside): a bound, a verdict, a response...
  statistics changed     only the search's statistics differ ("stats", "simulations"): what a
                         search under a time limit did, not what it answered
  keys removed           the new JSON lacks keys the old one had
  keys added             only new keys (columns, the assumptions block): a format change
  message changed        no JSON on stdout (a refusal, exit 3): stderr differs
  stderr changed         the same JSON, another stderr (warnings, progress lines)
  same                   nothing differs
Prints a Markdown table of the classes with their counts and the keys added or removed, then
the first N runs of every class but "keys added" and "same" with what differs, for a person to
explain each one. Exits 0; the table is the result.
"""
import json
import os
import re
import sys
from collections import Counter, defaultdict

ELAPSED = re.compile(r"[0-9]+(\.[0-9]+)? ?(s|ms|min)\b")
STATISTICS = (".stats", ".simulations")
VOLATILE = {"elapsed", "elapsed_ms", "seconds", "wall_ms", "time_ms", "seed_elapsed_ms", "version"}


def load(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def walk(old, new, path, changed, added, removed):
    if isinstance(old, dict) and isinstance(new, dict):
        for k, v in old.items():
            if k in VOLATILE:
                continue
            if k not in new:
                removed.add(f"{path}.{k}".lstrip("."))
            else:
                walk(v, new[k], f"{path}.{k}", changed, added, removed)
        for k in new:
            if k not in old and k not in VOLATILE:
                added.add(f"{generic(path)}.{k}".lstrip("."))
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            changed.append((path, f"{len(old)} items", f"{len(new)} items"))
        for i, (a, b) in enumerate(zip(old, new)):
            walk(a, b, f"{path}[{i}]", changed, added, removed)
    elif old != new and not (isinstance(old, str) and isinstance(new, str) and ELAPSED.sub("<t>", old) == ELAPSED.sub("<t>", new)):
        changed.append((path, old, new))


def generic(path):
    """The path with list indices dropped: one name per column, not per row."""
    out, depth = [], 0
    for ch in path:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def classify(old_dir, new_dir, rel):
    o = {p: load(os.path.join(old_dir, rel + "." + p)) for p in ("rc", "out", "err.m")}
    n = {p: load(os.path.join(new_dir, rel + "." + p)) for p in ("rc", "out", "err.m")}
    if (o["rc"] or "").strip() != (n["rc"] or "").strip():
        return "exit code changed", [("exit", o["rc"].strip(), n["rc"].strip()), ("stderr", first_line(o["err.m"]), first_line(n["err.m"]))], set(), set()
    try:
        jo, jn = json.loads(o["out"]), json.loads(n["out"])
    except (TypeError, ValueError):
        if o["err.m"] != n["err.m"]:
            return "message changed", [("stderr", first_line(o["err.m"]), first_line(n["err.m"]))], set(), set()
        return ("same" if o["out"] == n["out"] else "stdout (not JSON) changed"), [], set(), set()
    changed, added, removed = [], set(), set()
    walk(jo, jn, "", changed, added, removed)
    changed = [c for c in changed if not c[0].startswith(".progress")]
    if any(not c[0].startswith(STATISTICS) for c in changed):
        return "answer value changed", changed, added, removed
    if changed:
        return "statistics changed", changed, added, removed
    if removed:
        return "keys removed", [], added, removed
    if added:
        return "keys added", [], added, removed
    if o["err.m"] != n["err.m"]:
        return "stderr changed", [("stderr", first_line(o["err.m"]), first_line(n["err.m"]))], added, removed
    return "same", [], added, removed


def first_line(text):
    text = (text or "").strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return (lines[0][:160] + (f" (+{len(lines) - 1} lines)" if len(lines) > 1 else "")) if lines else "(empty)"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    details = int(sys.argv[sys.argv.index("--details") + 1]) if "--details" in sys.argv else 20
    old_dir, new_dir = os.path.join(root, "old"), os.path.join(root, "new")
    runs = sorted(
        os.path.relpath(os.path.join(d, f), old_dir)[: -len(".rc")]
        for d, _, fs in os.walk(old_dir)
        for f in fs
        if f.endswith(".rc")
    )
    counts, examples = Counter(), defaultdict(list)
    added_by_class, removed_all = defaultdict(Counter), Counter()
    for rel in runs:
        cls, what, added, removed = classify(old_dir, new_dir, rel)
        counts[cls] += 1
        examples[cls].append((rel, what))
        for k in added:
            added_by_class[cls][k] += 1
        for k in removed:
            removed_all[k] += 1
    print(f"{len(runs)} runs\n")
    print("| class | runs |\n|---|---|")
    for cls, n in counts.most_common():
        print(f"| {cls} | {n} |")
    keys = Counter()
    for c in added_by_class.values():
        keys.update(c)
    if keys:
        print("\nKeys added (runs):", ", ".join(f"`{k}` ({n})" for k, n in keys.most_common()))
    if removed_all:
        print("\nKeys removed (runs):", ", ".join(f"`{k}` ({n})" for k, n in removed_all.most_common()))
    for cls, items in examples.items():
        if cls in ("same", "keys added"):
            continue
        print(f"\n## {cls} ({len(items)})")
        for rel, what in items[:details]:
            print(f"- {rel}")
            for path, a, b in what[:6]:
                print(f"    {path}: {a!r} -> {b!r}")
            if len(what) > 6:
                print(f"    ... {len(what) - 6} more")


if __name__ == "__main__":
    main()
