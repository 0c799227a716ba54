// One DCQCN flow driven by hand: events in, decisions out, state visible to the test.
#pragma once

#include "cc_algos/dcqcn/dcqcn.h"
#include "cc_algos/dcqcn/dcqcn_paper.h"
#include "test_util.h"

namespace rtb::cc::testing {

template <class A>
class HandFlow {
 public:
  explicit HandFlow(const ParamMap& params = {}, Rate line = Rate::gbps(100))
      : c_(configure_or_die(A::kName, params)),
        table_(std::move(FlowTable::create(c_.algorithm(), 1)).value()) {
    last_ = c_.start(table_.state(0), FlowStart{line}, Time::zero());
  }
  Decision cnp(Time t) { return last_ = c_.on_cnp(table_.state(0), t); }
  Decision timer(Time t) { return last_ = c_.on_timer(table_.state(0), t); }
  Decision bytes(uint64_t n, Time t) { return last_ = *c_.on_bytes_sent(table_.state(0), Bytes(n), t); }
  // Fire every deadline up to and including t, as the host would.
  Decision run_until(Time t) {
    while (last_.next_deadline <= t) timer(last_.next_deadline);
    return last_;
  }

  const typename A::State& s() const { return *static_cast<const typename A::State*>(table_.state(0)); }
  const typename A::Params& p() const { return *static_cast<const typename A::Params*>(c_.params_blob()); }
  uint64_t rc() const { return s().rc.bps(); }
  uint64_t rt() const { return s().rt.bps(); }
  auto alpha_at(Time t) const { return A::alpha_at(p(), s(), t); }
  // α as the algorithm shows it (describe_state's "alpha", a fraction of 1).
  double alpha_shown(Time t) const { return c_.describe_state(table_.state(0), t).fields[0].value; }
  const Decision& last() const { return last_; }
  const Controller& controller() const { return c_; }

 private:
  Controller c_;
  FlowTable table_;
  Decision last_;
};

using NicFlow = HandFlow<dcqcn::Dcqcn>;
using PaperFlow = HandFlow<dcqcn::DcqcnPaper>;

inline Time us(uint64_t v) { return Time::us(v); }
inline Time ns(uint64_t v) { return Time::ns(v); }

}  // namespace rtb::cc::testing
