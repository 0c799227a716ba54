// `rocetb merge` as a user runs it: a run's results folder cut into a split run's parts
// (lib/results split as the processes would have written them) merges back into that
// run's files; parts of different runs, missing folders and a used --out are refused in
// one line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/json_text.h"
#include "results/summary_json.h"
#include "tests/apps/child.h"
#include "tests/results/split_parts.h"

namespace rtb::apps {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_rocetb;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n') + 1); }

class MergeCommand : public ::testing::Test {
 protected:
  // One run of the default incast; parts "senders" (h0-h7 and the switch, the series) and
  // "receiver" (h8, headers only).
  static void SetUpTestSuite() {
    root_ = new fs::path(fs::path(::testing::TempDir()) / "merge_command_test");
    fs::remove_all(*root_);
    const auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=\"2ms\"", "--set",
                               "run.warmup=\"500us\"", "--no-plots", "--out", (*root_ / "whole").string()});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    auto whole = results::read_summary((*root_ / "whole" / "summary.json").string());
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    std::vector<std::string> senders;
    for (const results::HostResult& h : whole.value().hosts) {
      if (h.name != "h8") senders.push_back(h.name);
    }
    make_part("senders", results::testing::part_of(whole.value(), senders, true, "senders").summary, true);
    make_part("receiver", results::testing::part_of(whole.value(), {"h8"}, false, "receiver").summary, false);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*root_);
    delete root_;
  }

  static void make_part(const std::string& role, results::Summary s, bool with_series) {
    const fs::path dir = *root_ / role;
    fs::create_directories(dir);
    s.role.reset();  // the folder's name says the role, as for a part written before roles were recorded
    write(dir / "summary.json", results::json_text(results::to_json(s)));
    for (const char* csv : {"flows.csv", "queues.csv"}) {
      const std::string text = slurp(*root_ / "whole" / csv);
      write(dir / csv, with_series ? text : first_line(text));
    }
    fs::copy_file(*root_ / "whole" / "run.json", dir / "run.json");
  }

  static fs::path dir(const std::string& name) { return *root_ / name; }
  static inline fs::path* root_ = nullptr;
};

TEST_F(MergeCommand, PartsMergeIntoTheSingleRunsFiles) {
  const auto r = run_rocetb({"merge", dir("senders").string(), dir("receiver").string(), "--out", dir("merged").string()});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("merged 2 processes: senders receiver"));
  EXPECT_THAT(r.out, HasSubstr("goodput "));
  nlohmann::ordered_json merged = nlohmann::ordered_json::parse(slurp(dir("merged") / "summary.json"));
  EXPECT_EQ(merged["roles"], nlohmann::ordered_json::array({"senders", "receiver"}));
  merged.erase("roles");
  EXPECT_EQ(merged.dump(2) + "\n", slurp(dir("whole") / "summary.json"));
  EXPECT_EQ(slurp(dir("merged") / "flows.csv"), slurp(dir("whole") / "flows.csv"));
  EXPECT_EQ(slurp(dir("merged") / "queues.csv"), slurp(dir("whole") / "queues.csv"));
  EXPECT_TRUE(fs::exists(dir("merged") / "run.senders.json"));
  EXPECT_TRUE(fs::exists(dir("merged") / "run.receiver.json"));
  // Again into the same folder: refused, then replaced with --force.
  const auto again = run_rocetb({"merge", dir("senders").string(), dir("receiver").string(), "--out", dir("merged").string()});
  EXPECT_EQ(again.exit_code, 2) << again.out;
  EXPECT_THAT(again.out, HasSubstr("--out " + dir("merged").string()));
  const auto forced = run_rocetb(
      {"merge", dir("senders").string(), dir("receiver").string(), "--out", dir("merged").string(), "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.out;
}

TEST_F(MergeCommand, PartsOfAnotherRunAreRefusedInOneLineWithNothingWritten) {
  const fs::path other = dir("other");
  fs::create_directories(other);
  for (const char* f : {"flows.csv", "queues.csv", "run.json"}) fs::copy_file(dir("receiver") / f, other / f, fs::copy_options::overwrite_existing);
  nlohmann::ordered_json s = nlohmann::ordered_json::parse(slurp(dir("receiver") / "summary.json"));
  s["seed"] = 99;
  write(other / "summary.json", s.dump(2));
  const auto r = run_rocetb({"merge", dir("senders").string(), other.string(), "--out", dir("refused").string()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "rocetb merge: " + (other / "summary.json").string() + ": seed = 99: expected " +
                       std::to_string(nlohmann::ordered_json::parse(slurp(dir("whole") / "summary.json"))["seed"].get<uint64_t>()) +
                       " as in " + (dir("senders") / "summary.json").string() + " (the parts of one split run)\n");
  EXPECT_FALSE(fs::exists(dir("refused")));

  s["seed"] = "seven";
  write(other / "summary.json", s.dump(2));
  const auto bad = run_rocetb({"merge", dir("senders").string(), other.string(), "--out", dir("refused").string()});
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr(": seed = \"seven\": expected a whole number >= 0"));

  const auto missing = run_rocetb({"merge", dir("senders").string(), dir("nowhere").string(), "--out", dir("refused").string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_THAT(missing.out, HasSubstr("nowhere: not a folder: expected a results folder"));
}

}  // namespace
}  // namespace rtb::apps
