#include "tests/ethport/ethport_test_util.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace rtb::ethport::testing {

void PortTest::SetUp() {
  auto p = runtime::MbufPool::create({.name = unique_name("ethp"), .count = 2047,
                                      .data_room = RTE_PKTMBUF_HEADROOM + kMaxFrameBytes});
  ASSERT_TRUE(p.ok()) << p.error().message;
  pool_.emplace(std::move(p).value());
  start_available_ = pool_->available();
}

void PortTest::TearDown() {
  EXPECT_EQ(pool_->available(), start_available_)
      << "mbuf leak: pool " << pool_->name() << " has " << pool_->in_use() << " in use";
  pool_.reset();
}

std::string unique_name(const std::string& prefix) {
  static std::atomic<unsigned> n{0};
  return prefix + std::to_string(n++);
}

std::vector<uint8_t> test_bytes(uint32_t len, uint32_t seq, uint8_t dir) {
  std::vector<uint8_t> b(len);
  const uint8_t header[] = {0x02, 0, 0, 0, 0, static_cast<uint8_t>(dir + 1),
                            0x02, 0, 0, 0, 0, static_cast<uint8_t>(dir + 0x10),
                            kTestEtherType >> 8, kTestEtherType & 0xff,
                            static_cast<uint8_t>(seq >> 24), static_cast<uint8_t>(seq >> 16),
                            static_cast<uint8_t>(seq >> 8), static_cast<uint8_t>(seq)};
  for (uint32_t i = 0; i < len; ++i) {
    b[i] = i < sizeof header ? header[i] : static_cast<uint8_t>(seq + i * 7);
  }
  return b;
}

bool parse_test_frame(const std::vector<uint8_t>& b, uint32_t& seq, uint8_t& dir) {
  if (b.size() < 18 || b[12] != (kTestEtherType >> 8) || b[13] != (kTestEtherType & 0xff)) {
    return false;
  }
  dir = static_cast<uint8_t>(b[5] - 1);
  seq = (uint32_t{b[14]} << 24) | (uint32_t{b[15]} << 16) | (uint32_t{b[16]} << 8) | b[17];
  return true;
}

rte_mbuf* make_frame(runtime::MbufPool& pool, const std::vector<uint8_t>& bytes) {
  rte_mbuf* m = pool.alloc();
  if (m == nullptr) throw std::runtime_error("test pool exhausted");
  char* data = rte_pktmbuf_append(m, static_cast<uint16_t>(bytes.size()));
  if (data == nullptr) throw std::runtime_error("frame larger than the data room");
  std::copy(bytes.begin(), bytes.end(), data);
  return m;
}

std::vector<uint8_t> frame_bytes(const rte_mbuf* m) {
  std::vector<uint8_t> out(rte_pktmbuf_pkt_len(m));
  const void* p = rte_pktmbuf_read(m, 0, static_cast<uint32_t>(out.size()), out.data());
  if (p != out.data()) std::copy_n(static_cast<const uint8_t*>(p), out.size(), out.begin());
  return out;
}

size_t send_all(EthPort& port, std::vector<rte_mbuf*> frames,
                std::chrono::steady_clock::time_point deadline) {
  size_t sent = 0;
  while (sent < frames.size() && std::chrono::steady_clock::now() < deadline) {
    const auto n = std::min<size_t>(frames.size() - sent, 32);
    const uint16_t k = port.tx(frames.data() + sent, static_cast<uint16_t>(n));
    sent += k;
    if (k == 0) std::this_thread::yield();
  }
  for (size_t i = sent; i < frames.size(); ++i) rte_pktmbuf_free(frames[i]);
  return sent;
}

std::vector<std::vector<uint8_t>> receive(EthPort& port, size_t want,
                                          std::chrono::steady_clock::time_point deadline) {
  std::vector<std::vector<uint8_t>> got;
  rte_mbuf* burst[32];
  while (got.size() < want && std::chrono::steady_clock::now() < deadline) {
    const uint16_t n = port.rx(burst, 32);
    for (uint16_t i = 0; i < n; ++i) {
      got.push_back(frame_bytes(burst[i]));
      rte_pktmbuf_free(burst[i]);
    }
    if (n == 0) std::this_thread::yield();
  }
  return got;
}

std::vector<std::vector<uint8_t>> receive_burst(EthPort& port) {
  std::vector<std::vector<uint8_t>> got;
  rte_mbuf* burst[32];
  const uint16_t n = port.rx(burst, 32);
  for (uint16_t i = 0; i < n; ++i) got.push_back(frame_bytes(burst[i]));
  rte_pktmbuf_free_bulk(burst, n);
  return got;
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) == 0) pid_ = pid;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_code_) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

std::optional<int> ChildProcess::poll_exit() {
  if (pid_ <= 0 || exit_code_) return exit_code_;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  return exit_code_;
}

std::optional<int> ChildProcess::wait(int seconds) {
  const auto deadline = after_seconds(seconds);
  while (!poll_exit() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!exit_code_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  return exit_code_;
}

TestNetns::TestNetns() : name_(unique_name("rtb-test-" + std::to_string(::getpid()) + "-")) {
  if (::geteuid() != 0) {
    why_ = "network namespaces need root (CAP_SYS_ADMIN); run the test as root";
    return;
  }
  if (run_shell("ip netns add " + name_ + " 2>/dev/null") != 0) {
    why_ = "`ip netns add` is not permitted here (no CAP_SYS_ADMIN, or no iproute2)";
    return;
  }
  created_ = true;
  const std::string in = "ip -n " + name_ + " ";
  const bool veth =
      run_shell("ip netns exec " + name_ + " sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
                "net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1") == 0 &&
      run_shell(in + "link add " + kVethA + " type veth peer name " + kVethB +
                " 2>/dev/null") == 0 &&
      run_shell(in + "link set " + kVethA + " up") == 0 &&
      run_shell(in + "link set " + kVethB + " up") == 0;
  if (!veth) {
    why_ = "veth pairs cannot be created in a network namespace here";
    return;
  }
  ok_ = true;
}

TestNetns::~TestNetns() {
  if (created_) run_shell("ip netns del " + name_ + " 2>/dev/null");
}

}  // namespace rtb::ethport::testing
