"""The battle report (docs/report.md): built from the step log (build.py), said as JSON and
sentences (words.py), Markdown (markdown.py), an inline SVG chart (chart.py) and a PNG card
(card.py). The web routes are app/web/routes/report.py."""
