// What a caller asks of a model folder's model (the CLI's `attn lm … --model DIR`, the wasm module's
// attn_hf_call): the checks before a pass, the next-token distributions and generation, each answered as the
// JSON every caller prints or returns. One place, so that the page, the npm package and the CLI give the same
// numbers and refuse in the same sentences.
#pragma once

#include <string>
#include <vector>

#include "attn/hf.hpp"
#include "attn/spec.hpp"
#include "attn/json.hpp"
#include "attn/lm.hpp"

namespace attn::hf {

/// @brief The ids of `text` for a pass, refused in one sentence when the text makes no token, or when they
/// and `more` tokens to generate are past the model's context.
std::vector<int> ids_to_run(const model& m, const std::string& text, int more = 0);

/// @brief Refuses a trace of n tokens that would keep more than `most_floats` numbers (every stage of every
/// layer, the logits and probabilities of every token among them), before any weight is read; else returns
/// how many it keeps at most (an upper bound of what `forward` reports through its tap, for a store to reserve).
double check_trace_size(const model& m, std::size_t n, double most_floats);

/// @brief Layer `layer`'s attention as a spec of the playground's stepper (its LayerNorm's rows as x, the
/// layer's W_q, W_k, W_v, W_o and biases in the spec's x·W convention, its heads, scaled dot, causal, the
/// tokens as labels), so that the stepper traces the model's own numbers: GPT-2's layers only (the stepper has
/// no rotary positions or shared key/value heads yet; refused for the others in one sentence).
spec layer_spec(const model& m, const std::vector<int>& ids, int layer);

/// @brief {"ids", "tokens" (as a reader sees them), "pieces" (as the model stores them)}.
json tokenized(const tokenizer& t, const std::vector<int>& ids);

/// @brief The k likeliest next tokens after the temperature, top-k and top-p of `o`: [{"id", "token", "p"}].
json next_tokens(const model& m, const std::vector<float>& logits, int k, const lm::generate_options& o);

/// @brief The distribution after the temperature, after top-k and after top-p (the k likeliest), and the draw
/// generate would make first with o.seed: {"candidates": [{"id", "token", "temperature", "top_k", "top_p"}], "pick"}.
json sample_tokens(const model& m, const std::vector<float>& logits, int k, const lm::generate_options& o);

/// @brief o.n new tokens after the prompt's ids (its logits given), each through the key/value cache the prompt
/// filled: their ids. The same seed gives the same ids everywhere.
std::vector<int> generate(const model& m, std::vector<float> logits, kv_cache& cache, const lm::generate_options& o);

/// @brief What stage `id` of an architecture's trace is: {"id", "symbol", "title": {"en", "zh"}, "explain", "formula", "scale"},
/// from the one registry that describes it (a real architecture's own row, else the character model's, else the
/// sequence core's).
json stage_facts(const std::string& id, architecture arch);

/// @brief The model's shape and files: {"architecture", "dtype", "n_layer", …, "weight_bytes"}.
json about(const model& m);

}  // namespace attn::hf
