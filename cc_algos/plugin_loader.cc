#include "cc_algos/plugin_loader.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <memory>

namespace rtb::cc {

Expected<Algorithm> load_plugin(const std::string& path) {
  // RTLD_LOCAL: two plug-ins may define the same helper names without clashing.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    return Error{fmt::format("cannot load congestion-control plug-in '{}': {}", path,
                             why ? why : "dlopen failed")};
  }
  std::shared_ptr<void> library(handle, [](void* h) { ::dlclose(h); });
  ::dlerror();
  void* sym = ::dlsym(handle, RTB_CC_PLUGIN_SYMBOL);
  if (!sym)
    return Error{fmt::format("congestion-control plug-in '{}' does not export '{}' (declare it "
                             "extern \"C\" const rtb_cc_ops* {}(void), see cc_algos/README.md)",
                             path, RTB_CC_PLUGIN_SYMBOL, RTB_CC_PLUGIN_SYMBOL)};
  // POSIX guarantees a data pointer from dlsym converts to a function pointer.
  auto get_ops = reinterpret_cast<rtb_cc_plugin_ops_fn>(sym);
  return Algorithm::from_ops(get_ops(), "plug-in " + path, std::move(library));
}

}  // namespace rtb::cc
