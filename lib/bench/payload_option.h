// `--payload` of the modes that send a long message's frames (tx, rx): a RoCE path MTU.
#pragma once

#include <fmt/format.h>

#include <cstdint>

#include "core/error.h"
#include "wire/frame_size.h"

namespace rtb::bench {

inline Status check_path_mtu_payload(uint32_t payload) {
  if (wire::path_mtu_valid(payload)) return {};
  return Error{fmt::format("--payload {}: expected a RoCE path MTU: 256, 512, 1024, 2048 or 4096", payload)};
}

}  // namespace rtb::bench
