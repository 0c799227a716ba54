"""Reading, plotting, reporting and comparing rocetb results folders.

One place for the figures: folder.py reads a results folder (summary.json, effective.json,
run.json, flows.csv, queues.csv, warnings.txt) into plain values; series.py turns them into
the series every plot draws; figures.py draws them with matplotlib; report.py writes
report.html; compare.py puts several folders side by side. scripts/plot.py and
scripts/compare.py are the commands (`rocetb run` and `rocetb compare` call them).
"""
