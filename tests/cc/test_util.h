// Helpers for the cc tests: a flow driven by hand through the C ops of an algorithm.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cc_algos/controller.h"
#include "cc_algos/flow_table.h"
#include "cc_algos/registry.h"

namespace rtb::cc::testing {

inline Controller configure_or_die(std::string_view name, const ParamMap& params = {}) {
  auto algo = Registry::with_builtins().find(name);
  EXPECT_TRUE(algo.ok()) << (algo.ok() ? "" : algo.error().message);
  auto c = configure(*algo, params);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return std::move(c).value();
}

inline std::string configure_error(std::string_view name, const ParamMap& params) {
  auto algo = Registry::with_builtins().find(name);
  if (!algo) return "no algorithm " + std::string(name);
  auto c = configure(*algo, params);
  return c.ok() ? std::string("<accepted>") : c.error().message;
}

inline std::vector<std::string> configure_warnings(std::string_view name, const ParamMap& params) {
  auto algo = Registry::with_builtins().find(name);
  if (!algo) return {"no algorithm"};
  auto c = configure(*algo, params);
  if (!c) return {"refused: " + c.error().message};
  return c->warnings();
}

}  // namespace rtb::cc::testing
