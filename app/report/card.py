"""The report's image card: a 1200×630 PNG of the summary (title, ruleset and turns, outcome,
the threat chart, who fell) for forum posts and link previews (Open Graph's usual size).

Drawn with Pillow and the DejaVu Sans bundled in fonts/ (its licence beside it): no network and
no system font at run time, and DejaVu covers the accents and scripts players' names carry.
The chart is chart.layout's, the one the page draws."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from app.report.build import Report
from app.report.chart import layout
from app.report.words import dates, number, side_one, turns_played

WIDTH, HEIGHT = 1200, 630
FONTS = Path(__file__).resolve().parent / "fonts"
INK, MUTED, PAPER, PANEL = "#e8ecf2", "#a9b3c1", "#181d25", "#222936"
SERIES = ("#f0a93b", "#5fb3f9", "#8fd694")  # the chart's bars, as app.css colours them
DOWN = "#ff7b7b"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """The text cut (with …) to fit `width` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def png(report: Report) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((60, 48), fit(draw, report.title, font(56, True), WIDTH - 120), font=font(56, True), fill=INK)
    line = " · ".join(x for x in (report.ruleset_name, dates(report), turns_played(report)) if x)
    draw.text((60, 124), fit(draw, line, font(26), WIDTH - 120), font=font(26), fill=MUTED)
    bold = font(32, True)
    draw.text((60, 170), fit(draw, report.outcome, bold, WIDTH - 120), font=bold, fill=INK)
    _chart(draw, report, (60, 240, 760, 580))
    _fell(draw, report, (800, 240, 1140, 580))
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _chart(draw: ImageDraw.ImageDraw, report: Report, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    draw.rounded_rectangle(box, 14, fill=PANEL)
    title = f"{report.pieces.threat_name} per {report.word.lower()}"
    draw.text((left + 20, top + 14), title, font=font(24, True), fill=INK)
    legend = left + 30 + draw.textlength(title, font=font(24, True))
    for i, name in enumerate(report.series if len(report.series) > 1 else []):
        draw.rectangle((legend, top + 22, legend + 14, top + 36), fill=SERIES[i % len(SERIES)])
        draw.text((legend + 20, top + 16), name, font=font(20), fill=MUTED)
        legend += 40 + draw.textlength(name, font=font(20))
    width, height = right - left - 40, bottom - top - 70
    chart = layout(report, width, height, pad=6, label=26)
    x0, y0 = left + 20, top + 56
    draw.line((x0, y0 + chart.base, x0 + width, y0 + chart.base), fill=MUTED, width=2)
    if chart.limit_y is not None:
        y = y0 + chart.limit_y
        for x in range(int(x0), int(x0 + width), 14):
            draw.line((x, y, min(x + 8, x0 + width), y), fill=DOWN, width=2)
        said = f"limit {number(report.limit or 0)}"
        draw.text((x0 + width, y - 6), said, font=font(18), fill=DOWN, anchor="rb")
    for bar in chart.bars:
        if bar.height > 0:
            draw.rectangle((x0 + bar.x, y0 + bar.y, x0 + bar.x + bar.width, y0 + bar.y + bar.height),
                           fill=SERIES[bar.series % len(SERIES)])
        if bar.width >= 22:
            draw.text((x0 + bar.x + bar.width / 2, y0 + bar.y - 4), number(bar.value), font=font(18),
                      fill=INK, anchor="mb")
    step = max(1, len(chart.ticks) // 10)
    for i, (x, text) in enumerate(chart.ticks):
        if i % step == 0 or i == len(chart.ticks) - 1:
            draw.text((x0 + x, y0 + chart.base + 8), text, font=font(18), fill=MUTED, anchor="mt")


def _fell(draw: ImageDraw.ImageDraw, report: Report, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    draw.rounded_rectangle(box, 14, fill=PANEL)
    draw.text((left + 20, top + 14), "Who fell", font=font(24, True), fill=INK)
    y, width = top + 56, right - left - 40
    if not report.fell:
        draw.text((left + 20, y), "No one.", font=font(22), fill=MUTED)
        return
    shown = report.fell[:6]
    for fell in shown:
        name = fit(draw, fell.name, font(22, True), width - 110)
        draw.text((left + 20, y), name, font=font(22, True), fill=DOWN)
        after = left + 28 + draw.textlength(name, font=font(22, True))
        draw.text((after, y + 4), side_one(report, fell.side), font=font(18), fill=MUTED)
        said = f"{report.word} {fell.turn}: {fell.cause}"
        draw.text((left + 20, y + 28), fit(draw, said, font(18), width), font=font(18), fill=MUTED)
        y += 50
    if len(report.fell) > len(shown):
        draw.text((left + 20, y), f"and {len(report.fell) - len(shown)} more", font=font(18), fill=MUTED)
