// Helpers for the ethport tests: a per-test rtb mbuf pool with a leak check, frames with
// known bytes, bounded waits, a scratch folder, a child process that is always reaped,
// and a throw-away network namespace with a veth pair.
#pragma once

#include "tests/capture/capture_test_util.h"

#include <gtest/gtest.h>
#include <rte_mbuf.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ethport/eth_port.h"
#include "runtime/pool/mbuf_pool.h"

namespace rtb::ethport::testing {

// Experimental EtherType (IEEE 802 local experimental 1): frames of these tests only.
inline constexpr uint16_t kTestEtherType = 0x88b5;

// A fresh MbufPool per test; TearDown checks it is back at its starting count.
class PortTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  runtime::MbufPool& pool() { return *pool_; }
  rte_mempool* mempool() { return pool_->mempool(); }

 private:
  std::optional<runtime::MbufPool> pool_;
  uint32_t start_available_ = 0;
};

// "<prefix><n>" unique in the process (vdev, ring and pool names).
std::string unique_name(const std::string& prefix);

// Frame bytes: dst 02:00:00:00:00:<dir+1>, src 02:00:00:00:00:<dir+0x10>, kTestEtherType,
// then `seq` (4 bytes, big endian), then (seq + i * 7) & 0xff up to `len`.
std::vector<uint8_t> test_bytes(uint32_t len, uint32_t seq, uint8_t dir);
// The seq and direction of a frame made by test_bytes (false: not a test frame).
bool parse_test_frame(const std::vector<uint8_t>& bytes, uint32_t& seq, uint8_t& dir);
rte_mbuf* make_frame(runtime::MbufPool& pool, const std::vector<uint8_t>& bytes);
std::vector<uint8_t> frame_bytes(const rte_mbuf* m);

// Sends every frame (retrying a full port) until `deadline`; frames not taken by then are
// freed. Returns how many the port took.
size_t send_all(EthPort& port, std::vector<rte_mbuf*> frames,
                std::chrono::steady_clock::time_point deadline);
// Receives until `want` frames came or `deadline`; returns their bytes, frees the mbufs.
std::vector<std::vector<uint8_t>> receive(EthPort& port, size_t want,
                                          std::chrono::steady_clock::time_point deadline);

// One rx burst (up to 32 frames): their bytes, mbufs freed.
std::vector<std::vector<uint8_t>> receive_burst(EthPort& port);

inline std::chrono::steady_clock::time_point after_seconds(int s) {
  return std::chrono::steady_clock::now() + std::chrono::seconds(s);
}

// A scratch folder and the shared captures folder: the capture tests' helpers.
using capture::testing::ScratchDir;
using capture::testing::shared_captures_dir;

// Runs `/bin/sh -c command`; returns its exit status (-1 when it did not exit normally).
int run_shell(const std::string& command);

// A child process started from argv (posix_spawn), killed and reaped on destruction if it
// is still running.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  bool started() const { return pid_ > 0; }
  // The exit code once it exited; nullopt while it runs.
  std::optional<int> poll_exit();
  // Waits at most `seconds` for it to exit; kills it then. The exit code, or nullopt when
  // it had to be killed.
  std::optional<int> wait(int seconds);

 private:
  int pid_ = -1;
  std::optional<int> exit_code_;
};

// A network namespace "rtb-test-<pid>-<n>" holding a veth pair (a, b) that is up, with
// IPv6 off (no stray router solicitations). Deleted on destruction. ok() false (with
// why()) when the machine does not permit namespaces or veth pairs.
class TestNetns {
 public:
  TestNetns();
  ~TestNetns();
  TestNetns(const TestNetns&) = delete;
  TestNetns& operator=(const TestNetns&) = delete;
  bool ok() const { return ok_; }
  const std::string& why() const { return why_; }
  const std::string& name() const { return name_; }
  static constexpr const char* kVethA = "rtbva";
  static constexpr const char* kVethB = "rtbvb";

 private:
  std::string name_;
  bool created_ = false;
  bool ok_ = false;
  std::string why_;
};

}  // namespace rtb::ethport::testing
