// Fuzz target: `--set KEY=VALUE` overrides (scenario/overrides.h) on a small valid scenario,
// one override per input line. Every input must load or be refused with a message: no
// crash, no exception escaping, no hang. Overrides naming a shared object are skipped.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/load.h"

namespace {

constexpr const char* kBase = R"(name = "fuzz"
[run]
duration = "1ms"
warmup = "0us"
[topology]
kind = "single_switch"
hosts = 3
rate = "100Gbps"
[switch]
pfc_enable = [3]
[cc]
algorithm = "dcqcn"
[[traffic]]
pattern = "incast"
receiver = "h2"
senders = 2
)";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= text.size() && out.size() < 16) {
    const size_t nl = std::min(text.find('\n', from), text.size());
    out.push_back(text.substr(from, nl - from));
    from = nl + 1;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find(".so") != std::string::npos) return 0;
  const auto s = rtb::scenario::load_scenario_text(kBase, "fuzz/set.toml", lines(text));
  if (!s && s.error().message.empty()) __builtin_trap();  // a refusal must say why
  return 0;
}
