// Fuzz target: the flow-size CDF reader (scenario/cdf.h) on any text, and on every CDF it
// accepts, its mean and samples: finite, at least 1 byte, within the CDF's range.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenario/cdf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto cdf = rtb::scenario::Cdf::parse(text, "fuzz.cdf");
  if (!cdf) {
    if (cdf.error().message.empty()) __builtin_trap();  // a refusal must say why
    return 0;
  }
  const auto& c = cdf.value();
  if (!std::isfinite(c.mean_bytes())) __builtin_trap();
  const double largest = c.points().back().bytes;
  rtb::Rng rng(size, 0);
  for (int i = 0; i < 16; ++i) {
    const uint64_t n = c.sample(rng);
    if (n < 1 || static_cast<double>(n) > std::max(1.0, std::round(largest))) __builtin_trap();
  }
  for (double p : {0.0, 50.0, 100.0}) {
    if (!std::isfinite(c.size_at(p))) __builtin_trap();
  }
  return 0;
}
