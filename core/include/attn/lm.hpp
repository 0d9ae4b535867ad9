// The tiny language model (docs/model.md): a character-level decoder-only Transformer that the project
// trains itself. Its file is safetensors; its tensor names, forward pass, stage ids and head scores are
// the contract of docs/model.md, which an independent implementation (tests/oracle/lm_numpy.py) checks.
//
// Size letters: V vocabulary, n characters of one text (≤ n_ctx), d d_model, h n_head, d_h = d / h,
// d_m d_mlp, B sequences of a batch, T characters a sequence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attn/spec.hpp"

namespace attn::lm {

/// @brief The model's shape, the file's "config" metadata (docs/model.md).
struct config {
    int n_layer = 2;
    int n_head = 4;
    int d_model = 64;
    int d_mlp = 256;   // 0: attention-only (no MLP, no ln_2)
    int n_ctx = 64;
    bool learned_positions = true;  // "positional": "learned" (wpe) or "sinusoidal" (seed 000's PE)
    float ln_eps = 1e-5f;
};

/// @brief One named tensor of the parameter table: where its floats sit in model::weights.
struct param {
    std::string name;                // the file's tensor name, e.g. "h.0.attn.wq"
    std::vector<std::size_t> shape;  // e.g. {d, d}
    std::size_t offset = 0, size = 0;
    bool decay = false;              // AdamW's weight decay applies (matrices and embeddings, as nanoGPT)
};

/// @brief The parameter table of a config: the one list of tensor names, shapes and their order, which
/// the file reader and writer, the trainer, the gradient and the accessors all walk.
std::vector<param> parameter_table(const config& c, std::size_t vocab);

/// @brief The file's name of layer l's tensor, e.g. layer_tensor_name(0, "attn.wq") = "h.0.attn.wq".
std::string layer_tensor_name(int layer, std::string_view rest);

/// @brief Refuses a config outside the limits of docs/model.md, naming the field.
void validate_config(const config& c);

struct model {
    attn::lm::config config;
    std::vector<std::string> vocab;    // UTF-8; vocab[0] = "<unk>", every other entry one code point
    std::vector<std::string> corpus;   // the corpus files trained on, e.g. "fortunes-zh:tang300"
    std::string probe;                 // held-out text the head scores are measured on (metadata "probe")
    std::vector<param> table;          // parameter_table(config, vocab.size())
    std::vector<float> weights;        // every tensor, flat, in table order
    std::unordered_map<char32_t, int> ids;  // code point → vocabulary id

    /// @brief The tensor of this name; throws spec_error when the model has none.
    const float* tensor(std::string_view name) const;
    float* tensor(std::string_view name);
    /// @brief Layer l's tensor, e.g. tensor(0, "ln_1.weight") is "h.0.ln_1.weight".
    const float* tensor(int layer, std::string_view rest) const { return tensor(layer_tensor_name(layer, rest)); }
    const param& slot(std::string_view name) const;
};

/// @brief A model with freshly initialised weights (nanoGPT's: N(0, 0.02), residual projections
/// 0.02/√(2·n_layer), LayerNorm 1 and 0, biases 0), from a fixed seed.
model make_model(const config& c, std::vector<std::string> vocab, std::uint64_t seed);
/// @brief Checks the vocabulary (entry 0 "<unk>", each other one code point, no repeats) and indexes it.
void index_vocab(model& m);

enum class dtype { f32, f16 };
/// @brief Reads a safetensors file; a hostile one (lying lengths or offsets, overlaps, wrong shapes, a header
/// nested too deep or with a key twice, a bad vocabulary) is refused with one sentence before anything is read
/// out of bounds. before_data, when given, sees the model with its config, vocabulary and parameter table but
/// no weights yet (the header alone read): the CLI estimates a call's cost there, before the data is read.
model read_safetensors(const std::uint8_t* data, std::size_t size, const std::function<void(const model&)>& before_data = {});
model read_safetensors_file(const std::string& path, const std::function<void(const model&)>& before_data = {});
std::vector<std::uint8_t> write_safetensors(const model& m, dtype type);

/// @brief Text as the model's ids: each code point's id, 0 for one it does not know.
struct tokens {
    std::vector<int> ids;
    std::vector<std::string> chars;    // each character as UTF-8
    std::vector<std::size_t> unknown;  // positions whose character is not in the vocabulary
};
/// @brief Refuses text that is not valid UTF-8 (or lone surrogates), empty or over max_chars characters.
tokens tokenize(const model& m, std::string_view utf8, std::size_t max_chars);
/// @brief The code points of valid UTF-8 text (spec_error otherwise), and one code point as UTF-8.
std::u32string decode_utf8(std::string_view text, const char* what);
std::string encode_utf8(char32_t c);

/// @brief One stage of a model trace (docs/model.md): layer is 0-based, or none for global stages.
struct stage {
    std::string id;
    std::optional<int> layer;
    std::vector<std::size_t> shape;
    std::vector<float> data;
};
struct model_trace {
    attn::lm::tokens tokens;
    std::vector<stage> stages;
    const stage* find(std::string_view id, std::optional<int> layer) const;
};
/// @brief Every stage of every layer on text of 1 … n_ctx characters: the model's one forward pass
/// (core/src/lm/forward.cpp) with a tap that keeps each stage, the attention's named as the sequence core's.
model_trace trace(const model& m, std::string_view text);

/// @brief Layer l's attention as a sequence spec on its ln_1 rows (n, d): {x, heads, scaled_dot, causal, weights}.
spec layer_spec(const model& m, int l, const float* ln_1, std::size_t n);
/// @brief Layer l (0-based) of a trace as a sequence spec, its characters as the labels: what the playground's
/// stepper traces to show that layer. Throws spec_error naming the layers the model has.
spec layer_spec_of(const model& m, const model_trace& t, int l);

/// @brief The k most likely next characters after text (<unk> is never proposed).
struct candidate {
    std::string ch;
    float p;
};
std::vector<candidate> next(const model& m, std::string_view text, int k);

/// @brief Options of generate: temperature 0 is greedy; top_k keeps the k likeliest characters (0: all), top_p the
/// fewest likeliest whose probability reaches p (1: all), each renormalised; the seed makes sampling repeatable.
struct generate_options {
    int n = 100;
    double temperature = 0.8;
    std::uint64_t seed = 0;
    int top_k = 0;
    double top_p = 1.0;
};
/// @brief Refuses a top_k outside 0 … V − 1 or a top_p outside the bound "top_p" (NaN included), naming them.
void check_sampling(const model& m, const generate_options& o);

/// @brief The next-character distribution as sampling draws it (docs/model.md, "Sampling you can see"): over
/// the vocabulary, <unk> and control characters 0, after the temperature (one-hot on the likeliest at 0),
/// after top-k, after top-p, and the character the seed draws from the last (generate's first pick).
struct sampling {
    std::vector<float> temperature, top_k, top_p;  // V each
    int pick = 0;
};
sampling sample_next(const model& m, std::string_view text, const generate_options& o);
/// @brief The three distributions of one row of logits and the draw from the last with u ∈ [0, 1): generate's
/// and sample's one procedure, for any model (ok: which ids may be proposed; its size is the vocabulary's).
sampling sample_logits(const float* logits, const std::vector<bool>& ok, const generate_options& o, double u);
/// @brief The k likeliest characters (1 … V − 1) of a distribution over the vocabulary, ties to the lower id.
std::vector<candidate> likeliest_of(const model& m, const std::vector<float>& p, int k);
/// @brief The same on a trace's last row of logits (no second forward pass).
sampling sample_of_trace(const model& m, const model_trace& t, const generate_options& o);
/// @brief Whether generation may propose vocabulary entry id: not <unk>, not a control character (a BEL or a
/// backspace written into the text box); a line break and a tab may be proposed.
std::vector<bool> proposable(const model& m);
/// @brief prompt's continuation, n characters, one row of attention a character (a key/value cache);
/// when the cache fills the context it is rebuilt from the last n_ctx/2 characters.
std::string generate(const model& m, std::string_view prompt, const generate_options& o);
/// @brief generate's refusals before any work: n, the temperature, and the cost of a prompt of `prompt` characters
/// then n more (with how many would fit).
void check_generate(const model& m, std::size_t prompt, const generate_options& o);

/// @brief One generation step on text's last character, the ones before it already in the key/value
/// cache: per layer the cache after the step (kv_cache, 2 × h × n × d_h: keys, then values) and the new
/// row of attention weights (h × 1 × n), then the new row's logits and probs. One row of attention a layer.
model_trace step_trace(const model& m, std::string_view text);

/// @brief Mean bits per character predicting each character of text from the ones before it (windows of
/// n_ctx + 1 characters, each character after the first of a window predicted once).
struct eval_result {
    double bits_per_char;
    std::size_t predicted;
};
eval_result evaluate(const model& m, const std::vector<int>& ids);

/// @brief TransformerLens's detector scores of one head (docs/model.md, "Head scores").
struct head_score {
    int layer, head;
    double previous_token, induction, first_token;
    std::optional<double> line_alignment;  // for text with poem lines (none when the probe has none)
    double induction_heldout = 0;          // induction on passages of the probe text (held-out corpus text) written twice
};
/// @brief Every head's scores; previous-token, first-token and line-alignment on probe text (the
/// model's own held-out probe when empty), induction on random characters repeated twice and on passages
/// of the probe text repeated twice.
std::vector<head_score> head_scores(const model& m, std::string_view probe = {});
/// @brief head_scores' refusals before any work: the probe's characters (2 … the bound "probe") and the cost.
void check_heads(const model& m, std::string_view probe);

/// @brief Direct logit attribution at the text's last position: how much each head's output (its context
/// row through its slice of W_o) adds to each candidate's logit, read through the final LayerNorm with
/// that row's own scale (TransformerLens's apply_ln): rstd · Σ_k (o_k − mean o) · γ_k · wte[c, k]. The
/// rest of the logit comes from the embeddings, W_o's biases, the MLPs and β · wte[c].
struct attribution {
    std::string ch;
    float logit;
    std::vector<float> heads;  // n_layer × n_head, layer by layer
};
std::vector<attribution> logit_attribution(const model& m, const model_trace& t, const std::vector<std::string>& chars);
/// @brief The k most likely next characters from a trace's last row of probabilities (as next() ranks them).
std::vector<candidate> next_of_trace(const model& m, const model_trace& t, int k);

/// @brief The same detectors measured on the typed text itself (docs/model.md, "Measured on the typed text"): its
/// weights from a trace of it. previous-token and first-token as above over its rows; induction: for query i,
/// P[i][j+1] = 1 for every j < i − 1 with the same character as i, over the rows that have one; self: P[i][i] = 1;
/// entropy: the mean over rows of −Σ_j α_ij log₂ α_ij (bits); line-alignment when the text has aligned lines.
struct text_head_score {
    int layer, head;
    double previous_token, induction, first_token, self, entropy;
    std::optional<double> line_alignment;
    bool induction_measured = false;  // whether any row had an earlier copy of its character
};
std::vector<text_head_score> text_head_scores(const model& m, const model_trace& t);

/// @brief Direct logit attribution, exact (docs/model.md, "Where a logit comes from"): with ln_f's 1/σ frozen at
/// its value on the last position's full residual, each part p of that residual (the embedding, each head's
/// output, each attention's b_o, each MLP's output) adds ((p − mean p) / σ · γ) · wte[c]; ln_f's β adds β · wte[c].
/// The parts sum to the logit.
struct logit_part {
    std::string part;  // "embed" | "head" | "attn_bias" | "mlp" | "ln_f_bias"
    int layer = -1, head = -1;  // −1: none
    double value = 0;
};
std::vector<logit_part> logit_parts(const model& m, const model_trace& t, int id);

/// @brief The logit lens: ln_f and the unembedding applied to the residual stream at the last position after
/// each layer's attention (resid_mid) and after its MLP (resid_post; absent for attention-only models), each
/// point's k likeliest characters (<unk> and control characters never proposed).
struct lens_point {
    int layer;
    bool after_mlp;
    std::vector<candidate> top;
};
std::vector<lens_point> logit_lens(const model& m, const model_trace& t, int k = 5);

/// @brief The key P of line-alignment for a text's characters: target[i] = j, or -1 when i has none.
std::vector<int> line_alignment_targets(const std::u32string& text);

/// @brief Bounds of one call (docs/limits.md): characters generated at once, training steps.
inline constexpr int max_generate = 8000;
inline constexpr int max_train_steps = 100000;

/// @brief One bound of the language model (docs/limits.md, "The language model"), named as its refusal names it: a
/// config field (n_layer …), a fresh model's vocabulary (vocab), a weight file's sizes, a text's, a corpus's, the
/// arguments of a call (n, steps, batch, warmup, temperature, seed) and the budget of one call (work, memory,
/// output). The one table the validators, the cost estimates, the CLI and the npm package (lm.js reads it once
/// from the lm module, its limits operation) check against.
struct lm_bound {
    const char* name;
    double lo, hi;    // whole numbers but temperature's; a budget's lo is 0
    const char* why;  // the reason for the number, as docs/limits.md gives it
};
const std::vector<lm_bound>& lm_bounds();
/// @brief The bound of this name; throws std::logic_error for a name the list lacks.
const lm_bound& lm_bound_of(std::string_view name);
/// @brief Throws spec_error "name is v but must be from lo to hi." when v is outside the named bound (what:
/// the name as the sentence says it, e.g. "config.n_layer"; empty: the bound's own name).
void check_bound(std::string_view name, double v, std::string_view what = {});
/// @brief Refuses a temperature that is neither 0 (greedy) nor within the bound "temperature" (NaN included).
void check_temperature(double t);

/// @brief What one call would cost, estimated from the config, the vocabulary and the sizes asked for, before
/// any of it is done (the model's weights need not be read yet): work in multiply-adds (an exp counted as one),
/// the memory it holds at its peak and the JSON it writes, in bytes.
struct cost {
    double work = 0, memory = 0, output = 0;
    cost operator+(const cost& o) const { return {work + o.work, memory + o.memory, output + o.output}; }
};
/// @brief A trace of n characters (trace, attribute, explain's trace, layerSpec): every stage kept.
cost trace_cost(const model& m, std::size_t n);
/// @brief next on n characters: the batched forward pass.
cost next_cost(const model& m, std::size_t n);
/// @brief A generation step on n characters through the key/value cache, its stages kept.
cost step_cost(const model& m, std::size_t n);
/// @brief generate: a prompt of `prompt` characters, then n more through the cache (its rebuilds counted).
cost generate_cost(const model& m, std::size_t prompt, std::size_t n);
/// @brief The head scores: probe text of `probe` characters (its first 16 windows) and the induction batch.
cost heads_cost(const model& m, std::size_t probe);
/// @brief The loss and the gradient of every weight on `rows` predictions (attn lm grad writes them all).
cost grad_cost(const model& m, std::size_t rows);
/// @brief A layer's gradient spec on n characters: the trace, the gradient, the spec's JSON.
cost layer_grad_cost(const model& m, std::size_t n);
/// @brief Bits per character of `chars` characters (windows of n_ctx + 1, 32 at a time); work against "eval_work".
cost eval_cost(const model& m, std::size_t chars);
/// @brief One training step of `batch` windows in `parts` (the optimiser's state and every part's gradient held).
cost train_step_cost(const model& m, std::size_t batch, std::size_t parts);
/// @brief Every cell of one stage explained, `cells` lines of about 400 bytes, after a trace of n characters.
cost explain_cost(const model& m, std::size_t n, std::size_t cells);
/// @brief A fresh model of config c and vocabulary V from a corpus of `bytes` bytes (split, counted, kept).
cost fresh_cost(const config& c, std::size_t V, std::size_t bytes);
/// @brief Whether a cost is within the bounds "work" (or work_bound), "memory" and "output".
bool within_budget(const cost& c, std::string_view work_bound = "work");
/// @brief Refuses a cost over the bound `work` (or "eval_work"), "memory" or "output" with one sentence: "what
/// would take about 23.6 billion multiply-adds, over the limit of 4.29 billion a call: hint."
void check_cost(const cost& c, std::string_view what, std::string_view hint, std::string_view work_bound = "work");
/// @brief The most characters (1 … most) whose cost(n) passes check_cost, or 0 when none does: for the hint.
std::size_t most_that_fit(std::size_t most, const std::function<cost(std::size_t)>& cost_of, std::string_view work_bound = "work");
/// @brief Refuses text of n characters over n_ctx, or a text whose call costs too much (with how many would fit):
/// what is the call as the sentence names it, e.g. "next".
void check_text_cost(const model& m, std::size_t n, std::string_view what, cost (*cost_of)(const model&, std::size_t));

/// @brief Refuses values the model computed that are not finite (its weights too large for float32): "the
/// model's <what> overflowed the float range: …". Called where numbers leave the core, never printed as null.
void check_finite(const float* values, std::size_t count, std::string_view what);
void check_finite(double value, std::string_view what);

/// @brief The number of characters of valid UTF-8 text (spec_error naming `what` otherwise), without keeping them.
std::size_t count_chars(std::string_view utf8, const char* what);

}  // namespace attn::lm
