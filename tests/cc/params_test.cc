// The shared parameter reader: kinds, ranges, unknown keys, messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>

#include "cc_algos/params.h"

namespace rtb::cc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Sink {
  std::vector<std::string> errors, warnings;
  rtb_cc_report report() {
    return rtb_cc_report{this,
                         [](void* c, const char* m) { static_cast<Sink*>(c)->errors.emplace_back(m); },
                         [](void* c, const char* m) { static_cast<Sink*>(c)->warnings.emplace_back(m); }};
  }
};

constexpr std::array<UintSpec, 2> kSpecs{{{"a_us", "us", 1, 10, 5, ""}, {"b", "count", 0, 3, 0, "why"}}};

TEST(ReadUintParams, DefaultsWhenAbsent) {
  Sink sink;
  const auto report = sink.report();
  Reporter r("algo", &report);
  std::array<uint64_t, 2> v{};
  read_uint_params({}, kSpecs, v, r);
  EXPECT_THAT(v, ElementsAre(5u, 0u));
  EXPECT_FALSE(r.failed());
}

TEST(ReadUintParams, AcceptsEveryKindAndRefusesBadValues) {
  ParamMap m{{"a_us", std::string("0xA")}, {"b", 2.0}};
  const auto abi = to_abi(m);
  Sink sink;
  const auto report = sink.report();
  Reporter r("algo", &report);
  std::array<uint64_t, 2> v{};
  read_uint_params(abi, kSpecs, v, r);
  EXPECT_THAT(v, ElementsAre(10u, 2u));
  EXPECT_TRUE(sink.errors.empty());

  ParamMap bad{{"a_us", int64_t{11}}, {"b", std::string("")}, {"c", int64_t{1}}};
  const auto abi2 = to_abi(bad);
  Reporter r2("algo", &report);
  read_uint_params(abi2, kSpecs, v, r2);
  EXPECT_TRUE(r2.failed());
  EXPECT_THAT(sink.errors,
              ElementsAre("algo: a_us = 11 is invalid: expected a whole number in 1..10 (us)",
                          "algo: b = \"\" is invalid: expected a whole number in 0..3 (count); why",
                          "algo: unknown parameter 'c'; valid parameters: a_us, b"));
}

TEST(ReadUintParams, RejectsValuesThatDoNotFit) {
  for (const ParamValue& bad : {ParamValue(1e30), ParamValue(-0.5), ParamValue(std::string("12abc")),
                                ParamValue(std::string("-1")), ParamValue(std::string("99999999999999999999999"))}) {
    ParamMap m{{"b", bad}};
    const auto abi = to_abi(m);
    Sink sink;
    const auto report = sink.report();
    Reporter r("x", &report);
    std::array<uint64_t, 2> v{};
    read_uint_params(abi, kSpecs, v, r);
    EXPECT_TRUE(r.failed()) << describe(abi[0]);
    EXPECT_THAT(sink.errors.at(0), HasSubstr("b = "));
  }
}

}  // namespace
}  // namespace rtb::cc
