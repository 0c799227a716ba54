// A results file streamed as a run goes (core/streamed_file.h): bounded memory whatever its
// length, the temporary until it is finished and renamed, nothing left when it never is.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/streamed_file.h"

namespace rtb {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("rtb-streamed-file-" + std::to_string(getpid()));
  fs::create_directories(d);
  fs::remove(d / name);
  return (d / name).string();
}

// 64 MB of rows through the buffer: it never grows past what it reserved at the start,
// and the file holds every row in order.
TEST(StreamedFile, HoldsAtMostItsBufferWhateverTheFilesLength) {
  const std::string path = fresh("long.csv");
  auto f = StreamedFile::create(path);
  ASSERT_TRUE(f) << f.error().message;
  StreamedFile& file = f.value();
  const size_t capacity = file.buffer_capacity();
  EXPECT_LE(capacity, 2 * (StreamedFile::kBufferBytes + StreamedFile::kMaxRowBytes));
  const std::string row(63, 'x');
  constexpr uint64_t kRows = 1'000'000;
  for (uint64_t i = 0; i < kRows; ++i) {
    file.row().append(row);
    file.row().push_back('\n');
    file.row_done();
    ASSERT_EQ(file.buffer_capacity(), capacity) << "the buffer grew at row " << i;
    ASSERT_LT(file.row().size(), StreamedFile::kBufferBytes);
  }
  EXPECT_FALSE(fs::exists(path)) << "the file appeared before it was finished";
  const fs::path tmp = fs::path(path).parent_path() / ".long.csv.tmp";
  EXPECT_GE(fs::file_size(tmp) + StreamedFile::kBufferBytes, kRows * 64)
      << "rows are written to the temporary as the buffer fills";
  ASSERT_TRUE(file.finish());
  ASSERT_TRUE(file.commit());
  EXPECT_EQ(fs::file_size(path), kRows * 64);
  EXPECT_EQ(file.bytes(), kRows * 64);
  std::ifstream in(path);
  std::string line;
  uint64_t lines = 0;
  while (std::getline(in, line)) lines += line == row ? 1 : 0;
  EXPECT_EQ(lines, kRows);
  fs::remove(path);
}

TEST(StreamedFile, AFileNeverFinishedLeavesNoTemporary) {
  const std::string path = fresh("abandoned.csv");
  const std::string tmp = (fs::path(path).parent_path() / ".abandoned.csv.tmp").string();
  {
    auto f = StreamedFile::create(path);
    ASSERT_TRUE(f);
    f.value().append("a,b\n");
    EXPECT_TRUE(fs::exists(tmp));
  }
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_FALSE(fs::exists(path));
}

TEST(StreamedFile, ARenameThatFailsNamesTheFileAndRemovesTheTemporary) {
  const std::string path = fresh("blocked.csv");
  fs::create_directories(path + "/in-the-way");
  auto f = StreamedFile::create(path);
  ASSERT_TRUE(f);
  f.value().append("a,b\n1,2\n");
  ASSERT_TRUE(f.value().finish());
  const Status st = f.value().commit();
  ASSERT_FALSE(st);
  EXPECT_THAT(st.message(), HasSubstr("cannot write " + path + ": "));
  EXPECT_FALSE(fs::exists(fs::path(path).parent_path() / ".blocked.csv.tmp"));
  fs::remove_all(path);
}

TEST(StreamedFile, AFolderThatCannotBeWrittenIsRefusedAtCreation) {
  const auto f = StreamedFile::create("/nonexistent-folder/flows.csv");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message, "cannot write /nonexistent-folder/flows.csv: No such file or directory");
}

}  // namespace
}  // namespace rtb
