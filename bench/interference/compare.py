#!/usr/bin/env python3
"""Compares two `bench_interference --dump` outputs, BEFORE and AFTER, bound by bound.

Every value is an upper end (response, completion, issue, join, behind, wait, solo); "-" is no
bound. Prints, per field, how many are equal, tighter (smaller, or a bound where there was
none) and looser in AFTER, and every looser one; exits 1 when any is looser.
Usage: compare.py BEFORE AFTER
"""
import sys
from fractions import Fraction


def read(path):
    out = {}
    for line in open(path):
        words = line.split()
        if not words:
            continue
        key = (words[0], words[1])
        out[key] = dict(zip(words[2::2], words[3::2]))
    return out


def value(text):
    return None if text == "-" else Fraction(text)


def main():
    before, after = read(sys.argv[1]), read(sys.argv[2])
    if before.keys() != after.keys():
        sys.exit("the two dumps list different operations")
    counts = {}
    looser = []
    for key, fields in before.items():
        for name, text in fields.items():
            b, a = value(text), value(after[key].get(name, "-"))
            c = counts.setdefault(name, [0, 0, 0])
            if a == b:
                c[0] += 1
            elif b is None or (a is not None and a < b):
                c[1] += 1
            else:
                c[2] += 1
                looser.append("%s %s %s: %s -> %s" % (key[0], key[1], name, text, after[key].get(name, "-")))
    print("%d operations" % len(before))
    for name, (eq, tighter, worse) in counts.items():
        print("%-8s equal %d, tighter %d, looser %d" % (name, eq, tighter, worse))
    for line in looser[:50]:
        print("LOOSER " + line)
    sys.exit(1 if looser else 0)


if __name__ == "__main__":
    main()
