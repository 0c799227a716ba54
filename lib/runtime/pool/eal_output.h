// What the DPDK EAL prints while it starts: its log lines, getopt's complaints about an
// argument and its usage text go straight to stdout and stderr, 4 to 40 lines that bury
// rocetb's own one-line error. start_eal() captures them (fds 1 and 2 redirected to a
// temporary file during rte_eal_init); after a failure the error gets one sentence from
// them, and the lines themselves are shown only when verbose; after a success they are
// passed on as they were.
#pragma once

#include <string>

namespace rtb::runtime {

// Process-wide, as the EAL is: `rocetb run --verbose` sets it before the run.
void set_eal_verbose(bool verbose);
bool eal_verbose();

// Redirects fds 1 and 2 into a temporary file until finish() (or destruction) restores
// them; finish() returns what was written meanwhile.
class OutputCapture {
 public:
  OutputCapture();
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;
  std::string finish();

 private:
  int saved_out_ = -1;
  int saved_err_ = -1;
  int file_ = -1;
};

// The EAL's reason in one sentence: its last "EAL: " line, or getopt's complaint about an
// option, without the prefix and trailing dots; empty when it said nothing useful.
std::string eal_output_summary(const std::string& captured);

}  // namespace rtb::runtime
