"""Compares two builds of tilemm-bench timed by scripts/bench-ab.

Reads the CSV files that scripts/bench-ab writes into one folder, baseline_<rep>.csv and
candidate_<rep>.csv (tilemm-bench --csv), and prints:

  - each side's device and its noise: for every (shape, kernel) the slowest over the fastest
    of its repetitions, in geometric mean and at most (METHOD: time the same version twice;
    a difference smaller than that spread is noise);
  - for every requested kernel and layout, baseline time / candidate time in geometric mean,
    lowest and highest (above 1: the candidate is faster), each side's time being the median
    over its repetitions;
  - the products on which `auto` chose another kernel, with that ratio;
  - `auto` against cuBLAS on each side (cuBLAS time / auto time, geometric mean);
  - every row that did not run or FAILed its check (rows not checked are counted, and timed).

Exits with status 1 when a row did not run or FAILed, 2 when the folder holds no runs of one side.
Standard library only: it runs on the GPU machines as they come.
"""

import argparse
import csv
import math
import pathlib
import statistics
import sys
from collections import defaultdict

SIDES = ("baseline", "candidate")
SHAPE_FIELDS = ("dtype", "m", "n", "k", "batch", "trans")
# A timed row's check: PASS, REF (cuBLAS where it is the reference), "-" (not checked: --verify
# none, or past the sizes --verify auto checks) or FAIL.
NOT_CHECKED = "-"


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def shape_label(shape):
    dtype, m, n, k, batch, trans = shape
    return f"{dtype} {m}x{n}x{k} {trans}" + (f" x{batch}" if batch != "1" else "")


class Side:
    """One build's rows: the times of every (shape, requested kernel) over the repetitions."""

    def __init__(self):
        self.times = defaultdict(list)  # (shape, requested) -> [ms, ...]
        self.chosen = defaultdict(set)  # (shape, "auto") -> kernels auto ran
        self.devices = set()
        self.files = 0
        self.bad_rows = []  # (file, shape, kernel, status, check, detail)
        self.not_checked = 0

    def read(self, path):
        self.files += 1
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                shape = tuple(row[field] for field in SHAPE_FIELDS)
                self.devices.add(row.get("device_name", "?"))
                if row["status"] != "ok" or row["check"] == "FAIL":
                    self.bad_rows.append(
                        (path.name, shape, row["kernel"], row["status"], row["check"], row["status_detail"]))
                    continue
                self.not_checked += row["check"] == NOT_CHECKED
                key = (shape, row["requested"])
                self.times[key].append(float(row["time_ms"]))
                if row["requested"] == "auto":
                    self.chosen[key].add(row["kernel"])

    def median(self, key):
        return statistics.median(self.times[key])

    def spreads(self):
        return [max(t) / min(t) for t in self.times.values() if len(t) > 1]


def read_sides(folder):
    sides = {name: Side() for name in SIDES}
    for name, side in sides.items():
        for path in sorted(pathlib.Path(folder).glob(f"{name}_*.csv")):
            side.read(path)
    return sides


def ratio_table(base, cand):
    """{(requested, trans): [baseline / candidate time, ...]} over the keys both sides timed."""
    table = defaultdict(list)
    for key in sorted(base.times.keys() & cand.times.keys()):
        shape, requested = key
        table[(requested, shape[5])].append(base.median(key) / cand.median(key))
    return table


def changed_choices(base, cand):
    """[(shape, baseline kernel, candidate kernel, baseline / candidate time)] where auto moved."""
    moved = []
    for key in sorted(base.chosen.keys() & cand.chosen.keys()):
        if base.chosen[key] != cand.chosen[key]:
            moved.append((key[0], "/".join(sorted(base.chosen[key])), "/".join(sorted(cand.chosen[key])),
                          base.median(key) / cand.median(key)))
    return moved


def auto_against_cublas(side):
    return [side.median((shape, "cublas")) / side.median((shape, "auto"))
            for shape, requested in side.times if requested == "auto" and (shape, "cublas") in side.times]


def report(sides, out, most_listed):
    base, cand = sides["baseline"], sides["candidate"]
    for name, side in sides.items():
        spreads = side.spreads()
        noise = f"repetition spread {geomean(spreads):.3f} (most {max(spreads):.3f})" if spreads else "one repetition"
        unchecked = f"; {side.not_checked} rows not checked" if side.not_checked else ""
        out.write(f"{name}: {side.files} runs on {', '.join(sorted(side.devices)) or '?'}; {noise}{unchecked}\n")

    moved = changed_choices(base, cand)
    if moved:
        out.write(f"\nauto chose another kernel on {len(moved)} products (baseline / candidate time):\n")
        for shape, was, now, ratio in moved[:most_listed]:
            out.write(f"  {shape_label(shape):28s} {was} -> {now}  {ratio:.3f}\n")
        if len(moved) > most_listed:
            out.write(f"  ... and {len(moved) - most_listed} more\n")
        out.write(f"  all moved: {geomean([m[3] for m in moved]):.3f} (lowest {min(m[3] for m in moved):.3f})\n")

    for name, side in sides.items():
        ratios = auto_against_cublas(side)
        if ratios:
            out.write(f"{name}: cuBLAS time / auto time {geomean(ratios):.3f} over {len(ratios)} products\n")

    bad = [(name,) + row for name, side in sides.items() for row in side.bad_rows]
    for name, file, shape, kernel, status, check, detail in bad[:most_listed]:
        out.write(f"FAILED OR NOT RUN ({name}, {file}): {shape_label(shape)} {kernel} "
                  f"status {status} check {check} {detail}\n")
    if len(bad) > most_listed:
        out.write(f"FAILED OR NOT RUN: ... and {len(bad) - most_listed} more rows\n")

    out.write("\nbaseline time / candidate time (above 1: the candidate is faster), median of repetitions\n")
    out.write(f"{'kernel':64s} {'op':2s} {'shapes':>6s} {'geomean':>8s} {'lowest':>7s} {'highest':>7s}\n")
    for (requested, trans), ratios in sorted(ratio_table(base, cand).items()):
        out.write(f"{requested:64s} {trans:2s} {len(ratios):6d} {geomean(ratios):8.3f} "
                  f"{min(ratios):7.3f} {max(ratios):7.3f}\n")
    out.write(f"rows failed or not run: {len(bad)}\n")
    return 1 if bad else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="the folder scripts/bench-ab wrote (baseline_*.csv, candidate_*.csv)")
    parser.add_argument("--most-listed", type=int, default=40, help="longest list of moved choices or bad rows")
    args = parser.parse_args(argv)
    sides = read_sides(args.folder)
    missing = [name for name, side in sides.items() if side.files == 0]
    if missing:
        sys.stderr.write(f"compare_bench_runs: no {' or '.join(missing)}_*.csv in {args.folder}\n")
        return 2
    return report(sides, sys.stdout, args.most_listed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
