#include "testbed/stop_request.h"

#include <atomic>

namespace rtb::testbed {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

}  // namespace

void request_stop() { g_stop.store(true, std::memory_order_relaxed); }
bool stop_requested() { return g_stop.load(std::memory_order_relaxed); }
StopScope::~StopScope() { g_stop.store(false, std::memory_order_relaxed); }

}  // namespace rtb::testbed
