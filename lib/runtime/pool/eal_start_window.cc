#include "runtime/pool/eal_start_window.h"

namespace rtb::runtime {
namespace {

thread_local bool t_inside = false;
thread_local uint32_t t_begun = 0;

}  // namespace

void begin_eal_start() {
  t_inside = true;
  ++t_begun;
}

void end_eal_start() { t_inside = false; }

bool inside_eal_start() { return t_inside; }

uint32_t eal_starts_begun() { return t_begun; }

}  // namespace rtb::runtime
