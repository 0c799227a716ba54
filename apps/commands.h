// The rocetb subcommands. Each adds itself to the CLI11 app and returns the function that
// runs it once the command line is parsed (its exit code).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace rtb::apps {

using Command = std::function<int()>;

Command add_run_command(CLI::App& app, int argc, char** argv);
Command add_frames_command(CLI::App& app);
Command add_bench_command(CLI::App& app);

}  // namespace rtb::apps
