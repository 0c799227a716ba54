#include "tests/fuzz/mutator.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rtb::fuzz {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// One -dict line: name="token" or "token", with \\, \" and \xNN escapes (libFuzzer's format).
std::optional<std::string> dict_token(const std::string& line) {
  const size_t open = line.find('"'), close = line.rfind('"');
  if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) return std::nullopt;
  std::string out;
  for (size_t i = open + 1; i < close; ++i) {
    if (line[i] != '\\' || i + 1 >= close) {
      out += line[i];
    } else if (line[i + 1] == 'x' && i + 3 < close) {
      out += static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += line[++i];
    }
  }
  return out;
}

std::optional<std::string> load_folder(const std::string& dir, std::vector<std::string>& corpus) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  if (ec) return "fuzz pass: corpus folder " + dir + ": " + ec.message();
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) corpus.push_back(read_all(p));
  return std::nullopt;
}

// Numbers at the limits of what parsers of sizes, rates, times and counts meet.
const char* const kNumbers[] = {"0", "-1", "1", "255", "256", "65535", "65536", "4294967295", "4294967296",
                                "9223372036854775807", "9223372036854775808", "18446744073709551616",
                                "1e308", "1e-308", "-0", "0.0", "nan", "inf", "-inf", "1e999", "0x10", "1_000"};

}  // namespace

std::optional<std::string> parse_pass_options(int argc, char** argv, PassOptions& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if ((a == "--runs" || a == "--seed" || a == "--max-len") && has_value) {
      char* end = nullptr;
      const uint64_t v = std::strtoull(argv[++i], &end, 10);
      if (*end != '\0' || argv[i][0] == '\0') return a + " " + argv[i] + ": expected a whole number";
      if (a == "--runs") o.runs = v;
      if (a == "--seed") o.seed = v;
      if (a == "--max-len") o.max_len = v;
    } else if (a == "--dict" && has_value) {
      std::ifstream f(argv[++i]);
      if (!f) return std::string("fuzz pass: --dict ") + argv[i] + ": cannot be read";
      for (std::string line; std::getline(f, line);) {
        if (auto t = dict_token(line)) o.dictionary.push_back(*t);
      }
    } else if (auto error = load_folder(a, o.corpus)) {
      return error;
    }
  }
  if (o.corpus.empty()) return std::string("fuzz pass: no seed inputs: expected corpus folders with files");
  return std::nullopt;
}

Mutator::Mutator(uint64_t seed, std::vector<std::string> corpus, std::vector<std::string> dictionary, size_t max_len)
    : rng_(seed, 0x66757a7a), corpus_(std::move(corpus)), dictionary_(std::move(dictionary)), max_len_(max_len) {
  for (const char* n : kNumbers) dictionary_.emplace_back(n);
}

const std::string& Mutator::any_token() { return dictionary_[pick(dictionary_.size())]; }

std::string Mutator::next() {
  std::string s = corpus_[pick(corpus_.size())];
  const size_t rounds = 1 + pick(4);
  for (size_t i = 0; i < rounds; ++i) mutate_once(s);
  if (s.size() > max_len_) s.resize(max_len_);
  return s;
}

void Mutator::mutate_once(std::string& s) {
  const size_t at = pick(s.size() + 1);
  const size_t len = 1 + pick(std::min<size_t>(s.size() - std::min(at, s.size()), 16) + 1);
  switch (pick(9)) {
    case 0: if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1u << pick(8))); break;
    case 1: if (at < s.size()) s[at] = static_cast<char>(pick(256)); break;
    case 2: s.erase(std::min(at, s.size()), len); break;
    case 3: s.insert(at, std::string(len, static_cast<char>(pick(256)))); break;
    case 4: if (!s.empty()) s.insert(at, s.substr(pick(s.size()), len)); break;
    case 5: s.insert(at, any_token()); break;
    case 6: s.replace(std::min(at, s.size()), len, any_token()); break;
    case 7: {
      const std::string& other = corpus_[pick(corpus_.size())];
      s = s.substr(0, at) + other.substr(pick(other.size() + 1));
      break;
    }
    default: change_number(s); break;
  }
}

// Replaces one run of digits with a number at a limit (kNumbers).
void Mutator::change_number(std::string& s) {
  const size_t from = s.find_first_of("0123456789", pick(s.size() + 1));
  if (from == std::string::npos) return;
  const size_t to = std::min(s.find_first_not_of("0123456789.", from), s.size());
  s.replace(from, to - from, kNumbers[pick(std::size(kNumbers))]);
}

}  // namespace rtb::fuzz
