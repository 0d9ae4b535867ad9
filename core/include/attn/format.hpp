// Numbers as people read them: one format for a value in a cell, shared by the CLI table and the
// example texts (the page's web/src/stepper/format.js writes the same), and example texts whose
// numbers are filled in from the trace they describe, so an edit never leaves a stale figure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "attn/trace.hpp"

namespace attn {

/// @brief A value as a cell shows it: whole numbers as they are ("2"), 4 decimals otherwise ("0.5065"),
/// "1e9" or "1.23e5" from 1e5 up, "1.2e-7" below 5e-5; a minus sign is U+2212.
std::string format_cell(float v);

/// @brief text with every "{stage[i][j]}" (1-based row and column of head `head`) replaced by that
/// value of the trace, formatted as a cell; "—" where the trace has no such stage or cell.
/// e.g. "the first row is {weights[1][1]}, {weights[1][2]}" -> "the first row is 0.5065, 0.1863".
std::string fill_numbers(std::string_view text, const trace& t, std::size_t head = 0);

}  // namespace attn
