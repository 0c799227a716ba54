// Results folders made ready before the work (core/out_folder.h) and files written whole or
// not at all (core/write_file.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/out_folder.h"
#include "core/write_file.h"

namespace rtb {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("rtb-out-folder-" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d.parent_path());
  return d.string();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const std::string& path) {
  std::ostringstream s;
  s << std::ifstream(path).rdbuf();
  return s.str();
}

const OwnedFiles kOwned{{"run.json", "warnings.txt"}, {"capture-"}};

TEST(OutFolder, AMissingFolderIsCreated) {
  const std::string d = fresh("new") + "/a/b";
  const auto created = prepare_out_folder({"--out", d, false}, kOwned);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_TRUE(created.value());
  EXPECT_TRUE(fs::is_directory(d));
  EXPECT_TRUE(fs::is_empty(d)) << "the write probe is removed";
}

TEST(OutFolder, AFolderThatCannotBeCreatedIsRefusedNamingTheOptionAndWhy) {
  const std::string file = fresh("file");
  put(file, "x");
  const auto s = prepare_out_folder({"--out", file + "/sub", false}, kOwned);
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message, StartsWith("--out " + file + "/sub: cannot create the folder: "));
  EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
}

TEST(OutFolder, AFileIsRefused) {
  const std::string file = fresh("plain");
  put(file, "x");
  const auto s = prepare_out_folder({"--out", file, true}, kOwned);
  EXPECT_EQ(s.error().message, "--out " + file + ": is a file, not a folder: expected a new or empty folder");
  EXPECT_EQ(read(file), "x");
}

TEST(OutFolder, ANonEmptyFolderIsRefusedWithoutReplace) {
  const std::string d = fresh("full");
  fs::create_directories(d);
  put(d + "/warnings.txt", "stale");
  const auto s = prepare_out_folder({"--out", d, false}, kOwned);
  EXPECT_EQ(s.error().message, "--out " + d + ": is not empty (1 entry, such as 'warnings.txt'): expected a new or "
                         "empty folder, or --force to replace the results there");
  EXPECT_EQ(read(d + "/warnings.txt"), "stale");
}

TEST(OutFolder, ReplaceRemovesEveryOwnedFileAndTheirTemporaries) {
  const std::string d = fresh("replace");
  fs::create_directories(d);
  for (const char* f : {"run.json", "warnings.txt", ".run.json.tmp", "capture-h0.pcapng", ".rocetb-write-check"}) put(d + "/" + f, "old");
  const auto created = prepare_out_folder({"--out", d, true}, kOwned);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_FALSE(created.value());
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(OutFolder, ReplaceNeverRemovesAFileItDoesNotOwn) {
  const std::string d = fresh("foreign");
  fs::create_directories(d + "/sub");
  put(d + "/run.json", "old");
  put(d + "/notes.txt", "mine");
  auto s = prepare_out_folder({"--out", d, true}, kOwned);
  EXPECT_THAT(s.error().message, HasSubstr("--out " + d + " --force: holds 'notes.txt', which is not a results file"));
  EXPECT_EQ(read(d + "/notes.txt"), "mine");
  EXPECT_EQ(read(d + "/run.json"), "old") << "nothing is removed when one entry is foreign";
  fs::remove(d + "/notes.txt");
  s = prepare_out_folder({"--out", d, true}, kOwned);
  EXPECT_THAT(s.error().message, HasSubstr("holds 'sub'")) << "a folder is never removed";
}

TEST(WriteFile, WritesTheWholeTextAndLeavesNoTemporary) {
  const std::string d = fresh("write");
  fs::create_directories(d);
  put(d + "/a.csv", "old text, longer than the new one");
  ASSERT_TRUE(write_file_atomically(d + "/a.csv", "new"));
  EXPECT_EQ(read(d + "/a.csv"), "new");
  EXPECT_FALSE(fs::exists(d + "/.a.csv.tmp"));
  EXPECT_EQ(temporary_name("x/y/a.csv"), "x/y/.a.csv.tmp");
  EXPECT_EQ(temporary_name("a.csv"), ".a.csv.tmp");
}

TEST(WriteFile, AFailedRenameKeepsTheEarlierFileAndRemovesTheTemporary) {
  const std::string d = fresh("fail");
  fs::create_directories(d + "/queues.csv/inside");  // a non-empty folder cannot be renamed over
  const Status s = write_file_atomically(d + "/queues.csv", "rows");
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), StartsWith("cannot write " + d + "/queues.csv: "));
  EXPECT_TRUE(fs::is_directory(d + "/queues.csv/inside"));
  EXPECT_FALSE(fs::exists(d + "/.queues.csv.tmp"));
}

}  // namespace
}  // namespace rtb
