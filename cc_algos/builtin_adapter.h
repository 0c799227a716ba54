// Adapts a C++ algorithm written as a class of static functions into the C ops table,
// so built-ins and plug-ins go through one path (Linux tcp_congestion_ops style).
//
// An algorithm class A provides:
//   static constexpr const char* kName, *kDescription; static constexpr uint32_t kFeedback;
//   struct Params; struct State;            (trivially copyable and destructible)
//   static bool parse(std::span<const rtb_cc_param>, Params&, Reporter&);
//   static Decision start(const Params&, State&, const rtb_cc_flow_start&, Time now);
//   static Decision on_timer(const Params&, State&, Time now);
// and optionally on_cnp(P, S, now), on_ack(P, S, const rtb_cc_ack&, now),
// on_bytes_sent(P, S, Bytes, now), np_config(P) -> NpParams,
// describe(P, const S&, now, span<rtb_cc_state_field, 16>) -> fields written;
// a Params member `ResolvedParams resolved` (params.h) gives describe_params.
#pragma once

#include <algorithm>
#include <new>
#include <span>
#include <type_traits>

#include "cc_algos/algorithm.h"
#include "cc_algos/np/notification_point.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

template <class A>
struct BuiltinAdapter {
  using P = typename A::Params;
  using S = typename A::State;
  static_assert(std::is_trivially_copyable_v<P> && std::is_trivially_destructible_v<P>);
  static_assert(std::is_trivially_copyable_v<S> && std::is_trivially_destructible_v<S>);

  static const P& params(const void* p) { return *static_cast<const P*>(p); }
  static S& state(void* s) { return *static_cast<S*>(s); }

  static int parse(const rtb_cc_param* in, size_t n, void* out, const rtb_cc_report* report) {
    Reporter r(A::kName, report);
    P* p = new (out) P{};
    const bool ok = A::parse(std::span<const rtb_cc_param>(in, n), *p, r);
    return ok && !r.failed() ? 0 : 1;
  }
  static void start(const void* p, void* s, const rtb_cc_flow_start* st, uint64_t now,
                    rtb_cc_decision* out) {
    S* fresh = new (s) S{};
    *out = A::start(params(p), *fresh, *st, Time::ps(now)).to_abi();
  }
  static void timer(const void* p, void* s, uint64_t now, rtb_cc_decision* out) {
    *out = A::on_timer(params(p), state(s), Time::ps(now)).to_abi();
  }
  static void cnp(const void* p, void* s, uint64_t now, rtb_cc_decision* out) {
    *out = A::on_cnp(params(p), state(s), Time::ps(now)).to_abi();
  }
  static void ack(const void* p, void* s, const rtb_cc_ack* a, uint64_t now, rtb_cc_decision* out) {
    *out = A::on_ack(params(p), state(s), *a, Time::ps(now)).to_abi();
  }
  static void bytes_sent(const void* p, void* s, uint64_t bytes, uint64_t now,
                         rtb_cc_decision* out) {
    *out = A::on_bytes_sent(params(p), state(s), Bytes(bytes), Time::ps(now)).to_abi();
  }
  static void np(const void* p, rtb_cc_np_config* out) { *out = A::np_config(params(p)).to_abi(); }
  static size_t describe(const void* p, const void* s, uint64_t now, rtb_cc_state_field* out) {
    return A::describe(params(p), *static_cast<const S*>(s), Time::ps(now),
                       std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS>(out, RTB_CC_MAX_STATE_FIELDS));
  }

  static size_t describe_params(const void* p, rtb_cc_state_field* out) {
    const ResolvedParams& r = params(p).resolved;
    std::copy_n(r.fields.begin(), r.count, out);
    return r.count;
  }

  static constexpr rtb_cc_ops make() {
    rtb_cc_ops ops{};
    ops.abi_version = RTB_CC_ABI_VERSION;
    ops.feedback = A::kFeedback;
    ops.name = A::kName;
    ops.description = A::kDescription;
    ops.state_bytes = sizeof(S);
    ops.state_align = alignof(S);
    ops.params_bytes = sizeof(P);
    ops.params_align = alignof(P);
    ops.parse_params = &parse;
    ops.on_start = &start;
    ops.on_timer = &timer;
    if constexpr (requires { &A::on_cnp; }) ops.on_cnp = &cnp;
    if constexpr (requires { &A::on_ack; }) ops.on_ack = &ack;
    if constexpr (requires { &A::on_bytes_sent; }) ops.on_bytes_sent = &bytes_sent;
    if constexpr (requires { &A::np_config; }) ops.np_config = &np;
    if constexpr (requires { &A::describe; }) ops.describe_state = &describe;
    if constexpr (requires(const P& p) { p.resolved; }) ops.describe_params = &describe_params;
    return ops;
  }
};

template <class A>
inline constexpr rtb_cc_ops kBuiltinOps = BuiltinAdapter<A>::make();

}  // namespace rtb::cc
