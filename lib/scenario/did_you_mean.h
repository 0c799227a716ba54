// Suggestions for misspelt keys: the nearest known name by edit distance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rtb::scenario {

// Levenshtein distance (insertions, deletions, substitutions each cost 1).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` if it is close enough to be a likely typo (distance at
// most 2, or at most a third of the word's length for long words); ties go to the first
// candidate in the given order. Empty if none is close.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace rtb::scenario
