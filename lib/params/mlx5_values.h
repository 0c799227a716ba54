// mlx5 DCQCN values as scenario keys: a cc_params entry (debugfs name, or its mlxconfig
// NVConfig name) becomes cc.params.<debugfs name>, read as the debugfs file reads what is
// written to it (Linux drivers/infiniband/hw/mlx5/cong.c: kstrtou32_from_user, base 0:
// decimal, 0x hex or 0 octal).
#pragma once

#include <optional>
#include <string>

#include "params/imported.h"

namespace rtb::params {

// The value of a cc_params write, or nullopt when the file would refuse it.
std::optional<uint32_t> parse_kstrtou32(const std::string& text);

// Records cc.params.<name> = the value (and cc.algorithm = "dcqcn", the NIC model); a
// value the file would refuse is a finding and is not written. Names are checked later,
// with the values, by the algorithm's own parameter check (params/dcqcn_check.h).
void add_cc_param(Imported& out, const std::string& name, const std::string& text, const Origin& at,
                  const std::string& source_key);

// The debugfs name of an mlxconfig NVConfig name without its _P1/_P2 suffix
// (RPG_TIME_RESET -> rp_time_reset, cc-reference §1.3 table); "" for one that is not a
// DCQCN parameter.
std::string debugfs_name_of_nvconfig(const std::string& nvconfig);

}  // namespace rtb::params
