#include "switch/validate.h"

#include <fmt/format.h>

#include <algorithm>

#include "switch/buffer_layout.h"
#include "switch/headroom.h"
#include "wire/int_trailer.h"

namespace rtb::sw {
namespace {

class Checker {
 public:
  Checker(const SwitchConfig& c, ValidationReport& r) : c_(c), r_(r), layout_(buffer_layout(c)) {}

  void run() {
    check_ports();
    check_maps();
    check_pool();
    check_lossy_pool();
    for (int pg = 0; pg < kPriorities; ++pg) check_pg(pg);
    for (int q = 0; q < kPriorities; ++q) check_queue(q);
    check_pfc();
    check_pfcwd();
    check_routes();
    check_int();
  }

 private:
  template <typename... Args>
  void error(fmt::format_string<Args...> f, Args&&... args) {
    r_.errors.push_back(fmt::format("{}: ", c_.name) + fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  void warn(fmt::format_string<Args...> f, Args&&... args) {
    r_.warnings.push_back(fmt::format("{}: ", c_.name) + fmt::format(f, std::forward<Args>(args)...));
  }
  // A port's warning names the port before ": ", so that the same cause on many ports reads
  // as one line with a count (scenario/warning_summary.h).
  template <typename... Args>
  void warn_port(const PortConfig& port, fmt::format_string<Args...> f, Args&&... args) {
    r_.warnings.push_back(fmt::format("{} port {}: ", c_.name, port.name) + fmt::format(f, std::forward<Args>(args)...));
  }

  void check_ports() {
    if (c_.ports.empty()) error("ports: none configured; a switch needs at least one port");
    for (const PortConfig& p : c_.ports) {
      if (p.rate == Rate::zero()) error("port {} speed = 0 b/s: expected a positive rate", p.name);
      if (p.shaper && *p.shaper == Rate::zero()) error("port {} shaper pir = 0 b/s: expected a positive rate", p.name);
      if (p.mtu < 64 || p.mtu > 16'000) error("port {} mtu = {} B: expected 64..16000", p.name, p.mtu);
      if (p.shaper && *p.shaper > p.rate) {
        warn_port(p, "shaper pir = {} b/s is above the line rate {} b/s and has no effect", p.shaper->bps(),
                  p.rate.bps());
      }
    }
  }

  void check_maps() {
    check_map_ranges(c_.maps, "");
    if (r_.errors.empty()) check_lossless_queues(c_.maps, c_.pfc_enable, "");
    for (size_t i = 0; i < c_.ports.size(); ++i) {
      const PortConfig& p = c_.ports[i];
      if (p.maps) check_map_ranges(*p.maps, "PORT_QOS_MAP|" + p.name + " ");
      if ((p.maps || p.pfc_enable) && r_.errors.empty())
        check_lossless_queues(c_.port_maps(i), c_.port_pfc_enable(i), "PORT_QOS_MAP|" + p.name + " ");
    }
    if (!c_.maps.trust_dot1p_when_tagged) check_lossless_reachable();
  }

  // A lossless TC's frames wait in queue TC_TO_QUEUE_MAP[tc]; PFC for priority n pauses queue
  // n (PFC_PRIORITY_TO_QUEUE_MAP, the identity), and the PFC frame of the TC's PG names the
  // lossless TCs of that PG. Another queue is not paused: the TC is lossless at ingress but
  // its frames are dropped, not held, once the neighbour's headroom fills. A warning, as
  // SONiC accepts the maps.
  void check_lossless_queues(const QosMaps& m, uint8_t pfc_enable, const std::string& port) {
    for (int tc = 0; tc < kPriorities; ++tc) {
      if (((pfc_enable >> tc) & 1u) == 0) continue;
      const int q = m.tc_to_queue[tc];
      if (((pfc_enable >> q) & 1u) != 0 && m.tc_to_pg[q] == m.tc_to_pg[tc]) continue;
      warn("{}TC_TO_QUEUE_MAP {} = {}: lossless TC {} goes to queue {}, which the PFC of its priority group pg{} "
           "does not pause (PFC for priority n pauses queue n): a lossless class in a queue without PFC",
           port, tc, q, tc, q, m.tc_to_pg[tc]);
    }
  }

  void check_map_ranges(const QosMaps& m, const std::string& port) {
    for (int i = 0; i < 64; ++i) {
      if (m.dscp_to_tc[i] >= kPriorities)
        error("{}DSCP_TO_TC_MAP {} = {}: expected a traffic class 0..7", port, i, m.dscp_to_tc[i]);
    }
    for (int i = 0; i < kPriorities; ++i) {
      if (m.dot1p_to_tc[i] >= kPriorities)
        error("{}DOT1P_TO_TC_MAP {} = {}: expected a traffic class 0..7", port, i, m.dot1p_to_tc[i]);
      if (m.tc_to_pg[i] >= kPriorities)
        error("{}TC_TO_PRIORITY_GROUP_MAP {} = {}: expected a priority group 0..7", port, i, m.tc_to_pg[i]);
      if (m.tc_to_queue[i] >= kPriorities)
        error("{}TC_TO_QUEUE_MAP {} = {}: expected a queue 0..7", port, i, m.tc_to_queue[i]);
    }
  }

  // Trust dscp: a lossless TC no DSCP maps to carries nothing. A warning, not an error:
  // SONiC accepts it and nothing is lost; its PG's headroom is only reserved for nothing.
  void check_lossless_reachable() {
    for (int tc = 0; tc < kPriorities; ++tc) {
      if (!c_.lossless_tc(tc)) continue;
      const auto& m = c_.maps.dscp_to_tc;
      if (std::find(m.begin(), m.end(), tc) != m.end()) continue;
      warn("PORT_QOS_MAP pfc_enable: lossless TC {} receives no traffic: no DSCP maps to it in DSCP_TO_TC_MAP "
           "(trust dscp)", tc);
    }
  }

  void check_pool() {
    const uint64_t cell = c_.pool.cell.count();
    if (cell < 64 || cell > 4096) {
      error("BUFFER_POOL cell = {} B: expected 64..4096 bytes", cell);
      return;
    }
    if (!layout_.fits) {
      error("BUFFER_POOL size = {} B: reserved {} B + headroom {} B ({}) do not fit, leaving no shared "
            "buffer; expected reserved + headroom < size",
            c_.pool.size.count(), layout_.reserved_cells * cell, layout_.headroom_cells * cell,
            c_.pool.xoff.count() > 0 ? "BUFFER_POOL xoff, the shared headroom pool"
                                     : fmt::format("{} ports x lossless PG xoff", c_.ports.size()));
    }
  }

  // The lossy pool (BUFFER_POOL lossy_size; config.h). An error when a largest frame can
  // never be admitted; only a warning below one largest frame per (port, lossy queue):
  // dynamic thresholds share the pool, so that is risky, not broken, and an error would
  // refuse wide switches at the default size.
  void check_lossy_pool() {
    if (!layout_.lossy_pool || c_.pool.cell.count() < 64 || c_.pool.cell.count() > 4096) return;
    const uint64_t cell = layout_.cell_bytes;
    uint32_t frame = 0;
    for (const PortConfig& p : c_.ports) frame = std::max({frame, p.mtu, c_.peer_mtu(p)});
    const uint64_t frame_cells = cells_for(frame, cell);
    if (!layout_.lossy_fits || layout_.lossy_shared_cells < frame_cells) {
      error("BUFFER_POOL lossy_size = {} B: lossy PG reserved {} B ({} ports x lossy PG size) leave "
            "{} B shared, below one largest frame ({} B in {} cells); expected lossy_size >= reserved "
            "+ {} B, or lossy_size = 0 for one pool", c_.pool.lossy_size.count(),
            layout_.lossy_reserved_cells * cell, c_.ports.size(), layout_.lossy_shared_cells * cell,
            frame, frame_cells, frame_cells * cell);
      return;
    }
    if (c_.pfc_enable == 0) {
      warn("pfc_enable is empty: every PG is lossy and uses the lossy pool (BUFFER_POOL lossy_size = {} "
           "B); BUFFER_POOL size = {} B holds no traffic. Set lossy_size = 0 for one pool",
           c_.pool.lossy_size.count(), c_.pool.size.count());
    }
    uint64_t lossy_queues = 0;
    for (int q = 0; q < kPriorities; ++q) lossy_queues += c_.lossless_tc(q) ? 0 : 1;
    const uint64_t want = c_.ports.size() * lossy_queues * frame_cells * cell;
    if (layout_.lossy_total_cells * cell < want) {
      warn("BUFFER_POOL lossy_size = {} B is below one largest frame per lossy queue ({} ports x {} "
           "lossy queues x {} B = {} B): a busy lossy queue can starve the others (CNPs on TC 6)",
           c_.pool.lossy_size.count(), c_.ports.size(), lossy_queues, frame_cells * cell, want);
    }
    for (int tc = 0; tc < kPriorities; ++tc) {
      if (c_.lossless_tc(tc) || !c_.lossless_pg(c_.maps.tc_to_pg[tc])) continue;
      warn("TC_TO_PRIORITY_GROUP_MAP {} = {}: lossy TC {} shares lossless pg{}, so its frames take "
           "lossless-pool cells while queue{}'s egress limit measures the lossy pool",
           tc, c_.maps.tc_to_pg[tc], tc, c_.maps.tc_to_pg[tc], tc);
    }
  }

  uint64_t xoff_point_bytes(const PgProfile& p) const {
    const uint64_t cell = layout_.cell_bytes;
    return p.size.count() + single_pg_shared_limit_cells(p, layout_.shared_cells, cell) * cell;
  }

  void check_pg(int pg) {
    const PgProfile& p = c_.pg[pg];
    if (p.mode == ThresholdMode::kDynamic && (p.dynamic_th < -8 || p.dynamic_th > 8)) {
      error("BUFFER_PROFILE pg{} dynamic_th = {}: expected -8..8 (alpha = 2^dynamic_th)", pg, p.dynamic_th);
      return;
    }
    if (!c_.lossless_pg(pg)) return;
    const uint64_t xoff_point = xoff_point_bytes(p);
    if (p.xoff.count() == 0) error("BUFFER_PROFILE pg{} xoff = 0 B: a lossless PG needs headroom", pg);
    if (p.xon_offset.count() >= xoff_point) {
      error("BUFFER_PROFILE pg{} xon_offset = {} B is not below the XOFF point {} B (size {} B + "
            "shared limit): XON would never be sent; expected xon_offset < XOFF point",
            pg, p.xon_offset.count(), xoff_point, p.size.count());
    }
    if (p.mode == ThresholdMode::kStatic && layout_.fits &&
        p.static_th.count() > layout_.shared_cells * layout_.cell_bytes) {
      warn("BUFFER_PROFILE pg{} static_th = {} B is above the shared buffer {} B (size {} B - reserved "
           "{} B - headroom {} B): XOFF will come from the pool running out, not from this threshold",
           pg, p.static_th.count(), layout_.shared_cells * layout_.cell_bytes, c_.pool.size.count(),
           layout_.reserved_cells * layout_.cell_bytes, layout_.headroom_cells * layout_.cell_bytes);
    }
    if (c_.pool.xoff.count() > 0 && c_.pool.xoff < p.xoff) {
      warn("BUFFER_POOL xoff = {} B (shared headroom pool) is below BUFFER_PROFILE pg{} xoff = {} B: "
           "one PG alone cannot use all its headroom", c_.pool.xoff.count(), pg, p.xoff.count());
    }
    for (const PortConfig& port : c_.ports) check_headroom(pg, p, port);
  }

  void check_headroom(int pg, const PgProfile& p, const PortConfig& port) {
    if (port.rate == Rate::zero()) return;  // refused above
    const HeadroomNeed need = headroom_need(
        {port.rate, port.propagation, port.mtu, c_.peer_mtu(port), Bytes(layout_.cell_bytes)});
    if (p.xoff >= need.need) return;
    warn_port(port, "BUFFER_PROFILE pg{} xoff = {} B (headroom) is below the {} B the cable needs; "
              "lossless frames may be dropped:\n{}",
              pg, p.xoff.count(), need.need.count(), need.describe());
  }

  void check_queue(int q) {
    const EgressProfile& e = c_.egress[q];
    if (!c_.lossless_tc(q) && e.mode == ThresholdMode::kDynamic && (e.dynamic_th < -8 || e.dynamic_th > 8))
      error("BUFFER_PROFILE queue{} dynamic_th = {}: expected -8..8", q, e.dynamic_th);
    const SchedulerConfig& s = c_.scheduler[q];
    if (s.type == SchedulerConfig::Type::kDwrr && (s.weight < 1 || s.weight > 100))
      error("SCHEDULER queue{} weight = {}: expected 1..100", q, s.weight);
    if (c_.wred[q]) check_wred(q, *c_.wred[q]);
    if (c_.aqm[q]) check_aqm(q, *c_.aqm[q]);
  }

  // Step and PIE (aqm/profiles.h). A queue runs one AQM: WRED or one of these.
  void check_aqm(int q, const AqmProfile& a) {
    if (c_.wred[q])
      error("queue{} has both a WRED_PROFILE and the {} AQM: expected one AQM per queue", q, aqm_name(a));
    if (const auto* pie = std::get_if<PieProfile>(&a); pie && pie->t_update == Time::zero())
      error("PIE queue{} t_update = 0: expected an update period above 0 (RFC 8033 T_UPDATE)", q);
    const auto* step = std::get_if<StepProfile>(&a);
    if (!step || !c_.lossless_tc(q)) return;
    const int pg = c_.maps.tc_to_pg[q];
    const uint64_t xoff_point = xoff_point_bytes(c_.pg[pg]);
    if (step->k_threshold.count() >= xoff_point) {
      warn("STEP queue{} k_threshold = {} B (egress queue bytes) is not below the PFC XOFF point of "
           "pg{} = {} B (ingress bytes): PFC will fire before ECN can act",
           q, step->k_threshold.count(), pg, xoff_point);
    }
  }

  void check_wred(int q, const WredProfile& w) {
    const uint64_t kmin = w.green_min_threshold.count(), kmax = w.green_max_threshold.count();
    if (kmin > kmax) {
      error("WRED_PROFILE queue{} green_min_threshold = {} B is above green_max_threshold = {} B; "
            "expected min <= max", q, kmin, kmax);
    }
    if (w.green_drop_probability > 100) {
      error("WRED_PROFILE queue{} green_drop_probability = {}: expected a percentage 0..100", q,
            w.green_drop_probability);
    }
    if (!c_.lossless_tc(q) || !ecn_marks_green(w.ecn)) return;
    const int pg = c_.maps.tc_to_pg[q];
    const uint64_t xoff_point = xoff_point_bytes(c_.pg[pg]);
    if (kmin >= xoff_point) {
      warn("WRED_PROFILE queue{} green_min_threshold = {} B (egress queue bytes) is not below the PFC "
           "XOFF point of pg{} = {} B (ingress bytes: size {} B + shared limit {} B): PFC will fire "
           "before ECN can act",
           q, kmin, pg, xoff_point, c_.pg[pg].size.count(), xoff_point - c_.pg[pg].size.count());
    } else if (kmax > xoff_point) {
      warn("WRED_PROFILE queue{} green_max_threshold = {} B (egress queue bytes) is above the PFC XOFF "
           "point of pg{} = {} B: marking reaches {} % only after PFC has fired",
           q, kmax, pg, xoff_point, w.green_drop_probability);
    }
  }

  void check_pfc() {
    if (c_.pfc.pause_quanta == 0) {
      error("pfc pause_quanta = 0: an XOFF frame needs quanta 1..65535 (0 means XON)");
      return;
    }
    for (const PortConfig& port : c_.ports) {
      if (port.rate == Rate::zero()) continue;  // refused above
      const Time pause = port.rate.time_for(Bytes(64) * c_.pfc.pause_quanta);
      if (c_.pfc.refresh_interval >= pause) {
        warn_port(port, "pfc refresh_interval = {} ps is not below the pause time {} ps ({} quanta x "
                  "512 bit / {} b/s): the neighbour resumes before each refresh",
                  c_.pfc.refresh_interval.ps(), pause.ps(), c_.pfc.pause_quanta, port.rate.bps());
      }
    }
  }

  void check_pfcwd() {
    const PfcWdConfig& w = c_.pfcwd;
    if (!w.enabled) return;
    check_wd_time("detection_time", w.detection_time, Time::ms(100), Time::ms(5'000));
    check_wd_time("restoration_time", w.restoration_time, Time::ms(100), Time::ms(60'000));
    check_wd_time("POLL_INTERVAL", w.poll_interval, Time::ms(100), Time::ms(1'000));
    if (w.poll_interval > w.detection_time) {
      warn("PFC_WD POLL_INTERVAL = {} ms is above detection_time = {} ms: storms are detected up to "
           "one poll late", w.poll_interval.us_f() / 1e3, w.detection_time.us_f() / 1e3);
    }
  }

  void check_wd_time(const char* key, Time t, Time lo, Time hi) {
    if (t == Time::zero()) {
      error("PFC_WD {} = 0: expected a positive time", key);
    } else if (t < lo || t > hi) {
      warn("PFC_WD {} = {} ms is outside the range SONiC's pfcwd command accepts ({}..{} ms)", key,
           t.us_f() / 1e3, lo.us_f() / 1e3, hi.us_f() / 1e3);
    }
  }

  // INT records carry a 3-bit link-rate code (wire/int_trailer.h).
  void check_int() {
    if (c_.int_dscp == kNoIntDscp) return;
    if (c_.int_dscp > 63) error("int_dscp = {}: expected a DSCP 0..63", c_.int_dscp);
    for (const PortConfig& port : c_.ports) {
      if (!wire::int_rate_code(port.rate.bps())) {
        error("port {}: rate {} b/s cannot be carried in an HPCC INT record (expected 10, 25, 40, "
              "50, 100, 200, 400 or 800 Gb/s)", port.name, port.rate.bps());
      }
    }
  }

  void check_routes() {
    for (const Route& r : c_.routes) {
      if (r.prefix_len > 32) error("route {:#010x}/{}: prefix length above 32", r.prefix, r.prefix_len);
      if (r.ports.empty()) error("route {:#010x}/{}: no next-hop ports", r.prefix, r.prefix_len);
      for (uint16_t p : r.ports) {
        if (p >= c_.ports.size())
          error("route {:#010x}/{}: next-hop port {} does not exist (the switch has {} ports)", r.prefix,
                r.prefix_len, p, c_.ports.size());
      }
    }
  }

  const SwitchConfig& c_;
  ValidationReport& r_;
  BufferLayout layout_;
};

}  // namespace

ValidationReport validate(const SwitchConfig& config) {
  ValidationReport r;
  Checker(config, r).run();
  return r;
}

// Static thresholds: k PGs at static_th fill the shared buffer. With k below the ports that
// may send at once, the pool runs out before any PG reaches its XOFF point; a frame that
// then arrives on any port goes to its PG's headroom, and a PG in headroom sends XOFF
// (Mmu::xoff_reached), so ports that are not congested are paused too: an incast's
// receiver, whose ACKs and CNPs share the lossless priority.
std::vector<std::string> pool_before_xoff_warnings(const SwitchConfig& c) {
  std::vector<std::string> out;
  const BufferLayout l = buffer_layout(c);
  const uint64_t shared = l.shared_cells * l.cell_bytes;
  for (int pg = 0; pg < kPriorities; ++pg) {
    const PgProfile& p = c.pg[pg];
    const uint64_t th = p.static_th.count();
    if (!c.lossless_pg(pg) || p.mode != ThresholdMode::kStatic || !l.fits || th == 0 || th > shared) continue;
    const uint64_t k = shared / th + 1;  // PGs at the threshold that hold more than the buffer
    if (k >= c.ports.size()) continue;
    out.push_back(fmt::format(
        "{}: BUFFER_PROFILE pg{} static_th = {} B lets the shared buffer run out before a PG reaches "
        "XOFF: {} PGs x {} B = {} B > shared buffer {} B (size {} B - reserved {} B - headroom {} B), "
        "of {} ports. Once it is out, a lossless frame arriving on any port goes to headroom and that "
        "port is paused, congested or not (an incast's receiver is paused for its ACKs and CNPs); "
        "for PFC only where the queue builds, expected static_th <= {} B (shared buffer / ports) or "
        "dynamic_th",
        c.name, pg, th, k, th, k * th, shared, c.pool.size.count(), l.reserved_cells * l.cell_bytes,
        l.headroom_cells * l.cell_bytes, c.ports.size(), shared / c.ports.size()));
  }
  return out;
}

std::string ValidationReport::describe() const {
  std::string s;
  for (const std::string& e : errors) s += "error: " + e + "\n";
  for (const std::string& w : warnings) s += "warning: " + w + "\n";
  return s;
}

}  // namespace rtb::sw
