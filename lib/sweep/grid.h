// The grid of a sweep: the --vary axes, their cartesian product and the repeats, each
// point with its seed and its results folder's name. Pure: no scenario, no process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::sweep {

// One `--vary KEY=V1,V2,...`: a scenario key (as `rocetb run --set` takes it) and its
// values, in the order given.
struct Axis {
  std::string key;
  std::vector<std::string> values;
};

// Splits "KEY=V1,V2,..." at the commas outside brackets and quotes, so a TOML array or a
// quoted string is one value: `switch.pfc_enable=[3],[3,4]`. Errors are one line naming
// --vary, the text and what was expected.
Expected<Axis> parse_vary(const std::string& text);

// Each key at most once (its values belong in one --vary), at least one axis.
Status check_axes(const std::vector<Axis>& axes);

// One run of the sweep: a value of each axis (indices into Axis::values) and a repeat.
struct Point {
  size_t index = 0;                // position in the grid, from 0
  std::vector<size_t> value_index; // one per axis
  uint32_t repeat = 0;             // 0 .. repeats-1
};

// The cartesian product in row-major order (the first axis changes slowest) and, innermost,
// the repeats: points [a0=v0,r0], [a0=v0,r1], ..., always the same order.
std::vector<Point> expand_grid(const std::vector<Axis>& axes, uint32_t repeats);

// The seed of repeat `repeat` of a point whose scenario has run.seed `base`: repeat 0 keeps
// `base` (the point is exactly the `rocetb run` without --seed), repeat r > 0 mixes base
// and r with SplitMix64 (Steele, Lea, Flood 2014), kept in run.seed's range 0..2^63-1.
uint64_t derive_seed(uint64_t base, uint32_t repeat);

// The point's overrides as `--set` takes them: "KEY=VALUE", one per axis.
std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p);

// The point's folder name inside the sweep folder: its index (zero-padded to the width of
// the grid's size), the overrides' short tag and, with repeats, "-r<repeat>":
// "03-green_min_threshold=100KB,green_max_threshold=800KB-r1".
std::string point_folder(const std::vector<Axis>& axes, const Point& p, size_t grid_size, uint32_t repeats);

}  // namespace rtb::sweep
