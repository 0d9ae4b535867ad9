// A user's text inside one of our sentences: short, printable, valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "attn/limits.hpp"

namespace attn {

/// @brief text made safe to repeat in a refusal: invalid UTF-8 bytes become U+FFFD, control
/// characters become \n-style or \u00XX escapes, and past max_quoted_chars characters it is
/// cut with "…" (a 10 MB field name must not become a 10 MB error message).
std::string user_text(std::string_view text, std::size_t max_chars = max_quoted_chars);

// Where a refused value sits, said twice: the JSON path (0-based, as in the spec's text) and the
// row and column people count (1-based, as the page and the CLI label them).

/// @brief "x[0][1] (row 1, column 2)".
std::string cell_at(const std::string& name, std::size_t i, std::size_t c);
/// @brief "weights.bq[2] (entry 3)"; what names the entry ("label" for token labels).
std::string entry_at(const std::string& name, std::size_t i, const char* what = "entry");

}  // namespace attn
