// The rocetb command: one subcommand per job. A subcommand appears in --help only once the
// job it runs exists.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"rocetb: a kernel-bypass RoCEv2 congestion-control testbed on DPDK"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
