// FNV-1a 64 against the published test vectors (draft-eastlake-fnv, appendix C), and a
// file's fingerprint against the hash of its bytes across the reader's block boundary.
#include "core/fingerprint.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace rtb {
namespace {

TEST(Fingerprint, Fnv1a64MatchesThePublishedVectors) {
  EXPECT_EQ(fnv1a64_hex(""), "cbf29ce484222325");
  EXPECT_EQ(fnv1a64_hex("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(fnv1a64_hex("foobar"), "85944171f73967e8");
}

TEST(Fingerprint, AFileHashesAsItsBytesWhateverItsLength) {
  const std::string path = ::testing::TempDir() + "/fingerprint_test.bin";
  std::string bytes;
  for (size_t i = 0; i < 200'000; ++i) bytes.push_back(static_cast<char>(i * 7 + i / 256));  // over 3 blocks
  std::ofstream(path, std::ios::binary) << bytes;
  const auto f = fingerprint_file(path);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->path, path);
  EXPECT_EQ(f->bytes, bytes.size());
  EXPECT_EQ(f->fnv1a64, fnv1a64_hex(bytes));
  std::ofstream(path, std::ios::binary | std::ios::app) << 'x';
  EXPECT_NE(fingerprint_file(path)->fnv1a64, f->fnv1a64);
}

TEST(Fingerprint, WhatCannotBeReadIsAnErrorNamingIt) {
  const std::string missing = ::testing::TempDir() + "/fingerprint_test_missing";
  EXPECT_EQ(fingerprint_file(missing).error().message,
            missing + ": cannot be read (No such file or directory): expected a regular file");
  const std::string fifo = ::testing::TempDir() + "/fingerprint_test.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(fingerprint_file(fifo).error().message, fifo + ": is a FIFO, not a regular file: expected a regular file");
}

}  // namespace
}  // namespace rtb
