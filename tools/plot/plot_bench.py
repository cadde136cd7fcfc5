"""Draws two pictures from a tilemm-bench JSON file (schema "tilemm-bench/1"):

  <prefix>roofline.png  the device roofline, from the copy bandwidth and the peak measured
                        or computed in the same run (log-log), with every kernel as a
                        point at its design arithmetic intensity and achieved TFLOP/s, and
                        cuBLAS as a horizontal line (it has no single design intensity);
  <prefix>ladder.png    the ladder: one bar of TFLOP/s per kernel in run order, with the
                        cuBLAS rate as a horizontal line.

Run it through tools/plot/plot, which installs matplotlib first.
"""

import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display on build or GPU machines
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

SCHEMA = "tilemm-bench/1"


def shape_label(row):
    """The bench's own shape label: "4096x4096x4096 NN", " x64" for a batch of 64."""
    label = f'{row["m"]}x{row["n"]}x{row["k"]} {row["trans"]}'
    if row["batch"] != 1:
        label += f' x{row["batch"]}'
    return label


def load(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    if report.get("schema") != SCHEMA:
        sys.exit(f"{path}: schema is {report.get('schema')!r}, this script reads {SCHEMA!r}")
    return report


def rows_of_shape(report, wanted):
    """The rows of one shape: `wanted`, or the first shape of the run."""
    rows = report["results"]
    if not rows:
        sys.exit("the report has no results")
    labels = list(dict.fromkeys(shape_label(r) for r in rows))
    label = wanted or labels[0]
    if label not in labels:
        sys.exit(f"no shape {label!r} in the report; it has: {', '.join(labels)}")
    return label, [r for r in rows if shape_label(r) == label]


def ran(row):
    return row["status"] == "ok" and row["tflops"] is not None


def cublas_rate(rows):
    return next((r["tflops"] for r in rows if r["is_cublas"] and ran(r)), None)


def subtitle(report, label):
    device = report["device"]
    return (f'{device["name"]}\n{label}, {report["settings"]["dtype"]}, '
            f'{report["date_utc"][:10]}')


def draw_roofline(report, label, rows, path):
    device = report["device"]
    bandwidth_tb_s = device["copy_bandwidth_gb_per_s"] / 1000.0
    peak = device["peak_tflops"]
    points = [r for r in rows if ran(r) and not r["is_cublas"] and r["arithmetic_intensity"]]
    intensities = [r["arithmetic_intensity"] for r in points] or [1.0]
    ridge = peak / bandwidth_tb_s if peak and bandwidth_tb_s > 0 else max(intensities)
    x_low = min(min(intensities), ridge) / 4.0
    x_high = max(max(intensities), ridge) * 4.0

    fig, ax = plt.subplots(figsize=(9, 6))
    xs = [x_low * (x_high / x_low) ** (i / 200.0) for i in range(201)]
    memory_roof = [bandwidth_tb_s * x for x in xs]
    roof = [min(m, peak) for m in memory_roof] if peak else memory_roof
    ax.plot(xs, roof, color="black", linewidth=2,
            label=f"roofline: {device['copy_bandwidth_gb_per_s']:.0f} GB/s copy bandwidth"
                  + (f", {peak:.1f} TFLOP/s peak" if peak else " (peak unknown)"))
    if peak:
        ax.axvline(ridge, color="gray", linestyle=":", linewidth=1)
        ax.annotate(f"ridge {ridge:.1f} FLOP/B", (ridge, peak / 3.0),
                    textcoords="offset points", xytext=(5, 5), fontsize=8, color="gray")
    cublas = cublas_rate(rows)
    if cublas:
        ax.axhline(cublas, color="tab:red", linestyle="--", linewidth=1.5,
                   label=f"cuBLAS {cublas:.2f} TFLOP/s")
    for r in points:
        ax.scatter(r["arithmetic_intensity"], r["tflops"], s=40, zorder=3,
                   color="tab:blue" if r["check"] != "FAIL" else "tab:red")
        ax.annotate(r["kernel"], (r["arithmetic_intensity"], r["tflops"]), textcoords="offset points",
                    xytext=(6, 4), fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("design arithmetic intensity (FLOP per byte of global loads)")
    ax.set_ylabel("achieved TFLOP/s")
    ax.set_title("tilemm roofline\n" + subtitle(report, label), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    # The design intensity counts every global load, also those that hit in L1 or L2,
    # so a kernel can sit above the DRAM roof: its caches supply the difference.
    fig.text(0.01, 0.01, "x: FLOP per byte of the kernel's global loads (L1/L2 hits included), so "
             "points may lie above the DRAM roof", fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def draw_ladder(report, label, rows, path):
    # Kernels that do not compute this dtype are not steps of this ladder: left out
    # (a run that failed stays, marked "error").
    kernels = [r for r in rows if not r["is_cublas"] and r["status"] != "not_supported"]
    names = [r["kernel"] or r["requested"] for r in kernels]
    rates = [r["tflops"] if ran(r) else 0.0 for r in kernels]
    colors = ["tab:red" if r["check"] == "FAIL" else "tab:blue" for r in kernels]

    fig, ax = plt.subplots(figsize=(max(8.0, 0.9 * len(kernels) + 3.0), 6))
    bars = ax.bar(range(len(kernels)), rates, color=colors)
    cublas = cublas_rate(rows)
    for bar, r in zip(bars, kernels):
        if ran(r):
            text = f'{r["tflops"]:.2f}'
            if r["percent_of_cublas"] is not None:
                text += f'\n{r["percent_of_cublas"]:.0f}%'
        else:
            text = "n/s" if r["status"] == "not_supported" else "error"
        ax.annotate(text, (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                    va="bottom", fontsize=8, textcoords="offset points", xytext=(0, 2))
    if cublas:
        ax.axhline(cublas, color="tab:red", linestyle="--", linewidth=1.5,
                   label=f"cuBLAS {cublas:.2f} TFLOP/s")
        ax.legend(loc="upper left", fontsize=8)
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("TFLOP/s")
    ax.set_title("tilemm kernel ladder\n" + subtitle(report, label), fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="a file written by tilemm-bench --json")
    parser.add_argument("--out-dir", help="where the PNGs go (default: beside the JSON)")
    parser.add_argument("--prefix", help="file name prefix (default: the JSON's name and '_')")
    parser.add_argument("--shape", help='which shape to draw, e.g. "4096x4096x4096 NN" '
                                        "(default: the first of the run)")
    args = parser.parse_args()

    source = pathlib.Path(args.json)
    report = load(source)
    label, rows = rows_of_shape(report, args.shape)
    out_dir = pathlib.Path(args.out_dir) if args.out_dir else source.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = args.prefix if args.prefix is not None else source.stem + "_"
    roofline = out_dir / f"{prefix}roofline.png"
    ladder = out_dir / f"{prefix}ladder.png"
    draw_roofline(report, label, rows, roofline)
    draw_ladder(report, label, rows, ladder)
    print(f"wrote {roofline}")
    print(f"wrote {ladder}")


if __name__ == "__main__":
    main()
