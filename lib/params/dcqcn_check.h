// The imported [cc.params] checked by the algorithm's own parameter check (the one a
// scenario's [cc.params] goes through, cc_algos/dcqcn/dcqcn_params.cc), each of its
// errors and warnings a finding at the source line of the parameter it names. A value the
// check refuses is not written, so the written scenario loads.
#pragma once

#include "params/imported.h"

namespace rtb::params {

void check_cc_params(Imported& in);

}  // namespace rtb::params
