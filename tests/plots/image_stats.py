#!/usr/bin/python3
"""Prints one JSON line about a PNG, for the plots tests: its size in pixels, how many
distinct colours it has, the share of pixels that are not white, and how many pixels are
close to each of matplotlib's first four tab10 colours (the colours the plots draw flows
and depths with; a page without the plots has none of them).

    image_stats.py FILE.png [--from-row FRACTION]   only rows from FRACTION of the height down
"""
import json
import sys

import matplotlib.image as mpimg
import numpy as np

TAB10 = {"blue": (31, 119, 180), "orange": (255, 127, 14), "green": (44, 160, 44), "red": (214, 39, 40)}


def main():
    path = sys.argv[1]
    start = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--from-row" else 0.0
    with open(path, "rb") as f:
        signature = f.read(8)
    if signature != b"\x89PNG\r\n\x1a\n":
        print(json.dumps({"png": False}))
        return 0
    img = mpimg.imread(path)
    if img.dtype != np.uint8:
        img = (img * 255).round().astype(np.int32)
    rgb = img[int(img.shape[0] * start):, :, :3].astype(np.int32)
    flat = rgb.reshape(-1, 3)
    colors = len(np.unique(flat[:, 0] * 65536 + flat[:, 1] * 256 + flat[:, 2]))
    nonwhite = float(np.mean(np.any(flat < 250, axis=1)))
    near = {name: int(np.sum(np.all(np.abs(flat - np.array(c)) <= 12, axis=1))) for name, c in TAB10.items()}
    print(json.dumps({"png": True, "width": int(img.shape[1]), "height": int(img.shape[0]), "colors": colors,
                      "nonwhite": nonwhite, "tab10": near}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
