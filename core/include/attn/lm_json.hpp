// The language model's JSON: its trace, head scores and the corpora it is trained on (docs/model.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "attn/json.hpp"
#include "attn/lm.hpp"
#include "attn/lm_train.hpp"

namespace attn::lm {

/// @brief {"tokens", "ids", "unknown", "stages": [{"id", "layer", "shape", "data"}]} (data flat, row-major).
json trace_to_json(const model_trace& t);
/// @brief trace_to_json(t).dump()'s text written straight to out (attn lm trace): a tree of millions of numbers
/// would take three times their JSON's memory.
void write_trace_json(std::ostream& out, const model_trace& t);
/// @brief Floats as a JSON array, each as dump() writes its shortest decimal.
void write_floats_json(std::ostream& out, const float* values, std::size_t count);
/// @brief [{"layer", "head", "previous_token", "induction", "first_token", "line_alignment"?}] (0-based).
json heads_to_json(const std::vector<head_score>& scores);
/// @brief Every head's scores on the model's standard probes and, when text is given, on the text (docs/model.md):
/// [{"layer", "head", "probe": {"previous_token", "induction", "first_token", "line_alignment"?}, "text"?:
/// {"previous_token", "induction" (null when no character repeats), "first_token", "self", "entropy",
/// "line_alignment"?}}], the probe's scores also at the top level (as heads_to_json).
json heads_json(const std::vector<head_score>& probe, const std::vector<text_head_score>* text);
/// @brief [{"char", "p", "logit", "heads": [n_layer × n_head], "parts": [{"part", "layer", "head", "value"}]}] for
/// the k most likely next characters: the parts (and ln_f's bias among them) sum to the logit.
json attribution_json(const model& m, const model_trace& t, int k);
/// @brief [{"layer", "after": "attn" | "mlp", "top": [{"char", "p"} × k]}]: the logit lens at the last position.
json lens_json(const model& m, const model_trace& t, int k);
/// @brief {"candidates": [{"char", "temperature", "top_k", "top_p"}] (the k likeliest after the temperature),
/// "sampled": the drawn character's row}.
json sampling_json(const model& m, const sampling& s, int k);
/// @brief {"loss": the model's next-character loss, "spec": layer l's grad spec (its sequence spec with
/// "loss": "upstream" and "upstream": dL/d(attention output))}: what `attn grad` and a.grad take.
json layer_grad_json(const layer_grad& g);
/// @brief The model's config, vocabulary size, corpus and parameter count.
json about_json(const model& m);

/// @brief A corpus file named as in the weight file's metadata, "fortunes-zh:tang300" → its path.
std::string corpus_path(const std::string& name);
/// @brief The named corpus files, read and split; train and held-out texts joined in the given order.
corpus_split read_corpus(const std::vector<std::string>& names);

/// @brief The recipes of the two shipped models: their corpora, configs, vocabulary caps and training.
struct recipe {
    std::string name;                 // "zh" | "en"
    std::vector<std::string> corpus;  // e.g. "fortunes-zh:tang300"
    /// How text windows are drawn: groups of corpus files, each with its share of the windows (one group
    /// of every file when empty). The first group's held-out text is the model's probe.
    std::vector<std::pair<std::vector<std::string>, double>> mix;
    config model_config;
    std::size_t vocab_cap;
    std::size_t vocab_min_count = 1;  // a character must be seen this often in the training split to have an entry
    train_settings training;
};
const recipe& recipe_of(const std::string& name);
/// @brief The recipe as JSON: what the build hashes to know when a model must be trained again.
json recipe_json(const recipe& r);

/// @brief Bits per character of a unigram and of an interpolated bigram (λ chosen on the held-out text,
/// the baseline's best case) fitted on train, both with add-one smoothing over the model's vocabulary.
struct baselines {
    double unigram, bigram, lambda;
};
baselines baseline_bits(const model& m, const std::u32string& train, const std::u32string& heldout);
/// @brief What baseline_bits costs: its bigram table is V × V doubles (65536 characters would be 32 GiB).
cost baseline_cost(const model& m, std::size_t train, std::size_t heldout);

}  // namespace attn::lm
