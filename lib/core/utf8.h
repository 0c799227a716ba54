// UTF-8 validity (RFC 3629 section 4: no overlong forms, no surrogates, at most U+10FFFF),
// for text that ends up in JSON or TOML, where only UTF-8 is allowed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rtb {

// The offset of the first byte that does not begin a valid UTF-8 sequence, or nullopt.
std::optional<size_t> first_invalid_utf8(std::string_view s);

// `s` with every byte outside valid UTF-8 sequences written as \xHH: printable in an error.
std::string escape_invalid_utf8(std::string_view s);

}  // namespace rtb
