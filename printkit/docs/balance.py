"""The balance report: results.json, and the same figures as an HTML page and a PDF with plots."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import runner
from engine.runner import BETWEEN, Record
from printkit.core import assets, atomic
from printkit.data.variant import spelled
from printkit.docs import templating


def _bars(values: list[tuple[str, float]], width: float = 520, height: float = 160) -> dict[str, Any]:
    """Bar positions for an SVG chart: one bar per value, scaled to the tallest."""
    top = max((v for _, v in values), default=0) or 1
    step = width / max(1, len(values))
    bars = [
        {"x": i * step + 2, "w": max(1.0, step - 4), "h": v / top * (height - 20), "label": label, "value": v}
        for i, (label, v) in enumerate(values)
    ]
    return {"width": width, "height": height, "bars": bars}


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _number(value: float | None, places: int = 1) -> str:
    return "-" if value is None else f"{value:.{places}f}"


# the metrics table's rows: a label, and how each run's figure is written
METRIC_ROWS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("Games", lambda m: str(m["games"])),
    ("Completed by the rules", lambda m: _percent(m["completion"])),
    ("Draws", lambda m: _percent(m["drawishness"])),
    ("Ended by the cap", lambda m: _percent(m["timeouts"])),
    ("Ended by stalemate", lambda m: _percent(m["stalemates"])),
    ("Moves a game (mean, sd)", lambda m: f"{m['duration']['moves']['mean']:.0f} ({m['duration']['moves']['sd']:.0f})"),
    ("Actions a game, chance too", lambda m: f"{m['duration']['actions']['mean']:.0f}"),
    ("Decision moves", lambda m: _percent(m["decision_moves"])),
    ("Branching (mean, sd)", lambda m: f"{m['branching']['mean']:.1f} ({m['branching']['sd']:.1f})"),
    ("First-player advantage", lambda m: _percent(m["advantage_first"])),
    ("Balance", lambda m: _percent(m["balance"])),
    ("Lead changes a game", lambda m: _number(m["lead_changes"])),
    ("Winner trailing", lambda m: _percent(m["trailing"])),
    ("Drama", lambda m: _number(m["drama"], 2)),
    ("Decided at", lambda m: _percent(m["decisiveness"])),
)


def metrics_table(summary: dict[str, Any]) -> dict[str, Any]:
    """The metrics as rows, a column for all games and one for each pairing of agents when there are several."""
    runs = [("All games", summary["metrics"])]
    if len(summary["pairings"]) > 1:
        runs += list(summary["pairings"].items())
    return {
        "columns": [name for name, _ in runs],
        "rows": [(label, [write(m) for _, m in runs]) for label, write in METRIC_ROWS],
    }


def _whiskers(cards: list[dict[str, Any]], width: float = 520, row: float = 14) -> dict[str, Any]:
    """A dot and a 95% interval per card on one scale, zero marked: the card value plot."""
    edge = max([0.05, *(abs(v) for c in cards for v in c["ci95"])])
    label = 150.0  # room on the left for the names

    def x(value: float) -> float:
        return label + (value + edge) / (2 * edge) * (width - label - 10)

    rows = [
        {"y": 14 + i * row, "name": c["name"], "x": x(c["value"]), "low": x(c["ci95"][0]), "high": x(c["ci95"][1])}
        for i, c in enumerate(cards)
    ]
    return {"width": width, "height": 20 + len(cards) * row, "zero": x(0.0), "rows": rows, "edge": edge}


def render_html(title: str, summary: dict[str, Any], settings: dict[str, Any]) -> str:
    lengths = [(f"{b['from']}-{b['to']}", float(b["games"])) for b in summary["length"]["histogram"]]
    cards = [c for c in summary["cards"] if c["win_rate_when_played"] is not None]
    choices = [
        (f"{b['from']}-{b['to']}", float(b["decisions"])) for b in summary["metrics"]["branching"]["distribution"]
    ]
    charts = {
        "lengths": _bars(lengths),
        "branching": _bars(choices),
        "card_values": _whiskers(summary["card_values"]["cards"]) if "card_values" in summary else None,
        "card_wins": _bars([(c["name"], c["win_rate_when_played"]) for c in cards], width=max(520, 14 * len(cards))),
        # each study's aim, charted against its values
        "studies": [sweep_charts(study["sweep"], study["aim"]["figure"])[0] for study in summary.get("studies", [])],
    }
    from engine import cardvalue

    return templating.render(
        "balance.html.j2",
        title=title,
        s=summary,
        settings=settings,
        charts=charts,
        metrics=metrics_table(summary),
        dominant=cardvalue.DOMINANT,
        dead=cardvalue.DEAD,
        colours=COLOURS,
        spelled=spelled,
    )


def render_pdf(html: str) -> bytes:
    """The report as a PDF; its charts are inline SVG, so it reads no file at all."""
    return templating.pdf(html, assets.folder("templates"))


def write(
    folder: Path,
    title: str,
    summary: dict[str, Any],
    settings: dict[str, Any],
    records: list[Record],
    pdf: bool = True,
    encoded: Iterable[str] | None = None,
) -> list[Path]:
    """results.json (figures, settings and every game's record), report.html and report.pdf; encoded, when given,
    the records' JSON already made (see write_results)."""
    html = render_html(title, summary, settings)
    written = [folder / "results.json", folder / "report.html"]
    write_results(written[0], settings, summary, records, encoded)
    atomic.write_text(written[1], html)
    if pdf:
        written.append(folder / "report.pdf")
        atomic.write_bytes(written[2], render_pdf(html))
    return written


def write_results(
    path: Path,
    settings: dict[str, Any],
    summary: dict[str, Any],
    records: list[Record],
    encoded: Iterable[str] | None = None,
) -> None:
    """results.json: the settings and figures indented to be read, then every game's record, one a line, compact.

    Written a record at a time, each by the json module's C encoder (indent would take its pure-Python one, which
    cost a seventh of a long run), so the file never stands whole in memory as one string. encoded: the records'
    JSON as simulate stored them, in blocks of one or more joined by BETWEEN (simulate.stored_games), copied in
    rather than each record encoded a second time."""
    head = json.dumps({"settings": settings, "summary": summary}, indent=1)
    blocks = map(runner.encoded, records) if encoded is None else encoded
    with atomic.replacing(path, "w") as out:
        out.write(head[: head.rindex("}")].rstrip() + ',\n "games": [')
        for i, block in enumerate(blocks):
            out.write(("\n  " if i == 0 else BETWEEN) + block)
        out.write("\n ]\n}\n")


def write_summary(folder: Path, rows: list[dict[str, Any]], missing: list[str], settings: dict[str, Any]) -> list[Path]:
    """One page across all games: who wins, how games end, and each game's findings."""
    html = templating.render("balance_summary.html.j2", rows=rows, missing=missing, settings=settings)
    written = [folder / "balance-summary.html", folder / "balance-summary.pdf"]
    atomic.write_text(written[0], html)
    atomic.write_bytes(written[1], render_pdf(html))
    return written


# what a sweep plots against the varied values: the metric's key (as a study's aim names it), a title, the
# figure at a point, and whether it is a share (0-1)
SWEPT: tuple[tuple[str, str, Callable[[dict[str, Any]], float | None], bool], ...] = (
    ("completion", "Completed by the rules", lambda p: p["metrics"]["completion"], True),
    ("timeouts", "Ended by the cap", lambda p: p["metrics"]["timeouts"], True),
    ("stalemates", "Ended by stalemate", lambda p: p["metrics"]["stalemates"], True),
    ("drawishness", "Draws", lambda p: p["metrics"]["drawishness"], True),
    ("seat_1", "Seat 1 wins", lambda p: p["seats"][0]["rate"], True),
    ("balance", "Balance", lambda p: p["metrics"]["balance"], True),
    ("advantage_first", "First-player advantage", lambda p: p["metrics"]["advantage_first"], True),
    ("moves", "Moves a game", lambda p: p["metrics"]["duration"]["moves"]["mean"], False),
    ("branching", "Branching", lambda p: p["metrics"]["branching"]["mean"], False),
    ("lead_changes", "Lead changes a game", lambda p: p["metrics"]["lead_changes"], False),
    ("decisiveness", "Decided at", lambda p: p["metrics"]["decisiveness"], True),
    ("card_spread", "Card spread (sd of win rates when played)", lambda p: p["card_spread"], False),
)


def _lines(
    labels: list[str],
    series: list[tuple[str, list[float | None]]],
    share: bool,
    width: float = 520,
    height: float = 140,
) -> dict[str, Any]:
    """Polylines for an SVG chart: one per series over the x labels; shares on 0-100%, other figures on 0-max."""
    top = 1.0 if share else max([v for _, values in series for v in values if v is not None] or [0]) or 1.0
    left, bottom = 40.0, 18.0

    def x(i: int) -> float:
        return left + (i + 0.5) * (width - left) / max(1, len(labels))

    def y(v: float) -> float:
        return 6 + (height - bottom - 6) * (1 - v / top)

    lines = []
    for name, values in series:
        dots = [(x(i), y(v)) for i, v in enumerate(values) if v is not None]
        lines.append({"name": name, "points": " ".join(f"{a:.1f},{b:.1f}" for a, b in dots), "dots": dots})
    ticks = [{"y": y(t * top), "label": f"{100 * t * top:.0f}%" if share else f"{t * top:.3g}"} for t in (0, 0.5, 1)]
    marks = [{"x": x(i), "label": label} for i, label in enumerate(labels)]
    return {"width": width, "height": height, "lines": lines, "ticks": ticks, "marks": marks, "base": height - bottom}


def sweep_charts(figures: dict[str, Any], only: str | None = None) -> list[dict[str, Any]]:
    """One chart per swept figure (or the one named): over the first varied path's values, a line for each
    setting of the others."""
    first, *others = figures["varied"]
    labels = [spelled(v) for v in first["values"]]
    groups: dict[str, list[dict[str, Any]]] = {}
    for point in figures["points"]:
        key = ", ".join(f"{o['path']}={spelled(point['values'][o['path']])}" for o in others) or first["path"]
        groups.setdefault(key, []).append(point)
    charts = []
    for key, title, figure, share in SWEPT:
        if only is not None and key != only:
            continue
        series = [(name, [figure(p) for p in points]) for name, points in groups.items()]
        charts.append({"title": title} | _lines(labels, series, share))
    return charts


PLOT_WIDTH = 30  # characters of a point's bar in the terminal's sweep table


def sweep_table(figures: dict[str, Any]) -> list[str]:
    """A sweep in plain text, a line a point: the values, how its games ended, seat 1's wins and length, and a
    bar of games completed by the rules (#) against games a cap or a stalemate stopped (.)."""
    paths = [v["path"] for v in figures["varied"]]
    heads = [*(p.split(".")[-1].replace("_", " ") for p in paths), "completed", "cap", "stalemate", "seat 1", "moves"]
    rows = []
    for point in figures["points"]:
        m = point["metrics"]
        shares = (m["completion"], m["timeouts"], m["stalemates"], point["seats"][0]["rate"])
        cells = [spelled(point["values"][p]) for p in paths] + [f"{100 * v:.0f}%" for v in shares]
        filled = round(PLOT_WIDTH * m["completion"])
        rows.append([*cells, f"{m['duration']['moves']['mean']:.0f}", "#" * filled + "." * (PLOT_WIDTH - filled)])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)) + "  completed (#) / stopped (.)"]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1] for r in rows]
    return lines


def write_sweep(
    folder: Path, title: str, figures: dict[str, Any], settings: dict[str, Any], pdf: bool = True
) -> list[Path]:
    """A sweep's results.json, report.html and report.pdf: every figure at every point, and a chart of each."""
    html = templating.render(
        "sweep.html.j2",
        title=title,
        f=figures,
        settings=settings,
        charts=sweep_charts(figures),
        colours=COLOURS,
        spelled=spelled,
    )
    written = [folder / "results.json", folder / "report.html"]
    atomic.write_text(written[0], json.dumps({"settings": settings, "sweep": figures}, indent=1) + "\n")
    atomic.write_text(written[1], html)
    if pdf:
        written.append(folder / "report.pdf")
        atomic.write_bytes(written[2], render_pdf(html))
    return written


COLOURS = ("#2e6f8e", "#8e5a2e", "#4f8e2e", "#8e2e6a", "#555555", "#c49a1a")  # one per line of a chart


def write_tune(
    folder: Path, title: str, found: dict[str, Any], settings: dict[str, Any], patch: str, pdf: bool = True
) -> list[Path]:
    """A tune's results.json, the best values as patch.yaml, and a report of every trial."""
    html = templating.render("tune.html.j2", title=title, t=found, settings=settings, spelled=spelled, patch=patch)
    written = [folder / "results.json", folder / "patch.yaml", folder / "report.html"]
    atomic.write_text(written[0], json.dumps({"settings": settings, "tune": found}, indent=1) + "\n")
    atomic.write_text(written[1], patch)
    atomic.write_text(written[2], html)
    if pdf:
        written.append(folder / "report.pdf")
        atomic.write_bytes(written[3], render_pdf(html))
    return written
