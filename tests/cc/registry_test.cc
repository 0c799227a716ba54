// Registry by name, and the ops-table checks every algorithm (built-in or not) must pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cc_algos/builtins.h"
#include "cc_algos/controller.h"
#include "cc_algos/registry.h"

namespace rtb::cc {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Registry, BuiltinsAreRegisteredSorted) {
  const Registry r = Registry::with_builtins();
  EXPECT_THAT(r.names(), ElementsAre("dcqcn", "dcqcn_paper", "dctcp", "fixed_rate", "hpcc", "swift", "timely"));
  EXPECT_EQ(r.algorithms().size(), builtin_ops().size());  // none failed its checks
  for (const rtb_cc_ops* ops : builtin_ops()) EXPECT_TRUE(check_ops(ops, "built-in").ok()) << ops->name;
}

// Every built-in reports each of its parameters as parsed (effective.json lists them): the
// defaults, and a value the scenario gave.
TEST(Registry, BuiltinsReportEveryParameterAsResolved) {
  const Registry r = Registry::with_builtins();
  for (const std::string& name : r.names()) {
    auto cc = configure(r.find(name).value(), {});
    ASSERT_TRUE(cc.ok()) << name << ": " << cc.error().message;
    const auto v = cc.value().resolved_params();
    ASSERT_TRUE(v.has_value()) << name;
    EXPECT_GT(v->count, 0u) << name;
    std::set<std::string> names;
    for (size_t i = 0; i < v->count; ++i) names.insert(v->fields[i].name);
    EXPECT_EQ(names.size(), v->count) << name << ": a parameter listed twice";
  }
  const auto value_of = [](const Controller& c, const std::string& key) {
    const auto v = c.resolved_params();
    for (size_t i = 0; i < v->count; ++i) {
      if (key == v->fields[i].name) return v->fields[i].value;
    }
    return -1.0;
  };
  const auto nic_default = configure(r.find("dcqcn").value(), {});
  EXPECT_EQ(value_of(nic_default.value(), "rp_hai_rate"), 50.0);  // mlx5's default, Mb/s
  const auto set = configure(r.find("dcqcn").value(), {{"rp_ai_rate", int64_t{7}}});
  EXPECT_EQ(value_of(set.value(), "rp_ai_rate"), 7.0);
  const auto timely = configure(r.find("timely").value(), {{"beta", 0.5}});
  EXPECT_EQ(value_of(timely.value(), "beta"), 0.5);
}

TEST(Registry, UnknownNameListsTheAvailableOnes) {
  const auto a = Registry::with_builtins().find("dcqcm");
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message,
              AllOf(HasSubstr("unknown congestion-control algorithm 'dcqcm'"),
                    HasSubstr("available: dcqcn, dcqcn_paper, dctcp, fixed_rate, hpcc, swift, timely")));
}

TEST(Registry, DuplicateNameIsRefused) {
  Registry r = Registry::with_builtins();
  const Status s = r.add(*r.find("dcqcn"));
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("'dcqcn' (built-in) clashes"));
}

TEST(Registry, FeedbackNeeds) {
  const Registry r = Registry::with_builtins();
  EXPECT_TRUE(r.find("dcqcn")->needs(Feedback::kCnp));
  EXPECT_FALSE(r.find("dcqcn")->needs(Feedback::kRtt));
  EXPECT_FALSE(r.find("fixed_rate")->needs(Feedback::kCnp));
}

TEST(Registry, ResolveByNameOrPath) {
  Registry r = Registry::with_builtins();
  EXPECT_EQ(r.resolve("fixed_rate")->name(), "fixed_rate");
  const auto missing = r.resolve("./no_such_plugin.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("cannot load congestion-control plug-in './no_such_plugin.so'"));
}

// A valid table to break one field at a time.
rtb_cc_ops good_ops() {
  rtb_cc_ops ops = *builtin_ops()[0];
  return ops;
}

TEST(CheckOps, RefusesEachDefect) {
  auto expect_refused = [](rtb_cc_ops ops, const char* what) {
    const Status s = check_ops(&ops, "test");
    EXPECT_FALSE(s.ok()) << what;
    EXPECT_THAT(s.message(), HasSubstr(what));
  };
  EXPECT_TRUE(check_ops(&*builtin_ops()[0], "test").ok());
  EXPECT_THAT(check_ops(nullptr, "x.so").message(), HasSubstr("returned no ops table"));
  rtb_cc_ops o = good_ops();
  o.abi_version = 0;
  expect_refused(o, ("CC ABI version 0, but this rocetb uses version " +
                     std::to_string(RTB_CC_ABI_VERSION)).c_str());
  o = good_ops();
  o.name = "Bad Name";
  expect_refused(o, "a-z, 0-9 and _");
  o = good_ops();
  o.state_bytes = 0;
  expect_refused(o, "per-flow state of 0 bytes; expected 1..4096 bytes");
  o = good_ops();
  o.state_bytes = 4097;
  expect_refused(o, "per-flow state of 4097 bytes");
  o = good_ops();
  o.state_align = 24;
  expect_refused(o, "powers of two");
  o = good_ops();
  o.params_bytes = 0;
  expect_refused(o, "parameters of 0 bytes");
  o = good_ops();
  o.feedback = 1u << 7;
  expect_refused(o, "unknown feedback bits 0x80");
  o = good_ops();
  o.on_start = nullptr;
  expect_refused(o, "hook on_start is NULL");
  o = good_ops();
  o.on_cnp = nullptr;
  expect_refused(o, "hook on_cnp is NULL but the algorithm asks for CNP feedback");
  o = good_ops();
  o.feedback |= RTB_CC_FEEDBACK_RTT;
  expect_refused(o, "hook on_ack is NULL");
}

}  // namespace
}  // namespace rtb::cc
