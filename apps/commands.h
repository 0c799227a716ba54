// The rocetb subcommands. Each adds itself to the CLI11 app and returns the function that
// runs it once the command line is parsed (its exit code).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace rtb::apps {

using Command = std::function<int()>;

Command add_run_command(CLI::App& app, int argc, char** argv);
Command add_frames_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_plan_command(CLI::App& app);
Command add_params_command(CLI::App& app);
Command add_analyze_command(CLI::App& app);
Command add_replay_command(CLI::App& app, int argc, char** argv);
Command add_sweep_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_merge_command(CLI::App& app);

// A command line CLI11 refused: --help and --version print as CLI11 does (exit 0); anything
// else is one line on stderr, "rocetb: <what>; rocetb [SUBCOMMAND] --help lists the
// options", exit 2 as every other bad input.
int command_line_error(CLI::App& app, const CLI::ParseError& e);

// Prints an error to stderr, every line of it after "<who>: " (a scenario's errors are one
// per line, each with its own file:line).
void print_error(const char* who, const std::string& message);

}  // namespace rtb::apps
