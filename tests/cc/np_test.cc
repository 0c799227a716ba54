// Notification point: CE-marked frame -> CNP, at most once per np_min_time_between_cnps.
#include <gtest/gtest.h>

#include "cc_algos/np/notification_point.h"
#include "test_util.h"

namespace rtb::cc {
namespace {

TEST(NotificationPoint, OneCnpPerMinTimePerQp) {
  NotificationPoint np(NpParams{Time::us(4), 48, 6});
  NpQpState a, b;
  EXPECT_FALSE(np.on_data_frame(a, false, Time::us(1)));  // not marked
  EXPECT_TRUE(np.on_data_frame(a, true, Time::us(1)));
  EXPECT_FALSE(np.on_data_frame(a, true, Time::us(2)));
  EXPECT_FALSE(np.on_data_frame(a, true, Time::ps(4'999'999)));
  EXPECT_TRUE(np.on_data_frame(b, true, Time::us(2)));  // another QP is independent
  EXPECT_TRUE(np.on_data_frame(a, true, Time::us(5)));  // 4 us after the last CNP
  EXPECT_EQ(np.counters().ce_frames, 5u);
  EXPECT_EQ(np.counters().cnps_sent, 3u);
  EXPECT_EQ(np.counters().cnps_held_back, 2u);
}

TEST(NotificationPoint, ZeroMinTimeSendsForEveryMarkedFrame) {
  NotificationPoint np(NpParams{Time::zero(), 48, 6});
  NpQpState q;
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(np.on_data_frame(q, true, Time::us(7)));
}

TEST(NotificationPoint, FirstMarkAtTimeZeroSendsACnp) {
  NotificationPoint np(NpParams{});
  NpQpState q;
  EXPECT_TRUE(np.on_data_frame(q, true, Time::zero()));
  EXPECT_FALSE(np.on_data_frame(q, true, Time::us(3)));
}

TEST(NotificationPoint, MarkingComesFromTheAlgorithmsParams) {
  const Controller c = testing::configure_or_die("dcqcn", {{"np_cnp_dscp", int64_t{26}}, {"np_cnp_prio", int64_t{3}}});
  NotificationPoint np(c.np_params());
  EXPECT_EQ(np.cnp_dscp(), 26);
  EXPECT_EQ(np.cnp_pcp(), 3);
  // An algorithm without np_config gets the mlx5 defaults.
  const Controller f = testing::configure_or_die("fixed_rate");
  EXPECT_EQ(f.np_params().cnp_dscp, 48);
  EXPECT_EQ(f.np_params().cnp_pcp, 6);
  EXPECT_EQ(f.np_params().min_time_between_cnps, Time::us(4));
}

}  // namespace
}  // namespace rtb::cc
