#include "cc_algos/builtins.h"

#include <array>

#include "cc_algos/builtin_adapter.h"
#include "cc_algos/dcqcn/dcqcn.h"
#include "cc_algos/dcqcn/dcqcn_paper.h"
#include "cc_algos/fixed_rate/fixed_rate.h"

namespace rtb::cc {

std::span<const rtb_cc_ops* const> builtin_ops() {
  static constexpr std::array<const rtb_cc_ops*, 3> kAll{
      &kBuiltinOps<dcqcn::Dcqcn>,
      &kBuiltinOps<dcqcn::DcqcnPaper>,
      &kBuiltinOps<FixedRate>,
  };
  return kAll;
}

}  // namespace rtb::cc
