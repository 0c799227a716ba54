#include "plots/plotter.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "plots/paths.h"
#include "plots/subprocess.h"

namespace rtb::plots {
namespace {

namespace fs = std::filesystem;

// scripts/plot.py's exit code when matplotlib (or numpy) cannot be imported.
constexpr int kMissingMatplotlib = 3;

bool in_build_tree() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return false;
  const std::string root = fs::path(kBuildRoot).lexically_normal().string() + "/";
  return self.lexically_normal().string().starts_with(root);
}

PlotOutcome skipped(std::string why, double seconds = 0) {
  PlotOutcome o;
  o.skipped = std::move(why);
  o.seconds = seconds;
  return o;
}

}  // namespace

std::string python_path() {
  const char* env = std::getenv("ROCETB_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

bool disabled_by_environment() {
  const char* env = std::getenv("ROCETB_NO_PLOTS");
  return env && *env && std::string_view(env) != "0";
}

Expected<std::string> find_script(const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ROCETB_SCRIPTS_DIR"); env && *env) {
    dirs = {env};
  } else if (in_build_tree()) {
    dirs = {kSourceScriptsDir, kInstalledScriptsDir};
  } else {
    dirs = {kInstalledScriptsDir, kSourceScriptsDir};
  }
  for (const std::string& d : dirs) {
    const fs::path p = fs::path(d) / name;
    if (access(p.c_str(), R_OK) == 0) return p.string();
  }
  std::string looked;
  for (const std::string& d : dirs) looked += (looked.empty() ? "" : ", ") + d;
  return Error{fmt::format("{} not found (looked in {})", name, looked)};
}

PlotOutcome draw_plots(const std::string& dir) {
  const std::string python = python_path();
  if (access(python.c_str(), X_OK) != 0) return skipped(fmt::format("{} not found", python));
  const Expected<std::string> script = find_script("plot.py");
  if (!script) return skipped(script.error().message);
  const auto start = std::chrono::steady_clock::now();
  const Expected<ProcessResult> r = run_process({python, script.value(), dir, "--json"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r) return skipped(r.error().message, seconds);
  const ProcessResult& p = r.value();
  if (p.exit_code == kMissingMatplotlib) return skipped(last_line(p.err), seconds);
  if (p.exit_code != 0) {
    const std::string why = last_line(p.err);
    return skipped(fmt::format("{} failed (exit {}): {}", script.value(), p.exit_code, why.empty() ? "no message" : why),
                   seconds);
  }
  const auto answer = nlohmann::json::parse(last_line(p.out), nullptr, false);
  if (answer.is_discarded() || !answer.contains("files")) {
    return skipped(fmt::format("{} printed no answer: {}", script.value(), last_line(p.out)), seconds);
  }
  PlotOutcome o;
  o.files = answer["files"].get<std::vector<std::string>>();
  o.notes = answer.value("notes", std::vector<std::string>{});
  o.seconds = seconds;
  return o;
}

nlohmann::ordered_json PlotOutcome::to_json() const {
  if (!skipped.empty()) return {{"skipped", skipped}};
  return {{"files", files}, {"notes", notes}, {"seconds", std::round(seconds * 1e3) / 1e3}};
}

std::string PlotOutcome::line(const std::string& dir) const {
  if (!skipped.empty()) return "plots skipped: " + skipped;
  const fs::path d(dir);
  size_t pngs = 0;
  std::string report;
  for (const std::string& f : files) {
    if (f == "report.html") report = (d / f).string();
    if (f.ends_with(".png")) ++pngs;
  }
  return fmt::format("report: {} ({} plots, {}/plot-*.png; {:.1f} s)", report.empty() ? "not written" : report, pngs,
                     dir, seconds);
}

int exec_script(const std::string& name, const std::vector<std::string>& args) {
  const std::string python = python_path();
  if (access(python.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "rocetb: %s not found (Debian: apt-get install python3-matplotlib)\n", python.c_str());
    return 1;
  }
  const Expected<std::string> script = find_script(name);
  if (!script) {
    std::fprintf(stderr, "rocetb: %s\n", script.error().message.c_str());
    return 1;
  }
  std::vector<std::string> argv{python, script.value()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c;
  for (std::string& a : argv) c.push_back(a.data());
  c.push_back(nullptr);
  std::fflush(nullptr);
  execv(c[0], c.data());
  std::fprintf(stderr, "rocetb: cannot start %s: %s\n", python.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace rtb::plots
