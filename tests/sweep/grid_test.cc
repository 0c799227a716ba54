// The grid of a sweep: --vary parsing, the cartesian product's order, seeds and folder names.
#include <gtest/gtest.h>

#include <set>

#include "sweep/grid.h"

namespace rtb::sweep {
namespace {

TEST(ParseVary, SplitsValuesAtCommasOutsideBracketsAndQuotes) {
  auto a = parse_vary("switch.pfc_enable=[3],[3,4],\"a,b\"");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->key, "switch.pfc_enable");
  EXPECT_EQ(a->values, (std::vector<std::string>{"[3]", "[3,4]", "\"a,b\""}));
}

TEST(ParseVary, RefusesMalformedTextInOneLine) {
  EXPECT_EQ(parse_vary("run.seed").error().message,
            "--vary run.seed: expected KEY=V1,V2,..., such as switch.wred_profile.green_min_threshold=50KB,150KB");
  EXPECT_EQ(parse_vary("run.seed=1,,2").error().message,
            "--vary run.seed=1,,2: value 2 is empty: expected KEY=V1,V2,..., such as "
            "switch.wred_profile.green_min_threshold=50KB,150KB");
  EXPECT_EQ(parse_vary("run.seed=1,1").error().message, "--vary run.seed=1,1: value '1' is given twice: expected each value once");
  EXPECT_EQ(check_axes({{"a", {"1"}}, {"a", {"2"}}}).message(),
            "--vary a: the key is varied twice: expected each key in one --vary with all its values");
  EXPECT_FALSE(check_axes({}));
}

TEST(ExpandGrid, IsTheCartesianProductFirstAxisSlowestRepeatsInnermost) {
  const std::vector<Axis> axes{{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
  const std::vector<Point> g = expand_grid(axes, 2);
  ASSERT_EQ(g.size(), 12u);
  std::set<std::vector<size_t>> combos;
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].index, i);
    EXPECT_EQ(g[i].repeat, i % 2);
    EXPECT_EQ(g[i].value_index[0], i / 6);
    EXPECT_EQ(g[i].value_index[1], (i / 2) % 3);
    combos.insert(g[i].value_index);
  }
  EXPECT_EQ(combos.size(), 6u);
  EXPECT_EQ(point_overrides(axes, g[7]), (std::vector<std::string>{"a=2", "b=x"}));
}

TEST(DeriveSeed, FirstRepeatKeepsTheScenarioSeedOthersAreDistinctAndStable) {
  EXPECT_EQ(derive_seed(1, 0), 1u);
  EXPECT_EQ(derive_seed(12345, 0), 12345u);
  std::set<uint64_t> seen;
  for (uint32_t r = 0; r < 1000; ++r) {
    const uint64_t s = derive_seed(1, r);
    EXPECT_LE(s, 0x7fffffffffffffffull);  // run.seed's range
    EXPECT_EQ(s, derive_seed(1, r));
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_NE(derive_seed(1, 1), derive_seed(2, 1));
  // Fixed: a sweep's recorded seeds must not change between builds or machines.
  EXPECT_EQ(derive_seed(1, 1), 7611075020235113161u);
  EXPECT_EQ(derive_seed(1, 2), 8688467253428114782u);
}

TEST(PointFolder, IndexPaddedShortTagAndRepeat) {
  const std::vector<Axis> axes{{"switch.wred_profile.green_min_threshold", {"50KB", "150KB"}},
                               {"cc.algorithm", {"dcqcn", "\"dctcp\""}}};
  const std::vector<Point> g = expand_grid(axes, 1);
  EXPECT_EQ(point_folder(axes, g[1], g.size(), 1), "1-green_min_threshold=50KB,algorithm=dctcp");
  EXPECT_EQ(point_folder(axes, g[2], 12, 1), "02-green_min_threshold=150KB,algorithm=dcqcn");
  EXPECT_EQ(point_folder(axes, expand_grid(axes, 3)[4], 12, 3), "04-green_min_threshold=50KB,algorithm=dctcp-r1");
}

}  // namespace
}  // namespace rtb::sweep
