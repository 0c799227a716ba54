// Control requests from the control thread to a worker lcore (style habit 7: a stage's
// state is touched by its lcore only; other threads send requests through lock-free
// single-producer queues).
//
//   ControlChannel channel;                       // one per worker that takes requests
//   ControlStage stage("ctl", channel, [&](const ControlRequest& r, Time now) {
//     if (r.key_view() == "rp_ai_rate_mbps") host.set_ai_rate(r.value, now);  // on the lcore
//   });
//   scheduler.add(stage, 1);
//   ... control thread: channel.push(*set_param_request("rp_ai_rate_mbps", 40.0));
//
// ControlStage::next_deadline() is Time::zero() while a request is waiting and
// Time::never() otherwise: the realtime loop polls it every iteration anyway (the pops are
// cheap), its lateness is recorded only while a request waits, and a virtual scheduler
// (which it is not meant for) would poll it only when there is something to pop, never
// spinning.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/units.h"
#include "realtime/channel.h"
#include "runtime/stage.h"

namespace rtb::realtime {

// A plain, trivially copyable request: a named numeric parameter to set, or a stop.
struct ControlRequest {
  enum class Kind : uint8_t {
    kSetParam,  // set parameter `key` to `value`
    kStop,      // the handler decides what stopping means (typically request_stop())
  };
  Kind kind = Kind::kSetParam;
  char key[48] = {};  // NUL-terminated, at most kMaxKeyLength characters
  double value = 0;
  // Something the control thread prepared (allocated) for the handler, which only adopts
  // it: the sender keeps it alive until the run ends (for example a reconfigured CC
  // controller). Null when unused.
  const void* payload = nullptr;

  static constexpr size_t kMaxKeyLength = sizeof(key) - 1;
  std::string_view key_view() const;
};

// A set-parameter request; an error when the key is empty or longer than 47 characters.
Expected<ControlRequest> set_param_request(std::string_view key, double value);
ControlRequest stop_request();

inline constexpr size_t kControlChannelCapacity = 256;
using ControlChannel = Channel<ControlRequest, kControlChannelCapacity>;

class ControlStage final : public runtime::Stage {
 public:
  // Runs on the worker lcore that polls the stage; must not block, allocate or log.
  using Handler = std::function<void(const ControlRequest&, Time now)>;
  // Requests handled per poll at most, so a flood cannot hold up the lcore's other stages.
  static constexpr int kBurst = 32;

  ControlStage(std::string name, ControlChannel& channel, Handler handler);

  void poll(Time now) override;
  Time next_deadline() const override;
  bool polled_at_now_only() const override { return true; }

  // Requests handled so far (read it from another thread only after the run).
  uint64_t handled() const { return handled_; }

 private:
  ControlChannel& channel_;
  Handler handler_;
  uint64_t handled_ = 0;
};

}  // namespace rtb::realtime
