// The language model's stage registry: every stage of a model trace in trace order, with the same facts
// the sequence registry (attn/stages.hpp) gives its stages — symbol, titles and explanations in English
// and Chinese, formula, axes, operands, colour scale — so the page, the CLI and the captions read one
// table. The attention stages of each layer (q … output) are the sequence registry's own rows; this file
// holds the model's own (embeddings, LayerNorms, residual sums, MLP, logits) and places both in order.
// Adding a model stage is one row of model_stage_registry() plus its compute in lm/trace.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attn/json.hpp"
#include "attn/lm.hpp"
#include "attn/stages.hpp"

namespace attn::lm {

/// @brief The mean and the biased variance of a row of d values (what a LayerNorm divides by), in double.
struct row_moments {
    double mean, var;
};
row_moments moments(const float* x, std::size_t d);

/// @brief Which layer a stage's operand is read from, relative to the stage's own layer.
enum class layer_ref {
    global,    // a global stage (embed, pe, x, ln_f, logits, probs)
    same,      // the stage's own layer
    previous,  // the layer before: its resid_post; before layer 1 that is the global x (the stream's start)
    last       // the last layer (ln_f reads the last resid_post)
};

/// @brief One stage another is computed from (weights such as γ, W₁ are parameters, not stages).
struct model_operand {
    const char* id;
    layer_ref layer;
};

/// @brief Everything fixed about one of the model's own stages (the attention stages are stage_info rows).
struct model_stage_info {
    const char* id;          // docs/model.md's id, e.g. "resid_mid": the trace key and the JS ModelStageId
    const char* symbol;      // e.g. "x′"
    bool per_layer;          // carries its layer (false: embed, pe, x, ln_f, logits, probs; layer null)
    bilingual title;
    bilingual explanation;
    const char* formula;     // e.g. "x′ = x + attention(LN₁(x))"
    axis_kind rows, cols;    // rows are the text's characters (query); cols feature, hidden or vocab
    color_scale scale;       // how its values are coloured
    bool in_block;           // one of a decoder block's own stages: the page's block strip shows them
    std::vector<model_operand> operands;
    bool needs_mlp = false;  // only a model with an MLP has it (ln_2 … mlp_out)
    bool per_head = false;   // one (rows × cols) matrix per head, behind the head axis (kv_cache: per K and V, too)
};

/// @brief The model's own stages, in trace order (the attention stages come from stage_registry()).
const std::vector<model_stage_info>& model_stage_registry();
const model_stage_info* model_stage_of(std::string_view id);

/// @brief One stage of a model trace: a model row, or a sequence row of each layer's attention (the stages a
/// layer spec's trace has, but its input x, which is ln_1).
struct model_stage_row {
    const model_stage_info* own = nullptr;  // the model's own stage, or
    std::optional<stage_id> attention;      // a stage of the layer's attention
    const char* id() const { return own ? own->id : stage_name(*attention); }
};
/// @brief Every stage a model trace can have, in trace order (a model without MLP has no ln_2 … mlp_out), then
/// kv_cache, which only a generation step (step_trace) has: there each layer's cache comes before its weights.
const std::vector<model_stage_row>& model_stage_order();

/// @brief The stages that stage `id` of layer `layer` (none for a global stage) is computed from, as
/// (id, layer) of the same trace: the registry's operands made concrete for a model of this config (no
/// MLP stage without an MLP). The attention stages' operands are the sequence registry's, x being ln_1.
std::vector<std::pair<std::string, std::optional<int>>> model_stage_operands(std::string_view id, std::optional<int> layer,
                                                                             const config& c);

/// @brief A sequence spec of a model layer's attention, numbers aside (scaled dot, causal, every projection with
/// its bias): which sequence stages a layer has, and their formulas and operands, are the sequence core's for it.
const spec& layer_attention_shape();

/// @brief A row of model_stage_order() as JSON: stage_facts_json (the fields every kind's registry has), then
/// kind ("model" | "attention"), per_layer, per_head, rows, cols, formula, operands [{id, layer: "global" |
/// "same" | "previous" | "last"}] and block (a decoder block's own stage, shown in the page's block strip).
json model_stage_json(const model_stage_row& row);
/// @brief Every row of model_stage_order() as JSON, in trace order: `attn lm stages`, m.stages().
json model_stage_registry_json();

/// @brief The arithmetic of cell (i, j) (0-based; row i is the i-th character) of one of the model's own
/// stages, with the trace's numbers: a LayerNorm cell, a GELU cell, a logit as a dot product with a
/// character's embedding, a residual sum. An attention stage (q … output) of a layer is explained by the
/// sequence core's explain_cell on that layer's spec, head `head` (0-based); `attention`, when given, is that
/// layer's sequence trace already made (attention_trace_of), so a whole stage's cells trace it once.
std::string explain_model_cell(const model& m, const model_trace& t, std::string_view id, std::optional<int> layer,
                               std::size_t i, std::size_t j, std::size_t head = 0, const attn::trace* attention = nullptr);
/// @brief Layer `layer`'s attention traced by the sequence core with the text's characters as its labels: what
/// explain_model_cell explains an attention cell with.
attn::trace attention_trace_of(const model& m, const model_trace& t, int layer);

}  // namespace attn::lm
