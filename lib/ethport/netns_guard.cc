#include "ethport/netns_guard.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace rtb::ethport {

Expected<NetnsGuard> NetnsGuard::enter(const std::string& name) {
  if (name.empty()) return NetnsGuard(-1);
  const int original = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original < 0) {
    return Error{fmt::format("cannot read this thread's network namespace "
                             "(/proc/thread-self/ns/net: {})", std::strerror(errno))};
  }
  const std::string path = "/run/netns/" + name;
  const int target = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (target < 0) {
    const int err = errno;
    ::close(original);
    return Error{fmt::format("network namespace '{}' does not exist ({}: {}); create it with "
                             "`ip netns add {}` or leave PortSpec::netns empty", name, path,
                             std::strerror(err), name)};
  }
  const int rc = ::setns(target, CLONE_NEWNET);
  const int err = errno;
  ::close(target);
  if (rc != 0) {
    ::close(original);
    return Error{fmt::format("cannot enter network namespace '{}' ({}); run as root or with "
                             "CAP_SYS_ADMIN", name, std::strerror(err))};
  }
  return NetnsGuard(original);
}

NetnsGuard::~NetnsGuard() {
  if (original_fd_ < 0) return;
  if (::setns(original_fd_, CLONE_NEWNET) != 0) {
    // Cannot happen for a namespace this thread was in a moment ago; say so if it does.
    std::fprintf(stderr, "rtb::ethport: cannot return to the original network namespace: "
                 "%s\n", std::strerror(errno));
  }
  ::close(original_fd_);
}

}  // namespace rtb::ethport
