#!/usr/bin/env python3
"""Shape table of the refuted claims: the pinned case of each claim (from the
counterexample store) against the counterexample a run found by itself (from
a report.json written with an empty store), with the cases it took.

  tools/shape_table.py REPORT.json [STORE_DIR]   (default properties/counterexamples)

A shape is the total number of rows and of columns of the matrices of the
case, plus the number of matrices; 'no larger' means the found case has no
more matrices, no more rows and no more columns in all than the pin. Exit
status 1 when a found case is larger than its pin or a pinned claim was not
refuted from the empty store."""
import json, os, re, sys


def shape_of(text):
    mats = re.findall(r"^\s*(\S+): matrix (\d+)x(\d+)", text, re.M)
    return (len(mats), sum(int(r) for _, r, _ in mats), sum(int(c) for _, _, c in mats)), \
        " ".join(f"{n}:{r}x{c}" for n, r, c in mats)


def pins(store):
    out = {}
    for f in sorted(os.listdir(store)):
        if not f.endswith(".txt"):
            continue
        text = open(os.path.join(store, f)).read()
        for block in re.findall(r"^\[case ([^\]]*)\]\n(.*?)^\[end\]", text, re.M | re.S):
            if "expect=refutes" in block[0]:
                out.setdefault(f[:-4], []).append(shape_of(block[1]))
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    report = json.load(open(sys.argv[1]))
    store = sys.argv[2] if len(sys.argv) > 2 else "properties/counterexamples"
    pinned = pins(store)
    bad = 0
    print("| claim | backend | pinned shape | found shape | found by | cases | no larger |")
    print("|---|---|---|---|---|---|---|")
    for p in report["properties"]:
        if p["id"] not in pinned or p["expect"] != "refuted":
            continue
        pin = min(pinned[p["id"]])
        if p["verdict"] != "refuted" or not p.get("counterexample"):
            print(f"| {p['id']} | {p['backend']} | {pin[1]} | - | not refuted | {p['cases']} | NO |")
            bad += 1
            continue
        found = shape_of(p["counterexample"])
        ok = all(f <= q for f, q in zip(found[0], pin[0]))
        bad += not ok
        tried = p["cases"] + (p["search"]["tried"] if p["found_by"] == "search" else 0)
        print(f"| {p['id']} | {p['backend']} | {pin[1]} | {found[1]} | {p['found_by']} | {tried} | "
              f"{'yes' if ok else 'NO'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
