#include "realtime/realtime_scheduler.h"

#include <rte_launch.h>
#include <rte_lcore.h>

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "realtime/control_thread.h"
#include "realtime/lcore_loop.h"
#include "realtime/start_line.h"

namespace rtb::realtime {
namespace {

std::string enabled_lcores() {
  std::string s;
  unsigned lcore;
  RTE_LCORE_FOREACH(lcore) s += (s.empty() ? "" : ",") + std::to_string(lcore);
  return s;
}

// One loop per lcore that has stages, in lcore order; stages in the order added.
std::vector<std::unique_ptr<LcoreLoop>> build_loops(
    const std::vector<std::pair<runtime::Stage*, unsigned>>& placed) {
  std::vector<std::unique_ptr<LcoreLoop>> loops;
  for (const auto& [stage, lcore] : placed) {
    auto it = std::find_if(loops.begin(), loops.end(),
                           [lcore = lcore](const auto& l) { return l->lcore() == lcore; });
    if (it == loops.end()) it = loops.insert(loops.end(), std::make_unique<LcoreLoop>(lcore));
    (*it)->add(*stage);
  }
  std::sort(loops.begin(), loops.end(),
            [](const auto& a, const auto& b) { return a->lcore() < b->lcore(); });
  return loops;
}

RealtimeStats collect(const std::vector<std::unique_ptr<LcoreLoop>>& loops, Time until) {
  RealtimeStats s;
  for (const auto& l : loops) {
    s.lcores.push_back(LcoreStats{l->lcore(), l->loops(), l->polls(), l->lateness(), l->stalled(),
                                  l->catch_up_counters(), l->cpu_seconds(), l->cpu_clock_at_end(),
                                  l->last_now()});
    s.catch_up_counters.merge(l->catch_up_counters());
    s.polls += l->polls();
    s.simulated = std::max(s.simulated, l->last_now());
    s.stopped_early = s.stopped_early || l->ended_at() <= until;
  }
  return s;
}

}  // namespace

runtime::StageId RealtimeScheduler::add(runtime::Stage& stage, unsigned lcore) {
  const auto id = static_cast<runtime::StageId>(placements_.size());
  stage.set_id(id);
  placements_.push_back(Placement{&stage, lcore});
  return id;
}

Status RealtimeScheduler::check_placements(unsigned main_lcore) const {
  if (main_lcore != rte_get_main_lcore() || main_lcore == LCORE_ID_ANY) {
    return Error{"RealtimeScheduler::run() must be called on the EAL main lcore's thread (the "
                 "thread that started the EAL); call it there, after start_eal()"};
  }
  if (placements_.empty()) {
    return Error{"the realtime run has no stages; add them with RealtimeScheduler::add(stage, "
                 "lcore) before run()"};
  }
  for (size_t i = 0; i < placements_.size(); ++i) {
    const Placement& p = placements_[i];
    for (size_t j = 0; j < i; ++j) {
      if (placements_[j].stage == p.stage) {
        return Error{fmt::format("stage '{}' was added twice (ids {} and {}); a stage is polled "
                                 "by exactly one lcore, so add it once", p.stage->name(), j, i)};
      }
    }
    if (p.lcore == main_lcore) continue;
    if (p.lcore >= RTE_MAX_LCORE || !rte_lcore_is_enabled(p.lcore)) {
      return Error{fmt::format("stage '{}' is placed on lcore {}, which the EAL was not started "
                               "with (its lcores: {}); add {} to EalOptions::worker_lcores or "
                               "place the stage on one of those", p.stage->name(), p.lcore,
                               enabled_lcores(), p.lcore)};
    }
    if (rte_eal_get_lcore_state(p.lcore) != WAIT) {
      return Error{fmt::format("stage '{}' is placed on lcore {}, which is busy running another "
                               "function; wait for it (rte_eal_wait_lcore) or place the stage "
                               "on an idle lcore", p.stage->name(), p.lcore)};
    }
  }
  return {};
}

Expected<RealtimeStats> RealtimeScheduler::run(TscClock& clock, Time until,
                                               Time lateness_budget, std::string budget_reason,
                                               std::function<void()> control,
                                               std::chrono::microseconds control_period) {
  const unsigned main_lcore = rte_lcore_id();
  if (Status s = check_placements(main_lcore); !s) return Error{s.message()};
  std::vector<std::pair<runtime::Stage*, unsigned>> placed;
  for (const Placement& p : placements_) placed.emplace_back(p.stage, p.lcore);
  const std::vector<std::unique_ptr<LcoreLoop>> loops = build_loops(placed);
  for (const auto& loop : loops) {
    loop->set_catch_up(catch_up_);
  }

  StartLine start(loops.size());
  LcoreLoop* main_loop = nullptr;
  for (const auto& loop : loops) {
    if (loop->lcore() == main_lcore) {
      main_loop = loop.get();
    } else if (!start.launch(Launch{loop.get(), &clock, until, &stop_})) {
      break;
    }
  }
  if (!start.error().empty()) {
    request_stop();  // the workers already launched end at once
    start.release();
    start.wait(/*main_idle=*/true);
    stop_.store(false, std::memory_order_relaxed);
    return Error{start.error()};
  }

  clock.start();  // before the control thread, which may read the clock at once
  ControlThread control_thread(std::move(control), control_period);
  const auto wall_start = std::chrono::steady_clock::now();
  start.release();
  if (main_loop != nullptr) main_loop->run(clock, until, stop_);
  start.wait(/*main_idle=*/main_loop == nullptr);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  control_thread.finish();
  stop_.store(false, std::memory_order_relaxed);

  RealtimeStats stats = collect(loops, until);
  stats.wall_seconds = wall.count();
  stats.control_calls = control_thread.calls();
  stats.catch_up = catch_up_;
  LatenessHistogram merged;
  for (const LcoreStats& l : stats.lcores) merged.merge(l.lateness);
  stats.lateness = make_report(merged, lateness_budget, std::move(budget_reason));
  check_stalls(stats);
  return stats;
}

void RealtimeScheduler::check_stalls(RealtimeStats& stats) const {
  if (stats.wall_seconds <= 0 || !stats.lateness.valid) return;
  for (const LcoreStats& l : stats.lcores) {
    const double fraction = l.stalled.s_f() / stats.wall_seconds;
    if (fraction <= max_stalled_fraction_) continue;
    stats.lateness.valid = false;
    stats.lateness.reason = fmt::format(
        "lcore {} did not run for {} in total ({:.1f}% of the run's wall time: its CPU time was "
        "that much shorter), more than the {:.1f}% allowed: the machine did not give it a whole "
        "core (other busy processes?)",
        l.lcore, format_span(l.stalled), 100 * fraction, 100 * max_stalled_fraction_);
    return;
  }
}

namespace {

nlohmann::ordered_json counters_json(const CatchUpCounters& c) {
  return {{"polls", c.polls},
          {"window_overruns", c.window_overruns},
          {"skipped_ns", static_cast<double>(c.skipped.ps()) / 1e3},
          {"burst_limited", c.burst_limited}};
}

// One sentence when the loops needed more than the bounds gave them, else null.
nlohmann::ordered_json catch_up_note(const CatchUp& b, const CatchUpCounters& c) {
  if (c.window_overruns == 0 && c.burst_limited == 0) return nullptr;
  return fmt::format(
      "the loops fell behind the clock by more than the {} catch-up window {} times (the model "
      "skipped {} in all) and ended {} bursts at {} polls with work still due",
      format_span(b.window), c.window_overruns, format_span(c.skipped), c.burst_limited,
      b.max_polls);
}

}  // namespace

nlohmann::ordered_json RealtimeStats::to_json() const {
  nlohmann::ordered_json j;
  j["simulated_ns"] = static_cast<double>(simulated.ps()) / 1e3;
  j["wall_seconds"] = wall_seconds;
  j["polls"] = polls;
  j["stopped_early"] = stopped_early;
  j["control_calls"] = control_calls;
  j["lateness"] = lateness.to_json();
  nlohmann::ordered_json cu = {{"window_ns", static_cast<double>(catch_up.window.ps()) / 1e3},
                               {"max_polls", catch_up.max_polls}};
  cu.update(counters_json(catch_up_counters));
  cu["exceeded"] = catch_up_counters.window_overruns > 0 || catch_up_counters.burst_limited > 0;
  cu["note"] = catch_up_note(catch_up, catch_up_counters);
  j["catch_up"] = std::move(cu);
  nlohmann::ordered_json per_lcore = nlohmann::ordered_json::array();
  for (const LcoreStats& l : lcores) {
    per_lcore.push_back({{"lcore", l.lcore},
                         {"loops", l.loops},
                         {"polls", l.polls},
                         {"due_polls", l.lateness.count()},
                         {"lateness_p99_ns", static_cast<double>(l.lateness.quantile(0.99).ps()) / 1e3},
                         {"lateness_max_ns", static_cast<double>(l.lateness.max().ps()) / 1e3},
                         {"stalled_ns", static_cast<double>(l.stalled.ps()) / 1e3},
                         {"cpu_seconds", l.cpu_seconds},
                         {"catch_up", counters_json(l.catch_up)}});
  }
  j["lcores"] = per_lcore;
  return j;
}

}  // namespace rtb::realtime
