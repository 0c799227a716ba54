// How many mbufs a scenario needs (design.md "Memory and mbufs"): every switch buffer full
// of the smallest frames it can hold (one MMU cell each), plus every cable full in both
// directions, for data and for control frames alike (ACKs and CNPs queue in switches too).
#pragma once

#include "core/error.h"
#include "runtime/pool/mbuf_pool_sizing.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

runtime::PoolConfig pool_config(const scenario::Scenario& s);

}  // namespace rtb::testbed
