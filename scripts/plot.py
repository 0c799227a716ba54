#!/usr/bin/python3
"""Plots and report.html for a rocetb results folder.

    scripts/plot.py DIR [--no-report] [--json]

Writes DIR/plot-*.png (per-flow rate and CC state, queue depth with Kmin/Kmax/XOFF, PFC
pauses, CNP and mark rates, completion-time CDF by size) and DIR/report.html (self-contained).
`rocetb run` calls it at the end of every run (unless --no-plots) with --json, and reads the
one JSON line it prints: {"files": [...], "notes": [...], "seconds": S}.
Exit codes: 0 written; 2 not a results folder (one line on stderr); 3 matplotlib missing.
"""
import argparse
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # nothing written beside the scripts (source tree or installed copy)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MISSING_MATPLOTLIB = 3


def main():
    start = time.monotonic()
    parser = argparse.ArgumentParser(description="plots and report.html for a rocetb results folder")
    parser.add_argument("dir", help="a results folder (written by rocetb run)")
    parser.add_argument("--no-report", action="store_true", help="only the plots")
    parser.add_argument("--json", action="store_true", help="print one JSON line: files, notes, seconds")
    args = parser.parse_args()
    try:
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        print(f"plot.py: {e.name} is not installed for {sys.executable} (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return MISSING_MATPLOTLIB
    from rocetb_results import figures, report
    from rocetb_results.folder import Folder, ResultsError

    try:
        folder = Folder(args.dir)
    except ResultsError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    notes = []
    files = figures.all_figures(folder, notes)
    if not args.no_report:
        files.append(report.write(folder, files, notes))
    seconds = round(time.monotonic() - start, 3)
    if args.json:
        print(json.dumps({"files": files, "notes": notes, "seconds": seconds}))
    else:
        for f in files:
            print(os.path.join(args.dir, f))
        for n in notes:
            print(f"note: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
