// Control requests: building them, and a ControlStage handling them on a worker lcore.
#include "realtime/control.h"

#include <gtest/gtest.h>
#include <rte_lcore.h>

#include <atomic>
#include <string>

#include "realtime/realtime_scheduler.h"
#include "tests/realtime/test_clock.h"

namespace rtb::realtime {
namespace {

static_assert(std::is_trivially_copyable_v<ControlRequest>);

TEST(ControlRequest, SetParamKeepsKeyAndValue) {
  const auto r = set_param_request("rp_ai_rate_mbps", 40.5);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->kind, ControlRequest::Kind::kSetParam);
  EXPECT_EQ(r->key_view(), "rp_ai_rate_mbps");
  EXPECT_EQ(r->value, 40.5);
  const auto longest = set_param_request(std::string(47, 'k'), 1);
  ASSERT_TRUE(longest.ok());
  EXPECT_EQ(longest->key_view().size(), 47u);
}

TEST(ControlRequest, KeyTooLongOrEmptyIsAnError) {
  const auto r = set_param_request(std::string(48, 'k'), 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("has 48 characters; a name must have 1 to 47"),
            std::string::npos) << r.error().message;
  EXPECT_FALSE(set_param_request("", 1).ok());
  EXPECT_EQ(stop_request().kind, ControlRequest::Kind::kStop);
}

TEST(ControlStage, DueOnlyWhileARequestWaitsAndBoundedPerPoll) {
  ControlChannel channel;
  int handled = 0;
  ControlStage stage("ctl", channel, [&](const ControlRequest&, Time) { ++handled; });
  EXPECT_EQ(stage.next_deadline(), Time::never());
  for (int i = 0; i < ControlStage::kBurst + 3; ++i) ASSERT_TRUE(channel.push(stop_request()));
  EXPECT_EQ(stage.next_deadline(), Time::zero());
  stage.poll(Time::us(1));
  EXPECT_EQ(handled, ControlStage::kBurst);
  stage.poll(Time::us(2));
  EXPECT_EQ(handled, ControlStage::kBurst + 3);
  EXPECT_EQ(stage.handled(), static_cast<uint64_t>(handled));
  EXPECT_EQ(stage.next_deadline(), Time::never());
}

TEST(ControlStage, RequestFromTheControlThreadIsHandledOnTheWorker) {
  ControlChannel channel;
  RealtimeScheduler s;
  std::string key;
  double value = 0;
  unsigned lcore = LCORE_ID_ANY;
  Time handled_at;
  ControlStage stage("ctl", channel, [&](const ControlRequest& r, Time now) {
    key = std::string(r.key_view());
    value = r.value;
    lcore = rte_lcore_id();
    handled_at = now;
    s.request_stop();
  });
  s.add(stage, 1);
  bool pushed = false;
  TscClock clock = testing::calibrated_clock();
  const auto stats = s.run(clock, Time::s(60), Time::never(), "", [&] {
    if (!pushed) pushed = channel.push(*set_param_request("rp_ai_rate_mbps", 40.5));
  });
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(stats->stopped_early) << "the handler's request_stop() should end the run";
  EXPECT_EQ(stage.handled(), 1u);
  EXPECT_EQ(key, "rp_ai_rate_mbps");
  EXPECT_EQ(value, 40.5);
  EXPECT_EQ(lcore, 1u);
  EXPECT_GT(handled_at, Time::zero());
}

}  // namespace
}  // namespace rtb::realtime
