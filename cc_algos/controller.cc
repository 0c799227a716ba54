#include "cc_algos/controller.h"

#include <algorithm>

#include <cstring>
#include <new>

namespace rtb::cc {

namespace {

struct Messages {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

void on_error(void* ctx, const char* m) { static_cast<Messages*>(ctx)->errors.emplace_back(m ? m : ""); }
void on_warning(void* ctx, const char* m) {
  static_cast<Messages*>(ctx)->warnings.emplace_back(m ? m : "");
}

std::shared_ptr<void> aligned_zeroed(size_t bytes, size_t align) {
  void* p = ::operator new(bytes, std::align_val_t(align));
  std::memset(p, 0, bytes);
  return std::shared_ptr<void>(p, [align](void* q) { ::operator delete(q, std::align_val_t(align)); });
}

}  // namespace

Expected<Controller> configure(const Algorithm& algorithm, const ParamMap& params) {
  const rtb_cc_ops& ops = algorithm.ops();
  auto blob = aligned_zeroed(ops.params_bytes, ops.params_align);
  const std::vector<rtb_cc_param> abi = to_abi(params);
  Messages messages;
  const rtb_cc_report report{&messages, on_error, on_warning};
  const int rc = ops.parse_params(abi.data(), abi.size(), blob.get(), &report);
  if (rc != 0 || !messages.errors.empty()) {
    std::string all;
    for (const auto& e : messages.errors) all += (all.empty() ? "" : "\n") + e;
    if (all.empty())
      all = std::string(algorithm.name()) + ": parameters refused (the algorithm gave no reason)";
    return Error{all};
  }
  return Controller(algorithm, std::move(blob), std::move(messages.warnings));
}

Decision Controller::start(void* state, const FlowStart& s, Time now) const {
  const rtb_cc_flow_start abi{s.line_rate.bps(), s.base_rtt.ps(), s.flow_id, s.hop_count, 0};
  rtb_cc_decision d{};
  algorithm_.ops().on_start(params_.get(), state, &abi, now.ps(), &d);
  return Decision::from_abi(d);
}

Decision Controller::on_timer(void* state, Time now) const {
  rtb_cc_decision d{};
  algorithm_.ops().on_timer(params_.get(), state, now.ps(), &d);
  return Decision::from_abi(d);
}

Decision Controller::on_cnp(void* state, Time now) const {
  if (!algorithm_.ops().on_cnp) return on_timer(state, now);  // feedback it did not ask for
  rtb_cc_decision d{};
  algorithm_.ops().on_cnp(params_.get(), state, now.ps(), &d);
  return Decision::from_abi(d);
}

Decision Controller::on_ack(void* state, const AckEvent& a, Time now) const {
  if (!algorithm_.ops().on_ack) return on_timer(state, now);  // feedback it did not ask for
  const rtb_cc_ack abi{a.acked.count(), a.rtt.ps(), a.ecn_echo ? 1u : 0u, a.nak ? 1u : 0u,
                       static_cast<uint32_t>(a.hops.size()), 0u, a.hops.data()};
  rtb_cc_decision d{};
  algorithm_.ops().on_ack(params_.get(), state, &abi, now.ps(), &d);
  return Decision::from_abi(d);
}

std::optional<Decision> Controller::on_bytes_sent(void* state, Bytes sent, Time now) const {
  if (!algorithm_.ops().on_bytes_sent) return std::nullopt;
  rtb_cc_decision d{};
  algorithm_.ops().on_bytes_sent(params_.get(), state, sent.count(), now.ps(), &d);
  return Decision::from_abi(d);
}

NpParams Controller::np_params() const {
  if (!algorithm_.ops().np_config) return NpParams{};
  rtb_cc_np_config c = NpParams{}.to_abi();
  algorithm_.ops().np_config(params_.get(), &c);
  return NpParams::from_abi(c);
}

Controller::StateView Controller::describe_state(const void* state, Time now) const {
  StateView v;
  if (algorithm_.ops().describe_state == nullptr) return v;
  v.count = algorithm_.ops().describe_state(params_.get(), state, now.ps(), v.fields.data());
  if (v.count > RTB_CC_MAX_STATE_FIELDS) v.count = RTB_CC_MAX_STATE_FIELDS;
  return v;
}

std::optional<Controller::ParamsView> Controller::resolved_params() const {
  if (algorithm_.ops().describe_params == nullptr) return std::nullopt;
  ParamsView v;
  v.count = std::min<size_t>(algorithm_.ops().describe_params(params_.get(), v.fields.data()),
                             RTB_CC_MAX_PARAM_FIELDS);
  return v;
}

}  // namespace rtb::cc
