// The stage registry: the ids of docs/spec.md, word for word, with their symbols, titles,
// explanations (after the two source articles, in English and Chinese), formulas, operands and
// axes.
//
// Adding a stage: its id in stage_id below (the enum's order is the trace's, and the registry's rows follow
// it: a test checks); its row in the registry (core/src/sequence/stages.cpp: symbol, titles and
// explanations in both languages, axes, colour scale), its formula and operands there (stage_formula,
// stage_operands); its computation in core/src/sequence/trace.cpp (compute_trace, and trace::stages, which
// lists it); its gradient in core/src/learn/grad.cpp when it feeds the loss; a cell's arithmetic in
// core/src/explain/explain.cpp; its id in web/types/index.d.ts's StageId (tests/node/module.test.mjs fails
// until the two agree); and its picture in web/src/stepper/steps.js's scene table (which matrices are
// drawn beside it). The CLI, the npm API, the lab and the page's titles, formulas, colours and words then
// come from the registry.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attn/spec.hpp"

namespace attn {

/// @brief Every stage of a trace, in trace order.
enum class stage_id { pe, x, memory, q, k, v, q_rot, k_rot, scores, scaled, masked, row_max, exp, row_sum, weights, context,
                      online_max, online_rescale, online_sum, online_acc, online_output, concat, output };

/// @brief Text in both languages of the playground.
struct bilingual {
    const char* en;
    const char* zh;
};

/// @brief What the rows or the columns of a stage's matrix (one head's, for per-head stages) stand
/// for, so the CLI, the lab and the page label them alike (axis_labels).
enum class axis_kind {
    query,         // the query positions: tokens.query, else q1, q2, ...
    key,           // the key positions: tokens.key (cross-attention), the query tokens (self), else k1, k2, ...
    position,      // positions of the positional table: pos 0, pos 1, ... (the pos of PE(pos, i))
    feature,       // the d_model columns: d1, d2, ...
    head_feature,  // one head's d_head columns: d1, d2, ...
    single,        // one column, named by the stage's symbol (m, s)
    tile,          // the online softmax's tiles of keys: t1, t2, ... (the state after each tile)
    tile_feature,  // one head's d_head columns after each tile: t1·d1, t1·d2, ..., t2·d1, ...
    hidden,        // the language model's MLP columns (d_mlp): h1, h2, ... (no sequence stage has them)
    vocab          // the language model's vocabulary: each character the next one could be (likewise)
};

/// @brief How a stage's values are coloured: a fact of the stage, so no picture can mislead.
enum class color_scale {
    signed_values,  // signs occur: diverging around 0 (blue − … white 0 … red +), ±the largest |v|
    positive,       // never negative (exp, row sums): sequential from 0 to the largest value
    probability     // in [0, 1] (weights, rescale factors): sequential on the fixed range 0 … 1
};

/// @brief Everything fixed about one stage: the registry row the CLI, the lab, the wasm module
/// and the page read (through the module), so a stage's facts are written once.
struct stage_info {
    stage_id id;
    const char* name;      // docs/spec.md's id, e.g. "row_max": the trace key, the JS StageId, the view name
    const char* symbol;    // the matrix's name in formulas and pictures, e.g. "α"
    bilingual title;       // e.g. {"Scaled by √d_k", "除以 √d_k 缩放"}
    bilingual explanation; // what the stage does and why, after the source articles
    bool per_head;         // shape (h, rows, cols); otherwise (rows, cols)
    axis_kind rows, cols;
    const char* term;      // the stage's term in the formula map, e.g. "÷ √d_k" (X (+PE) → Q = XW_q → … → · W_o)
    const char* group;     // terms that form one function there ("softmax" for its four sub-steps), else ""
    color_scale scale;     // how its values are coloured (page, lab, exports)
};

/// @brief The registry: every stage, in trace order.
const std::array<stage_info, 23>& stage_registry();
/// @brief The registry row of one stage.
const stage_info& stage_info_of(stage_id id);

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
/// @brief The stage's term in the formula map for this spec: the registry's, but "Q = X" for queries
/// without W_q (the map must not light a projection the example does not have).
std::string stage_term(stage_id id, const spec& s);
/// @brief The stages this one is computed from, for this spec (e.g. weights: exp, row_sum; row_max:
/// whichever of masked, scaled, scores feeds the softmax). Spec fields (W_q, mask, …) are not stages.
std::vector<stage_id> stage_operands(stage_id id, const spec& s);

/// @brief The colour scale's name: "signed", "positive" or "probability".
const char* color_scale_name(color_scale scale);
/// @brief The axis kind's name, e.g. "head_feature".
const char* axis_name(axis_kind kind);
/// @brief The labels people read along an axis of this stage, for this spec (see axis_kind).
std::vector<std::string> axis_labels(axis_kind kind, const stage_info& stage, const spec& s);
/// @brief How many entries axis_labels gives for that axis, without making them.
std::size_t axis_length(axis_kind kind, const spec& s);

}  // namespace attn
