// The language model's stage registry: the stages a model trace adds around each layer's attention
// (whose stages, q … output, are the sequence registry's own: attn/stages.hpp), and their captions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attn/lm.hpp"
#include "attn/stages.hpp"

namespace attn::lm {

/// @brief The mean and the biased variance of a row of d values (what a LayerNorm divides by), in double.
struct row_moments {
    double mean, var;
};
row_moments moments(const float* x, std::size_t d);

struct model_stage_info {
    const char* id;         // docs/model.md's id, e.g. "resid_mid"
    const char* symbol;     // e.g. "x′"
    bool per_layer;         // carries its layer (false: embed, pe, x, ln_f, logits, probs; layer null)
    bilingual title;
    bilingual explanation;
};

/// @brief The model's own stages, in trace order (the attention stages come from stage_registry()).
const std::vector<model_stage_info>& model_stage_registry();
const model_stage_info* model_stage_of(std::string_view id);

/// @brief The arithmetic of cell (i, j) (0-based; row i is the i-th character) of one of the model's own
/// stages, with the trace's numbers: a LayerNorm cell, a GELU cell, a logit as a dot product with a
/// character's embedding, a residual sum. An attention stage (q … output) of a layer is explained by the
/// sequence core's explain_cell on that layer's spec, head `head` (0-based).
std::string explain_model_cell(const model& m, const model_trace& t, std::string_view id, std::optional<int> layer,
                               std::size_t i, std::size_t j, std::size_t head = 0);

}  // namespace attn::lm
