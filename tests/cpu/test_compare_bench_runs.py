"""CPU test of scripts/bench-ab and tools/compare/compare_bench_runs.py.

The comparison is checked on hand-made CSV rows with known times; scripts/bench-ab is run end to
end with two stand-in "benches" (small shell scripts that write such rows), so its repetition order,
its files and its exit status are checked without a GPU.
"""

import csv
import io
import os
import pathlib
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "compare"))
import compare_bench_runs as cbr  # noqa: E402  (found through the path above)

FIELDS = ["date_utc", "device_name", "dtype", "m", "n", "k", "batch", "trans", "requested", "kernel", "status",
          "status_detail", "time_ms", "check"]


def row(requested, kernel, time_ms, m=160, trans="TN", check="PASS", status="ok"):
    return {"date_utc": "2026-12-07T00:00:00Z", "device_name": "Stand-in GPU", "dtype": "bf16", "m": str(m),
            "n": "8192", "k": "4096", "batch": "1", "trans": trans, "requested": requested, "kernel": kernel,
            "status": status, "status_detail": "", "time_ms": str(time_ms), "check": check}


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)


class CompareBenchRuns(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.folder = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def write_runs(self, candidate_check="PASS"):
        # Baseline: auto runs tile.a in 0.040 and 0.044 ms (median 0.042); candidate: tile.b in
        # 0.030 both times. cuBLAS 0.0315 on both sides. Named tile.a: 0.050 / 0.040 on both sides.
        write_csv(self.folder / "baseline_1.csv",
                  [row("auto", "tile.a", 0.040), row("cublas", "cublas", 0.0315, check="REF"),
                   row("tile.a", "tile.a", 0.050)])
        write_csv(self.folder / "baseline_2.csv",
                  [row("auto", "tile.a", 0.044), row("cublas", "cublas", 0.0315, check="REF"),
                   row("tile.a", "tile.a", 0.050)])
        for rep in (1, 2):
            write_csv(self.folder / f"candidate_{rep}.csv",
                      [row("auto", "tile.b", 0.030, check=candidate_check if rep == 2 else "PASS"),
                       row("cublas", "cublas", 0.0315, check="REF"), row("tile.a", "tile.a", 0.040)])

    def test_ratios_are_baseline_median_over_candidate_median(self):
        self.write_runs()
        sides = cbr.read_sides(self.folder)
        table = cbr.ratio_table(sides["baseline"], sides["candidate"])
        self.assertAlmostEqual(table[("auto", "TN")][0], 0.042 / 0.030)
        self.assertAlmostEqual(table[("tile.a", "TN")][0], 0.050 / 0.040)
        self.assertAlmostEqual(table[("cublas", "TN")][0], 1.0)

    def test_moved_choices_and_cublas_ratio(self):
        self.write_runs()
        sides = cbr.read_sides(self.folder)
        moved = cbr.changed_choices(sides["baseline"], sides["candidate"])
        self.assertEqual(len(moved), 1)
        self.assertEqual(moved[0][1:3], ("tile.a", "tile.b"))
        self.assertAlmostEqual(cbr.auto_against_cublas(sides["candidate"])[0], 0.0315 / 0.030)
        self.assertAlmostEqual(max(sides["baseline"].spreads()), 0.044 / 0.040)

    def test_report_exit_status_follows_the_checks(self):
        self.write_runs()
        out = io.StringIO()
        self.assertEqual(cbr.report(cbr.read_sides(self.folder), out, 40), 0)
        self.assertIn("rows failed or not run: 0", out.getvalue())
        self.assertIn("tile.a -> tile.b", out.getvalue())
        self.write_runs(candidate_check="FAIL")
        out = io.StringIO()
        self.assertEqual(cbr.report(cbr.read_sides(self.folder), out, 40), 1)
        self.assertIn("FAILED OR NOT RUN (candidate, candidate_2.csv)", out.getvalue())
        self.assertIn("rows failed or not run: 1", out.getvalue())

    def test_rows_not_checked_are_timed_not_failed(self):
        for side in ("baseline", "candidate"):
            write_csv(self.folder / f"{side}_1.csv", [row("auto", "tile.a", 0.040, check="-")])
        out = io.StringIO()
        self.assertEqual(cbr.report(cbr.read_sides(self.folder), out, 40), 0)
        self.assertIn("1 rows not checked", out.getvalue())
        write_csv(self.folder / "candidate_1.csv", [row("auto", "tile.a", 0.040, status="failed", check="-")])
        self.assertEqual(cbr.report(cbr.read_sides(self.folder), io.StringIO(), 40), 1)

    def test_a_missing_side_is_an_error(self):
        write_csv(self.folder / "baseline_1.csv", [row("auto", "tile.a", 0.040)])
        self.assertEqual(cbr.main([str(self.folder)]), 2)


class BenchAbScript(unittest.TestCase):
    """scripts/bench-ab with stand-in benches that append their name to a shared order file."""

    def stand_in(self, folder, name, time_ms, check):
        script = folder / name
        script.write_text(textwrap.dedent(f"""\
            #!/usr/bin/env bash
            echo {name} >> "{folder}/order"
            while [[ $# -gt 0 ]]; do
              if [[ "$1" == --csv ]]; then
                printf '%s\\n' '{",".join(FIELDS)}' \\
                  'now,Stand-in GPU,bf16,160,8192,4096,1,NN,auto,tile,ok,,{time_ms},{check}' > "$2"
              fi
              shift
            done
            """))
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        return script

    def run_ab(self, check):
        with tempfile.TemporaryDirectory() as d:
            folder = pathlib.Path(d)
            base = self.stand_in(folder, "base", 0.05, "PASS")
            cand = self.stand_in(folder, "cand", 0.04, check)
            env = dict(os.environ)
            env.pop("OUT", None)
            done = subprocess.run(["bash", str(ROOT / "scripts" / "bench-ab"), "--reps", "3", "--out",
                                   str(folder / "runs"), str(base), str(cand), "--", "--size", "64"],
                                  capture_output=True, text=True, env=env)
            order = (folder / "order").read_text().split()
            files = sorted(p.name for p in (folder / "runs").glob("*.csv"))
            return done, order, files

    def test_alternating_order_files_and_summary(self):
        done, order, files = self.run_ab("PASS")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(order, ["base", "cand", "cand", "base", "base", "cand"])
        self.assertEqual(files, [f"{side}_{rep}.csv" for side in ("baseline", "candidate") for rep in (1, 2, 3)])
        self.assertIn("1.250", done.stdout)  # 0.05 / 0.04

    def test_a_failed_check_fails_the_script(self):
        done, _, _ = self.run_ab("FAIL")
        self.assertEqual(done.returncode, 1)

    def test_bench_arguments_may_not_name_csv(self):
        done = subprocess.run(["bash", str(ROOT / "scripts" / "bench-ab"), "/bin/true", "/bin/true", "--",
                               "--csv", "x.csv"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--csv", done.stderr)


if __name__ == "__main__":
    unittest.main()
