// A user's text inside one of our sentences: short, printable, valid UTF-8.
#pragma once

#include <string>
#include <string_view>

#include "attn/limits.hpp"

namespace attn {

/// @brief text made safe to repeat in a refusal: invalid UTF-8 bytes become U+FFFD, control
/// characters become \n-style or \u00XX escapes, and past max_quoted_chars characters it is
/// cut with "…" (a 10 MB field name must not become a 10 MB error message).
std::string user_text(std::string_view text, std::size_t max_chars = max_quoted_chars);

}  // namespace attn
