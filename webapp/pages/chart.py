"""The cumulative-score chart: an inline SVG line chart drawn on the server (no JS library)."""

from __future__ import annotations

from markupsafe import Markup, escape

from .formatting import signed

#: Line colours of the chart, in seat order (told apart from each other and from the tile colours
#: by their markers as well: a colour-blind player can follow the shapes).
SERIES = [("#c62828", "circle"), ("#1565c0", "square"), ("#ef6c00", "diamond"),
          ("#212121", "triangle"), ("#2e7d32", "circle"), ("#6a1b9a", "square")]


def cumulative(players: list[str], rounds: list[dict]) -> dict[str, list[int]]:
    """Running totals per player: the value after 0, 1, 2, ... rounds (sums of the API's scores)."""
    series = {p: [0] for p in players}
    for rnd in rounds:
        for p in players:
            series[p].append(series[p][-1] + int(rnd["scores"].get(p, 0)))
    return series


def _marker(shape: str, x: float, y: float, colour: str, r: float = 3.2) -> str:
    if shape == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                f'fill="{colour}"/>')
    if shape == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y + r:.1f} {x - r - 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


def _nice_step(span: float) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 5:
            return step
    return 10000


def chart_svg(players: list[str], rounds: list[dict], *, width: int = 360, height: int = 210,
              standalone: bool = False) -> Markup:
    """The cumulative score of every player after each round, as an SVG line chart.

    Drawn on the server so the page needs no chart library; every name and number goes through
    ``escape``. ``standalone`` adds the XML namespace for serving it as an ``.svg`` file.
    """
    series = cumulative(players, rounds)
    n = len(rounds)
    values = [v for vs in series.values() for v in vs]
    lo, hi = min(values + [0]), max(values + [0])
    if hi - lo < 20:
        hi, lo = hi + 10, lo - 10
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    left, right, top, bottom = 40, 12, 10, 24
    pw, ph = width - left - right, height - top - bottom

    def sx(i: int) -> float:
        return left + (pw * i / n if n else pw / 2)

    def sy(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = [f'<svg{ns} class="chart" viewBox="0 0 {width} {height}" role="img" '
           f'aria-labelledby="chart-title" preserveAspectRatio="xMidYMid meet">',
           '<title id="chart-title">Cumulative scores after each round</title>',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#ddd"/>']
    v = lo
    while v <= hi:
        y = sy(v)
        stroke = '#888" stroke-dasharray="4 3' if v == 0 else "#e4e4e4"
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="{stroke}"/>')
        out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end" font-size="11" '
                   f'fill="#555">{escape(signed(int(v)))}</text>')
        v += step
    label_every = max(1, -(-n // 10))
    for i in range(0, n + 1, label_every):
        out.append(f'<text x="{sx(i):.1f}" y="{height - 7}" text-anchor="middle" font-size="11" '
                   f'fill="#555">{i}</text>')
    for idx, p in enumerate(players):
        colour, shape = SERIES[idx % len(SERIES)]
        pts = " ".join(f"{sx(i):.1f},{sy(val):.1f}" for i, val in enumerate(series[p]))
        out.append(f'<g class="series" data-player="{escape(p)}">'
                   f'<title>{escape(p)}: {escape(signed(series[p][-1]))}</title>')
        if n:
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.2" '
                       f'stroke-linejoin="round" stroke-linecap="round"/>')
        for i, val in enumerate(series[p]):
            if i or not n:
                out.append(_marker(shape, sx(i), sy(val), colour))
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def legend(players: list[str]) -> list[dict]:
    return [{"name": p, "colour": SERIES[i % len(SERIES)][0], "shape": SERIES[i % len(SERIES)][1]}
            for i, p in enumerate(players)]
