// The inputs of a bounded fuzz pass (fuzz_driver.cc): a seed corpus mutated the way
// libFuzzer's default mutators do (bit flips, bytes, erased, inserted and copied ranges,
// dictionary tokens, numbers at their limits, two seeds spliced), driven by rtb::Rng, so a
// pass with the same seed and corpus runs the same inputs everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.h"

namespace rtb::fuzz {

struct PassOptions {
  uint64_t runs = 30000;
  uint64_t seed = 1;
  size_t max_len = 4096;
  std::vector<std::string> corpus;      // the seed files' contents, sorted by file name
  std::vector<std::string> dictionary;  // tokens, libFuzzer's -dict format
};

// --runs N, --seed S, --max-len B, --dict FILE, then corpus folders; an error message on failure.
std::optional<std::string> parse_pass_options(int argc, char** argv, PassOptions& o);

class Mutator {
 public:
  Mutator(uint64_t seed, std::vector<std::string> corpus, std::vector<std::string> dictionary, size_t max_len);
  std::string next();

 private:
  void mutate_once(std::string& s);
  void change_number(std::string& s);
  size_t pick(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_.uniform_int(n)); }
  const std::string& any_token();

  Rng rng_;
  std::vector<std::string> corpus_;
  std::vector<std::string> dictionary_;
  size_t max_len_;
};

}  // namespace rtb::fuzz
