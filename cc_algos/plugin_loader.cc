#include "cc_algos/plugin_loader.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <fmt/format.h>

#include <memory>

namespace rtb::cc {
namespace {

// The exported symbol's ELF type (System V gABI, "Symbol Table": STT_FUNC or STT_GNU_IFUNC
// for code): a table exported under the function's name would be called as code.
Status check_is_function(void* sym, const std::string& path) {
  Dl_info info{};
  void* entry = nullptr;
  if (::dladdr1(sym, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) {
    return {};  // no symbol table entry to check: trust the name, as dlsym did
  }
  const unsigned type = ELF64_ST_TYPE(static_cast<const ElfW(Sym)*>(entry)->st_info);
  if (type == STT_FUNC || type == STT_GNU_IFUNC) return {};
  return Error{fmt::format("congestion-control plug-in '{}' exports '{}' as {}, not a function: declare it "
                           "extern \"C\" const rtb_cc_ops* {}(void), see cc_algos/README.md",
                           path, RTB_CC_PLUGIN_SYMBOL, type == STT_OBJECT ? "data (an object)" : "a non-function symbol",
                           RTB_CC_PLUGIN_SYMBOL)};
}

}  // namespace

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
  if (Status st = check_is_function(sym, path); !st) return Error{st.message()};
  // POSIX guarantees a data pointer from dlsym converts to a function pointer.
  auto get_ops = reinterpret_cast<rtb_cc_plugin_ops_fn>(sym);
  return Algorithm::from_ops(get_ops(), "plug-in " + path, std::move(library));
}

}  // namespace rtb::cc
