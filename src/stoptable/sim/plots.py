"""Tournament plots, written as PNG with matplotlib (the Agg backend: no display needed).

* ``ratings.png``: each entry's openskill ``mu`` with ``±2 sigma`` error bars;
* ``seat_win_share.png``: per entry, the share of its games it won from each seat;
* ``scores.png``: per entry, the distribution of its game scores (box plot).
"""

from __future__ import annotations

from pathlib import Path

from stoptable.sim.tournament import TournamentResult


def write_plots(result: TournamentResult, out: Path) -> list[Path]:
    """Write the three plots of ``result`` into ``out``; their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    rules = result.ruleset or "default rules"
    title = f"{result.game} ({rules}) · {result.mode} · {len(result.games)} games"
    names = result.entries
    paths = []

    fig, ax = plt.subplots(figsize=(7, 0.6 * len(names) + 1.8))
    order = sorted(range(len(names)), key=lambda i: result.ratings[i].mu)
    mus = [result.ratings[i].mu for i in order]
    errs = [2 * result.ratings[i].sigma for i in order]
    ax.errorbar(mus, range(len(order)), xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(range(len(order)), [names[i] for i in order])
    ax.set_xlabel("openskill rating mu (bars: ±2 sigma)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    paths.append(out / "ratings.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    shares = result.win_share_by_seat()
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        xs = [seat + (i - (len(names) - 1) / 2) * width for seat in range(result.seats)]
        ax.bar(xs, shares[i], width=width, label=name)
    ax.axhline(1 / result.seats, color="grey", linestyle="--", linewidth=1, label="1 / seats")
    ax.set_xticks(range(result.seats), [f"seat {s}" for s in range(result.seats)])
    ax.set_ylabel("win share (ties split)")
    ax.set_title(title)
    ax.legend(fontsize="small")
    fig.tight_layout()
    paths.append(out / "seat_win_share.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.boxplot([result.scores_of(i) for i in range(len(names))], showmeans=True)
    ax.set_xticks(range(1, len(names) + 1), names)
    better = "lower is better" if result.lower_is_better else "higher is better"
    ax.set_ylabel(f"game score ({better})")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    paths.append(out / "scores.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)
    return paths
