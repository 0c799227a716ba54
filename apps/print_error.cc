#include <algorithm>
#include <cstdio>
#include <string>

#include "apps/commands.h"

namespace rtb::apps {

void print_error(const char* who, const std::string& message) {
  size_t from = 0;
  while (from <= message.size()) {
    const size_t nl = std::min(message.find('\n', from), message.size());
    std::fprintf(stderr, "%s: %.*s\n", who, static_cast<int>(nl - from), message.data() + from);
    from = nl + 1;
  }
}

}  // namespace rtb::apps
