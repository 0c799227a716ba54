// The notification point (NP): the receiver side of DCQCN, as a piece any host can use.
//
// Per QP: a CE-marked data frame makes the receiver send a CNP back to the sender's QP,
// at most once per np_min_time_between_cnps ("If a marked packet arrives for a flow, and
// no CNP has been sent for this flow in last tau microseconds, a CNP is generated
// immediately", DCQCN via CoNEXT'16 dcqcn-protocol.tex; mlx5 min_time_between_cnps,
// cc-reference.md §1.1 and §1.3). The CNP's IP DSCP is np_cnp_dscp and its 802.1p PCP is
// np_cnp_prio (ConnectX defaults 48 and 6). Time is passed in; no clock is read.
#pragma once

#include <cstdint>

#include "cc_algos/rocetb_cc.h"
#include "core/units.h"

namespace rtb::cc {

struct NpParams {
  // mlx5 default: 4 us on recent firmware ([BARRE] Table 2); one ConnectX-5 fw 16.27 dump
  // shows 2 us ([MLXCFG]). See cc_algos/dcqcn/README.md.
  Time min_time_between_cnps = Time::us(4);
  uint8_t cnp_dscp = 48;  // 6-bit field
  uint8_t cnp_pcp = 6;    // 3-bit field

  static NpParams from_abi(const rtb_cc_np_config& c) {
    return NpParams{Time::ps(c.min_time_between_cnps_ps), static_cast<uint8_t>(c.cnp_dscp & 0x3f),
                    static_cast<uint8_t>(c.cnp_pcp & 0x7)};
  }
  rtb_cc_np_config to_abi() const {
    return rtb_cc_np_config{min_time_between_cnps.ps(), cnp_dscp, cnp_pcp};
  }
};

// Per-QP receiver state: 8 bytes.
struct NpQpState {
  Time last_cnp = Time::never();  // never: no CNP sent yet on this QP
};

struct NpCounters {
  uint64_t ce_frames = 0;      // CE-marked data frames seen
  uint64_t cnps_sent = 0;      // CNPs the NP asked to send
  uint64_t cnps_held_back = 0; // CE frames that found a CNP sent too recently
};

class NotificationPoint {
 public:
  explicit NotificationPoint(NpParams params) : params_(params) {}

  // A data frame for the QP whose state is `qp` arrived at `now`. Returns true when the
  // caller must send a CNP now (with dscp()/pcp()).
  bool on_data_frame(NpQpState& qp, bool ce_marked, Time now) {
    if (!ce_marked) return false;
    ++counters_.ce_frames;
    if (!qp.last_cnp.is_never() && now - qp.last_cnp < params_.min_time_between_cnps) {
      ++counters_.cnps_held_back;
      return false;
    }
    qp.last_cnp = now;
    ++counters_.cnps_sent;
    return true;
  }

  uint8_t cnp_dscp() const { return params_.cnp_dscp; }
  uint8_t cnp_pcp() const { return params_.cnp_pcp; }
  const NpParams& params() const { return params_; }
  const NpCounters& counters() const { return counters_; }

 private:
  NpParams params_;
  NpCounters counters_;
};

}  // namespace rtb::cc
