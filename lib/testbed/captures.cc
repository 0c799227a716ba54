#include "testbed/captures.h"

#include <fmt/format.h>

#include <filesystem>

namespace rtb::testbed {

Expected<std::unique_ptr<tap::CaptureSet>> open_captures(const Testbed& t, const tap::CaptureRequest& request,
                                                         tap::CaptureSet::Mode mode, uint64_t origin_ns) {
  if (request.empty()) return std::unique_ptr<tap::CaptureSet>();
  std::error_code ec;
  std::filesystem::create_directories(request.dir, ec);
  if (ec) return Error{fmt::format("--capture: cannot create the folder {}: {}", request.dir, ec.message())};
  const auto wire_of = [&t](tap::Direction d) { return t.end_links(d.link, d.a_to_b).tx; };
  return tap::CaptureSet::open(request, t.scenario().topology, wire_of, mode, origin_ns);
}

}  // namespace rtb::testbed
