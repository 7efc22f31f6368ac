"""Designer reports: metrics of many played games (docs/metrics.md) and their HTML page.

`report_data` plays the games and returns the metrics as a plain dict; `page` renders
them (with matplotlib's SVG charts) as one self-contained HTML file.
"""
