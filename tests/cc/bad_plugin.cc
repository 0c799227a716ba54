// Plug-ins with one defect each (selected by a -DRTB_BAD_* define), for the refusal
// tests: rocetb must refuse each with a clear message.
#include "rocetb_cc.h"

namespace {

int parse(const rtb_cc_param*, size_t, void*, const rtb_cc_report*) { return 0; }
void start(const void*, void*, const rtb_cc_flow_start* s, uint64_t, rtb_cc_decision* out) {
  *out = rtb_cc_decision{s->line_rate_bps, RTB_CC_NO_WINDOW, RTB_CC_NEVER_PS};
}
void timer(const void*, void*, uint64_t, rtb_cc_decision*) {}
[[maybe_unused]] void cnp(const void*, void*, uint64_t, rtb_cc_decision*) {}

#if defined(RTB_BAD_WRONG_ABI)
constexpr uint32_t kAbi = RTB_CC_ABI_VERSION + 1;
#else
constexpr uint32_t kAbi = RTB_CC_ABI_VERSION;
#endif
#if defined(RTB_BAD_HUGE_STATE)
constexpr uint32_t kState = 1u << 20;
#elif defined(RTB_BAD_ZERO_STATE)
constexpr uint32_t kState = 0;
#else
constexpr uint32_t kState = 8;
#endif

#if defined(RTB_BAD_BUILTIN_NAME)
constexpr const char* kName = "dcqcn";
#else
constexpr const char* kName = "bad";
#endif

#if defined(RTB_BAD_INT_NO_ACK_HOOK)
constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_INT;  // HPCC-style INT hops, but no on_ack
#elif defined(RTB_BAD_UNKNOWN_FEEDBACK)
constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_CNP | (1u << 7);
#else
constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_CNP;
#endif

const rtb_cc_ops kOps = {kAbi, kFeedback, kName, "broken on purpose", kState, 8, 8, 8,
                         parse, start, timer,
#if defined(RTB_BAD_NO_CNP_HOOK)
                         nullptr,
#else
                         cnp,
#endif
                         nullptr,
                         nullptr, nullptr};

}  // namespace

#if defined(RTB_BAD_MISSING_SYMBOL)
extern "C" __attribute__((visibility("default"))) const rtb_cc_ops* rtb_cc_ops_misspelled(void) {
  return &kOps;
}
#elif defined(RTB_BAD_DATA_SYMBOL)
// The table itself under the function's name: calling it would jump into data.
extern "C" __attribute__((visibility("default"))) const rtb_cc_ops rtb_cc_plugin_ops = kOps;
#else
extern "C" __attribute__((visibility("default"))) const rtb_cc_ops* rtb_cc_plugin_ops(void) {
  return &kOps;
}
#endif
