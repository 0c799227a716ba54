// The sending side of one RC queue pair: messages segmented into path-MTU frames, PSN
// accounting, cumulative ACKs, and go-back-N recovery on a NAK or a retransmission
// timeout, as an RC requester does (IBTA vol 1 §9.7.4, "Requester side"; ConnectX
// behaves as go-back-N on RoCE). Pure logic: no frames, no clock; the host stage turns
// each FrameDesc into bytes with the wire layer and passes `now` in.
//
// PSN ranges are given to messages when they are posted, in order: message i holds
// [first_psn, first_psn + frames). Frame k of a message of n frames is ONLY (n = 1),
// FIRST (k = 0), LAST (k = n - 1) or MIDDLE; RDMA WRITE FIRST/ONLY carry the RETH.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"

namespace rtb::host {

enum class Verb : uint8_t { kWrite, kSend };

struct RequesterConfig {
  uint32_t path_mtu = 1024;  // payload bytes per frame
  Verb verb = Verb::kWrite;
  uint32_t ack_req_every = 1;  // AckReq on every Nth frame (and always on LAST/ONLY)
  // mlx5-style transport timer: 4.096 us x 2^local_ack_timeout (IBTA §9.7.6.1.3; the
  // verbs attribute `timeout`). perftest's default is 14 (67 ms); rocetb's is 10 (4.2 ms).
  uint8_t local_ack_timeout = 10;
  uint8_t retry_cnt = 7;  // retries after the first timeout before the QP fails
  uint32_t start_psn = 0;
};

Time ack_timeout(uint8_t local_ack_timeout);

struct MessageRecord {
  uint64_t bytes = 0;
  Time start;                      // may not start sending before this
  Time completed = Time::never();  // when its last frame was acknowledged
  uint32_t first_psn = 0;
  uint32_t frames = 0;
};

struct FrameDesc {
  uint8_t opcode = 0;
  uint32_t psn = 0;
  uint32_t payload_bytes = 0;
  bool ack_req = false;
  bool retransmission = false;
  uint32_t message = 0;        // index of the message
  uint64_t message_bytes = 0;  // the RETH DMA length on FIRST/ONLY writes
  uint64_t offset = 0;         // of this frame's payload in the message
};

struct RequesterCounters {
  uint64_t frames_sent = 0;
  uint64_t payload_bytes_sent = 0;  // retransmissions included
  uint64_t retransmitted_frames = 0;
  uint64_t retransmitted_bytes = 0;
  uint64_t acks = 0;
  uint64_t naks_seq_err = 0;  // mlx5 packet_seq_err
  uint64_t timeouts = 0;
  uint64_t transport_retries_exceeded = 0;  // 1 once the QP failed after the retry limit
  uint64_t messages_completed = 0;
};

class Requester {
 public:
  explicit Requester(const RequesterConfig& config);

  // Messages are posted in start order before or during the run; at most
  // kMaxMessageBytes each (IBTA's 2^31, which also keeps a message's PSNs within half
  // the PSN space at every path MTU).
  static constexpr uint64_t kMaxMessageBytes = 1ull << 31;
  void post(uint64_t bytes, Time start);

  // A frame may be sent now: not failed, and the next PSN's message has started.
  bool has_frame(Time now) const;
  // When the next frame's message starts (never if nothing is left to send).
  Time next_start() const;
  FrameDesc next_frame(Time now);
  // Starts loading the record of the message the next frame belongs to.
  void prefetch_next_message() const {
    if (nxt_msg_ < messages_.size()) __builtin_prefetch(&messages_[nxt_msg_]);
  }

  // A cumulative ACK of every PSN up to and including `psn`. Returns the payload bytes it
  // acknowledged for the first time (0 for a stale or duplicate ACK).
  uint64_t on_ack(uint32_t psn, Time now);
  // NAK "PSN sequence error": the responder expects `expected_psn`; everything before it
  // was received. Go back to it. Returns the bytes newly acknowledged before expected_psn:
  // frames rewound for resending are not acknowledged, however many were in flight.
  uint64_t on_nak_seq_err(uint32_t expected_psn, Time now);
  // The retransmission timer: deadline while frames are outstanding, else never.
  Time timer_deadline() const;
  void on_timer(Time now);

  bool failed() const { return failed_; }
  bool done() const { return una_msg_ == messages_.size(); }
  uint64_t outstanding_bytes() const { return outstanding_bytes_; }
  uint32_t snd_una() const { return snd_una_; }
  uint32_t snd_nxt() const { return snd_nxt_; }
  const std::vector<MessageRecord>& messages() const { return messages_; }
  const RequesterCounters& counters() const { return counters_; }
  const RequesterConfig& config() const { return config_; }

 private:
  uint32_t payload_of(const MessageRecord& m, uint32_t frame) const;
  uint64_t acknowledge_through(uint32_t psn, Time now);
  void go_back_to(uint32_t psn);
  size_t message_of(uint32_t psn) const;

  RequesterConfig config_;
  Time timeout_;
  std::vector<MessageRecord> messages_;
  uint32_t next_post_psn_;
  uint32_t snd_una_;  // oldest unacknowledged PSN
  uint32_t snd_nxt_;  // next PSN to send
  uint32_t max_sent_;  // one past the highest PSN ever sent
  size_t una_msg_ = 0;  // message holding snd_una
  size_t nxt_msg_ = 0;  // message holding snd_nxt
  uint64_t outstanding_bytes_ = 0;
  Time last_progress_;
  uint8_t retries_ = 0;
  bool failed_ = false;
  RequesterCounters counters_;
};

}  // namespace rtb::host
