// Asserts stay on in every build, the release build included (meson.build: b_ndebug=false),
// so an assert must cost little beside the work it guards. A check that costs more (one
// that recomputes a cache from scratch at every use, such as the switch's egress instants
// at every deadline: 13% of the scheduler's instructions on a fabric of 24-port switches)
// is RTB_DEBUG_ASSERT: compiled where meson's `debug` option is on (the debug and
// debugoptimized builds, and the sanitizer builds of scripts/asan.sh and scripts/tsan.sh),
// left out of the release build.
#pragma once

#include <cassert>

#ifdef RTB_DEBUG_CHECKS
#define RTB_DEBUG_ASSERT(cond) assert(cond)
#else
#define RTB_DEBUG_ASSERT(cond) static_cast<void>(0)
#endif
