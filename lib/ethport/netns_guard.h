// Entering a named network namespace for a while, on the calling thread only.
//
// An af_packet device binds its socket to an interface of the namespace the thread is in
// when the device is created (rte_vdev_init) and configured; the socket keeps that
// namespace afterwards. So a port can open an interface of another namespace (a veth end
// in a test's namespace) without moving the whole process: enter, open, leave.
// setns(CLONE_NEWNET) affects only the calling thread (setns(2)), so DPDK's other threads
// stay where they are.
//
//   auto g = NetnsGuard::enter("rtb-test-123");   // /run/netns/rtb-test-123
//   if (!g) return g.error();
//   ...                                           // back in the original namespace when
//                                                 // g goes out of scope
#pragma once

#include <string>

#include "core/error.h"

namespace rtb::ethport {

class NetnsGuard {
 public:
  // Empty name: a guard that does nothing. Errors: no such namespace, or setns refused
  // (not root / no CAP_SYS_ADMIN).
  static Expected<NetnsGuard> enter(const std::string& name);

  NetnsGuard(NetnsGuard&& o) noexcept : original_fd_(o.original_fd_) { o.original_fd_ = -1; }
  NetnsGuard& operator=(NetnsGuard&&) = delete;
  NetnsGuard(const NetnsGuard&) = delete;
  NetnsGuard& operator=(const NetnsGuard&) = delete;
  ~NetnsGuard();

 private:
  explicit NetnsGuard(int original_fd) : original_fd_(original_fd) {}
  int original_fd_ = -1;  // the thread's namespace before enter(), -1 when none was left
};

}  // namespace rtb::ethport
