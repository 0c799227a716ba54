#include "realtime/control.h"

#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace rtb::realtime {

std::string_view ControlRequest::key_view() const {
  return std::string_view(key, strnlen(key, sizeof(key)));
}

Expected<ControlRequest> set_param_request(std::string_view key, double value) {
  if (key.empty() || key.size() > ControlRequest::kMaxKeyLength) {
    return Error{fmt::format("control parameter name '{}' has {} characters; a name must have "
                             "1 to {} characters", key, key.size(),
                             ControlRequest::kMaxKeyLength)};
  }
  ControlRequest r;
  r.kind = ControlRequest::Kind::kSetParam;
  std::memcpy(r.key, key.data(), key.size());
  r.value = value;
  return r;
}

ControlRequest stop_request() {
  ControlRequest r;
  r.kind = ControlRequest::Kind::kStop;
  return r;
}

ControlStage::ControlStage(std::string name, ControlChannel& channel, Handler handler)
    : Stage(std::move(name)), channel_(channel), handler_(std::move(handler)) {}

void ControlStage::poll(Time now) {
  ControlRequest r;
  for (int i = 0; i < kBurst && channel_.pop(r); ++i) {
    if (handler_) handler_(r, now);
    ++handled_;
  }
}

Time ControlStage::next_deadline() const {
  return channel_.pending() > 0 ? Time::zero() : Time::never();
}

}  // namespace rtb::realtime
