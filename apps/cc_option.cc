#include <string>

#include "apps/commands.h"

namespace rtb::apps {

std::string as_cc_option(const std::string& message, const std::string& cc) {
  if (cc.empty()) return message;
  const std::string loader = "--set cc.algorithm: ";
  std::string out;
  size_t from = 0;
  while (from < message.size()) {  // each line of a scenario's errors
    const size_t nl = message.find('\n', from);
    std::string line = message.substr(from, nl == std::string::npos ? std::string::npos : nl - from + 1);
    if (line.rfind(loader, 0) == 0) line = "--cc " + cc + ": " + line.substr(loader.size());
    out += line;
    from = nl == std::string::npos ? message.size() : nl + 1;
  }
  return out;
}

}  // namespace rtb::apps
