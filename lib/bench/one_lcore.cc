#include "bench/one_lcore.h"

#include "realtime/tsc_clock.h"

namespace rtb::bench {

Expected<realtime::RealtimeStats> run_one_lcore(std::initializer_list<runtime::Stage*> stages,
                                                unsigned lcore, Time duration,
                                                realtime::CatchUp catch_up, BenchReport& rep) {
  realtime::TscClock clock = realtime::TscClock::calibrate();
  realtime::RealtimeScheduler s;
  for (runtime::Stage* st : stages) s.add(*st, lcore);
  s.set_stall_rule(0.01);
  s.set_catch_up(catch_up);
  auto st = s.run(clock, duration, Time::never(), "");
  if (!st) return Error{st.error().message};
  rep.valid = st->lateness.valid;
  rep.reason = st->lateness.reason;
  return st;
}

}  // namespace rtb::bench
