"""Draw the NashConv curve of a ``mattis solve --json`` run, with each level's NashConv as a
line across it (needs matplotlib, the lab extra).

    python benchmarks/mini/plot.py benchmarks/mini/solve_cap6.json benchmarks/mini/nash_conv_cap6.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(source: Path, target: Path) -> None:
    report = json.loads(source.read_text(encoding="utf-8"))
    iterations = [point["iteration"] for point in report["nash_conv"]]
    values = [point["nash_conv"] for point in report["nash_conv"]]
    figure, axes = plt.subplots(figsize=(7, 4.2))
    axes.plot(iterations, values, marker="o", color="black", label="CFR+ average policy")
    for number, level in enumerate(report["levels"]):
        axes.axhline(level["nash_conv"], linestyle="--", linewidth=1.2, color=f"C{number}",
                     label=f"{level['level']}: {level['nash_conv']:.3f}")
    axes.set_xlabel("CFR+ iteration")
    axes.set_ylabel("NashConv")
    axes.set_title(f"Mini Mattis, cap {report['max_actions']} actions, "
                   f"{report['info_states']} information states")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(target, dpi=110)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
