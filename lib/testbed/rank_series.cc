#include "testbed/rank_series.h"

#include <cstring>
#include <type_traits>

namespace rtb::testbed {
namespace {

static_assert(std::is_trivially_copyable_v<FlowSample> && std::is_trivially_copyable_v<QueueSample>);

template <class T>
void put(runtime::Message& m, const std::vector<T>& v) {
  const uint64_t n = v.size();
  const size_t at = m.size();
  m.resize(at + sizeof n + n * sizeof(T));
  std::memcpy(m.data() + at, &n, sizeof n);
  if (n > 0) std::memcpy(m.data() + at + sizeof n, v.data(), n * sizeof(T));
}

template <class T>
size_t take(const runtime::Message& m, size_t at, std::vector<T>& v) {
  uint64_t n = 0;
  std::memcpy(&n, m.data() + at, sizeof n);
  v.resize(n);
  if (n > 0) std::memcpy(v.data(), m.data() + at + sizeof n, n * sizeof(T));
  return at + sizeof n + n * sizeof(T);
}

// Which ranks sample flows (have a host) and queues (have a switch): each rank's scope.
std::vector<bool> ranks_with(runtime::Ranks& ranks, bool mine) {
  const std::byte b{static_cast<unsigned char>(mine)};
  const std::vector<runtime::Message> all = ranks.gather(std::span(&b, 1));
  std::vector<bool> v;
  for (const runtime::Message& m : all) v.push_back(m.at(0) != std::byte{0});
  return v;
}

}  // namespace

RankSeries::RankSeries(runtime::Ranks& ranks, const Testbed& t, SeriesRecorder& local)
    : ranks_(ranks), local_(local) {
  const SampleScope scope = SampleScope::all(t);
  bool hosts = false, switches = false;
  for (bool h : scope.hosts) hosts = hosts || h;
  for (bool w : scope.switches) switches = switches || w;
  const std::vector<bool> flows_from = ranks_with(ranks, hosts);
  const std::vector<bool> queues_from = ranks_with(ranks, switches);
  if (ranks.rank() != 0) return;
  // Every host is on some rank (no stand-ins across ranks): a whole sample has both parts.
  std::vector<uint8_t> parts(t.scenario().flows.size(), FlowSample::kSenderPart | FlowSample::kReceiverPart);
  merger_ = std::make_unique<SampleMerger>(std::move(parts), flows_from, queues_from, 0, local_);
}

void RankSeries::gather() {
  message_.clear();
  put(message_, flows_);
  put(message_, queues_);
  flows_.clear();
  queues_.clear();
  const std::vector<runtime::Message> all = ranks_.gather(message_);
  if (!merger_) return;
  for (size_t r = 0; r < all.size(); ++r) {
    const size_t at = take(all[r], 0, flows_);
    take(all[r], at, queues_);
    for (const FlowSample& x : flows_) merger_->add(r, x);
    for (const QueueSample& x : queues_) merger_->add(r, x);
  }
  flows_.clear();
  queues_.clear();
  merger_->release();
}

void RankSeries::finish() {
  if (merger_) merger_->finish();
}

std::vector<std::string> cc_state_names_everywhere(runtime::Ranks& ranks, const Testbed& t) {
  std::string mine;
  for (const std::string& n : cc_state_names(t)) mine += n + '\n';
  const auto* b = reinterpret_cast<const std::byte*>(mine.data());
  std::vector<runtime::Message> all = ranks.gather(std::span(b, mine.size()));
  // Rank 0 chooses, then tells every rank (the same gather, the other way, costs one more).
  runtime::Message chosen;
  for (const runtime::Message& m : all) {
    if (!m.empty()) {
      chosen = m;
      break;
    }
  }
  std::vector<runtime::Message> out(ranks.size()), in;
  if (ranks.rank() == 0) {
    for (uint32_t r = 1; r < ranks.size(); ++r) out[r] = chosen;
  }
  ranks.exchange(out, in, Time::never(), false);
  if (ranks.rank() != 0) chosen = in[0];
  std::vector<std::string> names;
  std::string cur;
  for (std::byte c : chosen) {
    if (c == std::byte{'\n'}) {
      names.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(c);
    }
  }
  return names;
}

}  // namespace rtb::testbed
