#!/usr/bin/python3
"""rocetb compare A B [C ...] [--out DIR]: results folders side by side.

Prints the summary figures of every folder with each one's relative difference to the
first (highlighted in colour when stdout is a terminal), the effective-configuration keys
that differ, and writes overlay plots of per-flow rate and queue depth (and compare.txt,
the same table) into --out (default: a new folder results/compare-...).
Exit codes: 0; 2 bad input (one line on stderr); 3 matplotlib missing (table still printed).
"""
import argparse
import os
import signal
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts (source tree or installed copy)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(prog="rocetb compare", description="compare rocetb results folders")
    parser.add_argument("dirs", nargs="*", help="two or more results folders")
    parser.add_argument("--out", default="", help="folder for the overlay plots (default results/compare-...)")
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    args = parser.parse_args()
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("rocetb compare: numpy is not installed for " + sys.executable +
              " (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 3
    from rocetb_results import compare
    from rocetb_results.folder import ResultsError

    try:
        folders = compare.load(args.dirs)
    except ResultsError as e:
        print(f"rocetb compare: {e}", file=sys.stderr)
        return 2
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    lines = compare.table(folders, color)
    diff = compare.config_diff(folders)
    letters = [chr(ord("A") + i) for i in range(len(folders))]
    cfg = ["", "effective configuration: " + (
        f"{len(diff)} key{'s differ' if len(diff) != 1 else ' differs'}" if diff else "identical")]
    for key, values in diff:
        cfg.append(f"  {key}: " + " | ".join(f"{l} {v}" for l, v in zip(letters, values)))
    print("\n".join(lines + cfg))
    try:
        out = compare.out_dir(folders, args.out)
    except OSError as e:
        print(f"rocetb compare: --out {args.out}: {e.strerror}", file=sys.stderr)
        return 2
    plain = compare.table(folders, False) + cfg
    with open(os.path.join(out, "compare.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(plain) + "\n")
    try:
        written = compare.plots(folders, out)
    except ImportError as e:
        print(f"rocetb compare: plots skipped: {e.name} is not installed (Debian: apt-get install python3-matplotlib)")
        return 0
    print(f"\ncompare: {os.path.join(out, 'compare.txt')}" + "".join(f", {os.path.join(out, w)}" for w in written))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `rocetb compare A B | head` ends quietly
    sys.exit(main())
