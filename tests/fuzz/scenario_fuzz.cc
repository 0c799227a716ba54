// Fuzz target: the scenario loader on any TOML text (scenario/load.h). Every input must
// load or be refused with an error message: no crash, no exception escaping, no hang.
// Inputs naming a shared object are skipped: loading one runs its code (cc_algos/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenario/load.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find(".so") != std::string::npos) return 0;
  const auto s = rtb::scenario::load_scenario_text(text, "fuzz/scenario.toml");
  if (!s && s.error().message.empty()) __builtin_trap();  // a refusal must say why
  return 0;
}
