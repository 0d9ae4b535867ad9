// The stage vocabulary: the ids of DESIGN.md, word for word, with their titles,
// formulas and explanations (taken from the two source articles) in English and Chinese.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "attn/spec.hpp"

namespace attn {

/// @brief Every stage of a trace, in trace order.
enum class stage_id { pe, x, memory, q, k, v, scores, scaled, masked, row_max, exp, row_sum, weights, context, concat, output };

inline constexpr std::array<stage_id, 16> all_stages{
    stage_id::pe,      stage_id::x,       stage_id::memory, stage_id::q,      stage_id::k,       stage_id::v,
    stage_id::scores,  stage_id::scaled,  stage_id::masked, stage_id::row_max, stage_id::exp,    stage_id::row_sum,
    stage_id::weights, stage_id::context, stage_id::concat, stage_id::output};

/// @brief Text in both languages of the playground.
struct bilingual {
    const char* en;
    const char* zh;
};

/// @brief The fixed id string, e.g. "row_max".
const char* stage_name(stage_id id);
/// @brief The stage whose id string is name, if any.
std::optional<stage_id> stage_from_name(std::string_view name);
/// @brief The stage's title, e.g. {"Scaled by √d_k", "除以 √d_k 缩放"}.
bilingual stage_title(stage_id id);
/// @brief What the stage does and why, after the articles.
bilingual stage_explanation(stage_id id);
/// @brief The stage's formula for this spec (the scores formula follows spec.score).
std::string stage_formula(stage_id id, const spec& s);

}  // namespace attn
