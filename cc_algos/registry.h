// Algorithms by name. The built-ins (dcqcn, dcqcn_paper, fixed_rate) are registered by
// with_builtins(); plug-ins are added by path. Names are kept sorted, so listings and
// messages are deterministic.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cc_algos/algorithm.h"
#include "core/error.h"

namespace rtb::cc {

class Registry {
 public:
  static Registry with_builtins();

  // Refuses a second algorithm of the same name.
  Status add(Algorithm algorithm);
  // An unknown name is an error that lists the available ones.
  Expected<Algorithm> find(std::string_view name) const;
  std::vector<std::string> names() const;
  const std::vector<Algorithm>& algorithms() const { return algorithms_; }

  // The scenario key / command-line flag value: a registered name, or a path to a plug-in
  // (anything containing '/' or ending in ".so"), which is loaded and added (once: the
  // same path again returns the loaded algorithm; another file with a taken name is refused).
  Expected<Algorithm> resolve(std::string_view name_or_path);

 private:
  std::vector<Algorithm> algorithms_;  // sorted by name
};

}  // namespace rtb::cc
