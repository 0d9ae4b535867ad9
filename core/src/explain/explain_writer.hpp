// How the arithmetic sentences write their numbers and long lists, shared by the sequence stages
// (explain.cpp) and the vision stages (vision.cpp). Internal to the library.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "attn/explain.hpp"
#include "attn/format.hpp"
#include "attn/trace.hpp"

namespace attn::explain_detail {

/// How a sentence writes its numbers and long lists (see explain_cell).
struct writer {
    bool detail;
    std::string num(float v) const { return detail ? format_exact(v) : format_cell(v); }
    std::string join(const std::vector<std::string>& items, const char* sep) const {
        const std::size_t shown = detail ? items.size() : std::min<std::size_t>(items.size(), 8);
        std::string out;
        for (std::size_t k = 0; k < shown; ++k) out += (k ? sep : "") + items[k];
        if (shown < items.size()) out += std::string(sep) + "…";
        return out;
    }
    std::string list(const std::vector<float>& v, const char* sep) const {
        std::vector<std::string> items;
        for (float x : v) items.push_back(num(x));
        return join(items, sep);
    }
    std::string products(const std::vector<std::pair<float, float>>& pairs) const {
        std::vector<std::string> items;
        for (const auto& [a, b] : pairs) items.push_back(num(a) + "×" + num(b));
        return join(items, " + ");
    }
};

/// A stage's value at (head, row, col) of its (per-head) matrix.
struct stage_at {
    stage_view v;
    std::size_t rows, cols;
    float operator()(std::size_t h, std::size_t r, std::size_t c) const { return v.data[(h * rows + r) * cols + c]; }
};

/// A stage of a trace (or of an adjoint: dL/d(stage) has the stage's shape), read by cell.
inline stage_at of(const trace& t, stage_id id) {
    const std::optional<stage_view> v = t.stage(id);
    if (!v) throw spec_error(std::string("the trace has no stage ") + stage_name(id) + ".");
    return {*v, v->shape[v->shape.size() - 2], v->shape.back()};
}

/// Q, K or V read merged, n × d_model: column j is head j / d_h's column j % d_h.
inline float merged(const stage_at& s, std::size_t i, std::size_t j) { return s(j / s.cols, i, j % s.cols); }

inline std::string n1(std::size_t k) { return std::to_string(k + 1); }  // people count from 1

/// 12 -> "₁₂": the row in m₂, s₂.
inline std::string sub(std::size_t n) {
    static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::string out;
    for (char c : std::to_string(n)) out += digits[c - '0'];
    return out;
}

/// 12 -> "¹²": the tile in m⁽²⁾.
inline std::string sup(std::size_t n) {
    static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string out;
    for (char c : std::to_string(n)) out += digits[c - '0'];
    return out;
}

}  // namespace attn::explain_detail
