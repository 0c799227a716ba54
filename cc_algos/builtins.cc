#include "cc_algos/builtins.h"

#include <array>

#include "cc_algos/builtin_adapter.h"
#include "cc_algos/dcqcn/dcqcn.h"
#include "cc_algos/dcqcn/dcqcn_paper.h"
#include "cc_algos/dctcp/dctcp.h"
#include "cc_algos/fixed_rate/fixed_rate.h"
#include "cc_algos/hpcc/hpcc.h"
#include "cc_algos/swift/swift.h"
#include "cc_algos/timely/timely.h"

namespace rtb::cc {

std::span<const rtb_cc_ops* const> builtin_ops() {
  static constexpr std::array<const rtb_cc_ops*, 7> kAll{
      &kBuiltinOps<dcqcn::Dcqcn>,
      &kBuiltinOps<dcqcn::DcqcnPaper>,
      &kBuiltinOps<FixedRate>,
      &kBuiltinOps<Timely>,
      &kBuiltinOps<Dctcp>,
      &kBuiltinOps<Swift>,
      &kBuiltinOps<Hpcc>,
  };
  return kAll;
}

}  // namespace rtb::cc
