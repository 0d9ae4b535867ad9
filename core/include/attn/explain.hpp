// The arithmetic behind one result cell of a stage, written out with the trace's own numbers, e.g.
// "α[1][2] = exp[1][2] ÷ s₁ = 0.3679 ÷ 1.9744 = 0.1863". One writer for every face of the project:
// the page's captions (through the wasm module), the lab's tooltips, the CLI.
#pragma once

#include <cstddef>
#include <string>

#include "attn/trace.hpp"

namespace attn {

/// @brief The arithmetic of result cell (i, j) (0-based) of stage id, head `head` for per-head stages
/// (q, k and v are read as their merged n × d_model view, as the page shows them; row_max and
/// row_sum take j = 0). Short form: numbers as cells show them, at most 8 terms then "…"; detail:
/// every term, every digit. Throws spec_error for a stage the trace lacks or a cell outside it.
std::string explain_cell(const trace& t, stage_id id, std::size_t head, std::size_t i, std::size_t j,
                         bool detail = false);

/// @brief A float with every digit it needs to be read back exactly (shortest round trip), as
/// JavaScript writes numbers ("0.1", "1.5e-7"), minus sign U+2212.
std::string format_exact(float v);

}  // namespace attn
