/* rocetb congestion-control plug-in ABI, version 4 (2 added describe_state, 3 hop_count,
 * 4 describe_params).
 *
 * The one public header an out-of-tree algorithm compiles against. Plain C so that a
 * plug-in may be written in C or C++ and built by any compiler; rocetb's own built-in
 * algorithms fill in the same table (see cc_algos/README.md).
 *
 * Shape: the Linux tcp_congestion_ops idea (an ops table, fixed-size private state per
 * flow, required hooks checked when the table is registered) with CCP's split (the
 * datapath supplies `now` and applies the decision). Every hook is a pure function of
 * (params, per-flow state, event, now): it never reads a clock, allocates, logs or
 * touches a frame.
 *
 * Units are in every field name: `_ps` picoseconds (uint64, about 213 days of range),
 * `_bps` bits per second, `_bytes` bytes.
 *
 * ABI version rule: RTB_CC_ABI_VERSION changes whenever any struct below changes layout
 * or any hook changes meaning. rocetb loads a plug-in only if the table's abi_version is
 * exactly the version rocetb was built with; there is no partial compatibility.
 */
#ifndef ROCETB_CC_H
#define ROCETB_CC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTB_CC_ABI_VERSION 4u

/* The symbol a plug-in exports: `const struct rtb_cc_ops* rtb_cc_plugin_ops(void)`. */
#define RTB_CC_PLUGIN_SYMBOL "rtb_cc_plugin_ops"

/* "No deadline" and "no window" (rate-only algorithms). */
#define RTB_CC_NEVER_PS UINT64_MAX
#define RTB_CC_NO_WINDOW UINT64_MAX

/* Per-flow state and parsed-parameter limits checked at registration. */
#define RTB_CC_MAX_STATE_BYTES 4096u
#define RTB_CC_MAX_ALIGN 64u
#define RTB_CC_MAX_PARAMS_BYTES (1u << 20)

/* Feedback an algorithm needs; the datapath produces only what is asked for, and the
 * loader refuses a table that asks for feedback the datapath cannot produce (unknown bits).
 * How each kind is measured is in cc_algos/README.md, "Feedback". */
enum rtb_cc_feedback {
  /* CNPs (BTH opcode 0x81) to on_cnp. Receivers send CNPs for a flow only if its sender's
   * algorithm asks for them; without this bit no CNP is put on the wire for the flow. */
  RTB_CC_FEEDBACK_CNP = 1u << 0,
  /* Every ACK and NAK to on_ack: newly acknowledged bytes, the ECN echo, is_nak. */
  RTB_CC_FEEDBACK_ACK = 1u << 1,
  /* An RTT sample on ACKs (on_ack is called for every ACK, as with ACK). */
  RTB_CC_FEEDBACK_RTT = 1u << 2,
  /* Per-hop in-band telemetry on ACKs (HPCC): every switch on the path pushes a record into
   * the flow's data frames at dequeue, the receiver echoes them in its ACKs and NAKs, and
   * on_ack gets them in `hops` (on_ack is called for every ACK, as with ACK). */
  RTB_CC_FEEDBACK_INT = 1u << 3,
  RTB_CC_FEEDBACK_ALL = (1u << 4) - 1u
};

/* What every hook returns. The contract, checked on every decision (a breach stops the run
 * with a message naming the algorithm and the hook): 0 < rate_bps <= the port's line rate
 * (an integer: a NaN converted to uint64_t, 0 or 2^63 on x86-64, is a breach);
 * next_deadline_ps > now_ps or RTB_CC_NEVER_PS; window_bytes >= 1 or RTB_CC_NO_WINDOW.
 * The datapath calls on_timer at (or, in realtime mode, shortly after) the deadline. */
typedef struct rtb_cc_decision {
  uint64_t rate_bps;
  uint64_t window_bytes;     /* RTB_CC_NO_WINDOW when the algorithm sets none */
  uint64_t next_deadline_ps; /* RTB_CC_NEVER_PS when nothing is due */
} rtb_cc_decision;

typedef struct rtb_cc_flow_start {
  uint64_t line_rate_bps; /* the port's rate: the flow starts here unless told otherwise */
  /* The path's RTT with empty queues, as an RTT sample would measure it: per hop, a full
   * data frame's serialisation at the link rate plus propagation, out and (for the ACK)
   * back, plus the responder's ACK turnaround. 0 when unknown. */
  uint64_t base_rtt_ps;
  uint64_t flow_id; /* unique in the run (the scenario's flow index): for per-flow jitter */
  /* Switches on the path to the receiver (the one base_rtt_ps was computed over), as an
   * end host learns it from the TTL of what it receives (Swift's hop scaling). 0 when
   * unknown or directly connected. */
  uint32_t hop_count;
  uint32_t reserved;
} rtb_cc_flow_start;

/* One INT record per hop (HPCC), pushed by each switch as the data frame leaves its egress
 * port, first switch first. The wire carries HPCC's 8-byte record (cc_algos/README.md,
 * "Feedback"): timestamp_ps in whole ns, tx_bytes in 128-byte steps, queue_bytes in 80-byte
 * steps; the sender extends the wrapping timestamp and tx counters to 64 bits, so the
 * differences between two ACKs' records of a hop are exact to those steps (the absolute
 * values are the switch's counters modulo 2^24 ns and 2^27 bytes at the flow's first ACK). */
typedef struct rtb_cc_int_hop {
  uint64_t timestamp_ps; /* when the frame started on the egress wire */
  uint64_t tx_bytes;     /* bytes the egress port had sent before the frame */
  uint64_t queue_bytes;  /* bytes queued at the egress port (all queues) after it left */
  uint64_t link_rate_bps;
} rtb_cc_int_hop;

typedef struct rtb_cc_ack {
  /* Payload bytes this ACK or NAK acknowledged for the first time. After a NAK the frames
   * go-back-N rewinds are not acknowledged (they count when a later ACK covers them), so
   * over a flow the sum is exactly the bytes delivered. */
  uint64_t acked_bytes;
  /* With RTB_CC_FEEDBACK_RTT: this ACK's arrival minus the instant the frame it names
   * (its PSN) last started on the wire, ACK turnaround and every queue included, as a NIC
   * timestamps it. 0: no sample (a NAK, a duplicate ACK, or no RTT feedback asked for). */
  uint64_t rtt_ps;
  /* 1 if data this ACK or NAK answers arrived CE-marked: the responder sets the BTH BECN
   * bit on it (RoCEv2 Annex A17). The ACK frame's own IP ECN bits play no part. */
  uint32_t ecn_echo;
  uint32_t is_nak;
  /* Entries in hops (the switches on the path, at most 5); 0 unless RTB_CC_FEEDBACK_INT.
   * `hops` stays valid only during the call. An ACK echoes the records of the newest data
   * frame its receiver had answered when the ACK left, so two ACKs may echo the same ones. */
  uint32_t hop_count;
  uint32_t reserved;
  const rtb_cc_int_hop* hops;
} rtb_cc_ack;

/* A parameter as the scenario or command line gave it: a key and either a string or a
 * number. The algorithm checks every key and every range itself. */
enum rtb_cc_param_kind {
  RTB_CC_PARAM_STRING = 0,
  RTB_CC_PARAM_INT = 1,
  RTB_CC_PARAM_FLOAT = 2
};
typedef struct rtb_cc_param {
  const char* key;
  uint32_t kind;
  uint32_t reserved;
  const char* string_value; /* RTB_CC_PARAM_STRING */
  int64_t int_value;        /* RTB_CC_PARAM_INT */
  double float_value;       /* RTB_CC_PARAM_FLOAT */
} rtb_cc_param;

/* Where parse_params writes its messages. An error refuses the configuration; a
 * warning is shown to the user (say why, with the arithmetic) and the run goes on. */
typedef struct rtb_cc_report {
  void* context;
  void (*error)(void* context, const char* message);
  void (*warning)(void* context, const char* message);
} rtb_cc_report;

/* Receiver-side (notification point) settings an algorithm may ask for. */
typedef struct rtb_cc_np_config {
  uint64_t min_time_between_cnps_ps; /* per QP; 0 = a CNP for every CE-marked frame */
  uint32_t cnp_dscp;                 /* 0..63 */
  uint32_t cnp_pcp;                  /* 0..7 */
} rtb_cc_np_config;

/* One named number of an algorithm's per-flow state, for time series and debugging:
 * the name is a static string with its unit in it ("alpha", "rt_bps", "time_stage"). */
typedef struct rtb_cc_state_field {
  const char* name;
  double value;
} rtb_cc_state_field;

/* Fields describe_state may write at most. */
#define RTB_CC_MAX_STATE_FIELDS 16u
/* Parameters describe_params may write at most. */
#define RTB_CC_MAX_PARAM_FIELDS 64u

typedef struct rtb_cc_ops {
  uint32_t abi_version; /* RTB_CC_ABI_VERSION */
  uint32_t feedback;    /* rtb_cc_feedback bits */
  const char* name;     /* registry name: [a-z0-9_]+ */
  const char* description;
  uint32_t state_bytes;  /* per flow, 1..RTB_CC_MAX_STATE_BYTES */
  uint32_t state_align;  /* power of two, <= RTB_CC_MAX_ALIGN */
  uint32_t params_bytes; /* parsed parameters, 1..RTB_CC_MAX_PARAMS_BYTES */
  uint32_t params_align; /* power of two, <= RTB_CC_MAX_ALIGN */

  /* Required. Parse `count` parameters into params_out (params_bytes, zeroed, aligned);
   * unknown keys and bad values are errors. Returns 0 when no error was reported. */
  int (*parse_params)(const rtb_cc_param* params, size_t count, void* params_out,
                      const rtb_cc_report* report);
  /* Required. `state` is state_bytes of zeroed, aligned memory owned by the flow. */
  void (*on_start)(const void* params, void* state, const rtb_cc_flow_start* start,
                   uint64_t now_ps, rtb_cc_decision* out);
  /* Required. Called at (or after) the last decision's next_deadline_ps. */
  void (*on_timer)(const void* params, void* state, uint64_t now_ps, rtb_cc_decision* out);
  /* Required if feedback has CNP. */
  void (*on_cnp)(const void* params, void* state, uint64_t now_ps, rtb_cc_decision* out);
  /* Required if feedback has ACK, RTT or INT: called for every ACK and NAK. */
  void (*on_ack)(const void* params, void* state, const rtb_cc_ack* ack, uint64_t now_ps,
                 rtb_cc_decision* out);
  /* Optional (NULL: not called). `bytes` = one frame's payload bytes just sent. */
  void (*on_bytes_sent)(const void* params, void* state, uint64_t bytes, uint64_t now_ps,
                        rtb_cc_decision* out);
  /* Optional (NULL: the datapath's defaults). Fills the receiver's CNP settings. */
  void (*np_config)(const void* params, rtb_cc_np_config* out);
  /* Optional (NULL: no state in the results). Writes the flow's state as of now_ps into
   * out[0..RTB_CC_MAX_STATE_FIELDS) without changing it, the same names in the same order
   * every call, and returns how many it wrote. Pure, like every hook. */
  size_t (*describe_state)(const void* params, const void* state, uint64_t now_ps,
                           rtb_cc_state_field* out);
  /* Optional (NULL: the results list only the parameters the scenario gave). Writes every
   * parameter as parse_params resolved it, defaults included, into
   * out[0..RTB_CC_MAX_PARAM_FIELDS) (name: a static string in the scenario's spelling;
   * value: in that parameter's own unit) and returns how many. For effective.json. */
  size_t (*describe_params)(const void* params, rtb_cc_state_field* out);
} rtb_cc_ops;

typedef const rtb_cc_ops* (*rtb_cc_plugin_ops_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* ROCETB_CC_H */
