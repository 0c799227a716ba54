// What `rocetb params import` found in its sources: the scenario keys each value becomes
// (with the file and line it came from) and the findings about values that are invalid,
// out of range, unknown, legal but disabling a mechanism, or ambiguous in unit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rtb::params {

// A place in a source: a file and a 1-based line (a one-value file such as a cc_params
// entry is line 1).
struct Origin {
  std::string file;
  uint32_t line = 1;
};

// One value worth a sentence: printed as "FILE:LINE: key = value: reason".
struct Finding {
  Origin at;
  std::string key;    // as the source names it (rp_gd, WRED_PROFILE|AZURE_LOSSLESS.green_min_threshold)
  std::string value;  // as the source wrote it
  std::string reason;
};

std::string format(const Finding& f);

// One scenario key: its table ("switch.wred_profile", "cc.params", "" for the top level),
// its name and its value as TOML text ("\"150KB\"", "[3, 4]", "1019").
struct Key {
  std::string table;
  std::string name;
  std::string value;
  Origin at;
  std::string source_name;  // the source's own name and value, for the comment and findings
  std::string source_value;
};

class Imported {
 public:
  // Sets a key; a key set again by a later line with another value replaces the earlier
  // one, and a finding says so; with the same value the first place stays.
  void set(const std::string& table, const std::string& name, const std::string& value, const Origin& at,
           const std::string& source_name, const std::string& source_value);
  void find(const Origin& at, const std::string& key, const std::string& value, const std::string& reason);
  void note(const std::string& sentence) { notes_.push_back(sentence); }
  // Findings in file order (the order the files were first named), then by line.
  void sort_findings();
  // Removes a key (a value the checks refused), returning whether it was there.
  bool drop(const std::string& table, const std::string& name);

  const Key* get(const std::string& table, const std::string& name) const;
  const std::vector<Key>& keys() const { return keys_; }
  const std::vector<Finding>& findings() const { return findings_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::vector<Key> keys_;
  std::vector<Finding> findings_;
  std::vector<std::string> notes_;
};

// TOML value text helpers.
std::string quoted(const std::string& s);

}  // namespace rtb::params
