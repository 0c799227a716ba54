#include "scenario/load_error.h"

#include <algorithm>

namespace rtb::scenario {

void fail_all(std::vector<LocatedProblem> problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const LocatedProblem& a, const LocatedProblem& b) { return a.line < b.line; });
  std::string message;
  for (const LocatedProblem& p : problems) message += (message.empty() ? "" : "\n") + p.text;
  throw LoadError{message};
}

}  // namespace rtb::scenario
