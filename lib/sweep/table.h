// The sweep's table: one row per point, its varied values, repeat, seed, status and the
// chosen metrics from its summary.json; written as sweep.csv (RFC 4180) and printed as
// aligned columns. The same points and summaries give the same bytes.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "sweep/metric.h"
#include "sweep/plan.h"

namespace rtb::sweep {

struct Row {
  const PlannedPoint* point = nullptr;
  std::string status;                             // "ok", "failed: exit 1", "incomplete", "not run"
  std::vector<std::optional<std::string>> values;  // one per metric; empty when absent
};

struct Table {
  std::vector<std::string> header;              // point, the keys, repeat, seed, status, the metrics
  std::vector<std::vector<std::string>> cells;  // one per row, as the header
};

// A point's folder is complete when its run.json says "complete": true and summary.json is
// there (lib/testbed/README.md, "The results folder").
bool point_complete(const std::string& dir);

// The row of a point whose run ended (or was found complete) with `status`; the metrics
// are read when the folder is complete.
Row make_row(const PlannedPoint& p, const std::string& dir, std::string status, const std::vector<Metric>& metrics);

Table make_table(const Plan& plan, const std::vector<Metric>& metrics, const std::vector<Row>& rows);

std::string to_csv(const Table& t);

// Aligned columns, narrower than the CSV: the point's index instead of its folder, each
// varied key by its last part (green_min_threshold), empty cells as "-".
void print_table(std::ostream& out, const Table& t, size_t key_columns);

}  // namespace rtb::sweep
