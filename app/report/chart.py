"""The threat over the turns as bars: one group per turn, one bar per series (2038: Danger,
against its limit drawn as a dashed line). `layout` places them in any box, so the page's inline
SVG and the PNG card draw the same chart. The SVG carries no script and no style attribute
(the Content-Security-Policy), only classes app.css colours, and a title and description for
screen readers; the page puts the same figures in a table beside it."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import escape

from app.report.build import Report
from app.report.words import number


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    series: int
    value: float


@dataclass(frozen=True)
class Chart:
    bars: list[Bar]
    ticks: list[tuple[float, str]]  # (x of the group's middle, "T3")
    limit_y: float | None
    top: float
    base: float
    high: float


def layout(report: Report, width: float, height: float, pad: float = 8, label: float = 22,
           widest: float = 72) -> Chart:
    series = report.series
    values = [t.threat.get(s, 0.0) for t in report.turns for s in series]
    high = max([*values, report.limit or 0.0, 1.0])
    top, base = pad + label, height - label - pad
    n = max(len(report.turns), 1)
    pitch = (width - 2 * pad) / n
    gap = min(pitch * 0.25, 16)
    each = min((pitch - gap) / max(len(series), 1), widest)  # a bar never wider than `widest`
    group = each * max(len(series), 1)
    bars, ticks = [], []
    for i, turn in enumerate(report.turns):
        left = pad + i * pitch + (pitch - group) / 2
        for j, name in enumerate(series):
            value = turn.threat.get(name, 0.0)
            h = (base - top) * value / high
            bars.append(Bar(left + j * each, base - h, max(each - 1, 1), h, j, value))
        ticks.append((left + group / 2, f"{report.word[0]}{turn.number}"))
    limit_y = None if report.limit is None else base - (base - top) * report.limit / high
    return Chart(bars, ticks, limit_y, top, base, high)


def description(report: Report) -> str:
    """The chart in words (its text alternative)."""
    def one(turn) -> str:
        return ", ".join(f"{k} {number(v)}" for k, v in turn.threat.items())

    said = "; ".join(f"{report.word} {t.number}: {one(t)}" for t in report.turns)
    limit = f" The limit is {number(report.limit)}." if report.limit is not None else ""
    return f"{report.pieces.threat_name} per {report.word.lower()}. {said}.{limit}"


def natural_width(report: Report) -> int:
    """Wide enough for its turns at 1:1 (labels 14 px, readable on a phone): a few turns make a
    narrow chart that fits a phone; many scroll sideways on one, inside their own box."""
    return min(900, max(320, 24 + len(report.turns) * (20 + 30 * max(len(report.series), 1))))


def svg(report: Report, height: int = 220) -> str:
    width = natural_width(report)
    chart = layout(report, width, height)
    title = f"{report.pieces.threat_name} over the {report.word.lower()}s"
    out = [f'<svg class="report-chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" '
           f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
           f'<title id="chart-title">{escape(title)}</title>',
           f'<desc id="chart-desc">{escape(description(report))}</desc>',
           f'<line class="axis" x1="8" y1="{chart.base:.1f}" x2="{width - 8}" y2="{chart.base:.1f}"></line>']
    if chart.limit_y is not None:
        y = f"{chart.limit_y:.1f}"
        out.append(f'<line class="limit" x1="8" y1="{y}" x2="{width - 8}" y2="{y}"></line>'
                   f'<text class="limit-label" x="{width - 10}" y="{chart.limit_y - 5:.1f}" '
                   f'text-anchor="end">limit {number(report.limit or 0)}</text>')
    for bar in chart.bars:
        out.append(f'<rect class="s{bar.series}" x="{bar.x:.1f}" y="{bar.y:.1f}" width="{bar.width:.1f}" '
                   f'height="{max(bar.height, 0.5):.1f}"></rect>')
        if bar.width >= 14:
            out.append(f'<text class="value" x="{bar.x + bar.width / 2:.1f}" y="{bar.y - 4:.1f}" '
                       f'text-anchor="middle">{number(bar.value)}</text>')
    step = max(1, len(chart.ticks) // 12)  # at most a dozen labels: every n-th turn
    for i, (x, text) in enumerate(chart.ticks):
        if i % step == 0 or i == len(chart.ticks) - 1:
            out.append(f'<text class="tick" x="{x:.1f}" y="{height - 10}" text-anchor="middle">{text}</text>')
    out.append("</svg>")
    return "".join(out)
