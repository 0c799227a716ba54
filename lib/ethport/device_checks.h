// Checks of what a device string points at, made before rte_vdev_init so the user gets
// one clear sentence instead of a PMD's log line and -EINVAL: the capture a pcap device
// reads exists and is readable, the folder it writes to exists, the interface an
// af_packet device opens exists (in PortSpec::netns when set).
#pragma once

#include <string>

#include "core/error.h"
#include "ethport/port_spec.h"

namespace rtb::ethport {

// `device` is the string as the user wrote it (for the message); `netns` as in PortSpec.
Status check_device_resources(const ParsedDevice& parsed, const std::string& device,
                              const std::string& netns);

}  // namespace rtb::ethport
