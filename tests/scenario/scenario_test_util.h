// Helpers for the scenario tests: load text, expect success or an exact error.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "scenario/load.h"

namespace rtb::scenario::testing {

// The source tree (meson sets ROCETB_SOURCE_ROOT for tests).
inline std::string source_root() {
  const char* root = std::getenv("ROCETB_SOURCE_ROOT");
  return root != nullptr ? root : ".";
}

// A scenario named as if it were scenarios/<file>, so "data/websearch.cdf" resolves.
inline std::string in_scenarios(const std::string& file) { return source_root() + "/scenarios/" + file; }

inline Scenario load_ok(const std::string& text, const std::vector<std::string>& sets = {},
                        const std::string& name = "t.toml") {
  Expected<Scenario> s = load_scenario_text(text, name, sets);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  if (!s.ok()) throw std::runtime_error(s.error().message);
  return std::move(s).value();
}

inline std::string load_error(const std::string& text, const std::vector<std::string>& sets = {},
                              const std::string& name = "t.toml") {
  Expected<Scenario> s = load_scenario_text(text, name, sets);
  EXPECT_FALSE(s.ok()) << "expected an error";
  return s.ok() ? "" : s.error().message;
}

// A minimal valid scenario: 4 hosts on one switch.
inline const char* kSmall = R"(
[topology]
kind = "single_switch"
hosts = 4
)";

}  // namespace rtb::scenario::testing
