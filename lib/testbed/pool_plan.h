// How many mbufs a scenario needs (design.md "Memory and mbufs"): every switch buffer full
// of the smallest frames it can hold (one MMU cell each), plus every cable full in both
// directions, for data and for control frames alike (ACKs and CNPs queue in switches too).
#pragma once

#include "core/error.h"
#include "runtime/pool/mbuf_pool_sizing.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

runtime::PoolConfig pool_config(const scenario::Scenario& s);

// size_pools(c) (c: pool_config(s), or a realtime run's larger one), with run.data_mbufs
// and run.control_mbufs in place of the counts when the scenario gives them, and each
// pool's resize hint: the count the scenario's sizing gives and the key that sets it.
Expected<runtime::PoolSizes> pool_sizes(const scenario::Scenario& s, const runtime::PoolConfig& c);

}  // namespace rtb::testbed
