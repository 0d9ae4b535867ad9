// Training the tiny language model (docs/model.md, "Training"): corpora in fortune format with the
// fixed held-out split, the batched forward and backward pass, AdamW with clipping and a schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/grad.hpp"
#include "attn/lm.hpp"

namespace attn::lm {

/// @brief One corpus file's entries, split: entry i (0-based) is held out when i % 10 == 9.
struct corpus_split {
    std::u32string train, heldout;  // entries joined, each ending with a newline, ANSI colour codes stripped
};
/// @brief Splits fortune-format text (entries separated by lines holding "%").
corpus_split split_fortunes(std::string_view text);

/// @brief The vocabulary of training texts sampled with these weights: "<unk>", then the characters by
/// falling frequency as the trainer draws them (a character's share of each text × the text's weight;
/// ties by code point), at most max_size entries in all, each character seen at least min_count times in the
/// texts together.
std::vector<std::string> build_vocab(const std::vector<std::u32string>& texts, const std::vector<double>& weights,
                                     std::size_t max_size, std::size_t min_count = 1);
std::vector<std::string> build_vocab(const std::u32string& train, std::size_t max_size);
/// @brief Every character's id (0 for unknown ones).
std::vector<int> to_ids(const model& m, const std::u32string& text);

/// @brief The trainer's settings; every one is written into the weight file's "training" metadata.
struct train_settings {
    int steps = 1000;
    int batch = 32;              // sequences a step, each n_ctx characters
    double lr = 2e-3;            // peak learning rate, after a linear warm-up
    int warmup = 100;
    double min_lr_ratio = 0.1;   // cosine decay to lr · min_lr_ratio at the last step
    double weight_decay = 0.01;  // AdamW, on matrices and embeddings only
    double beta1 = 0.9, beta2 = 0.99, eps = 1e-8;
    double clip = 1.0;           // the gradients' global norm is clipped to this
    double repeat_fraction = 0;  // share of each batch that is random characters repeated (copying)
    int repeat_alphabet = 300;   // drawn from vocabulary entries 1 … this (the most frequent)
    /// 0: every random string uses all repeat_alphabet characters; else each draws how many it uses from
    /// repeat_alphabet_min … repeat_alphabet (a small alphabet repeats its characters, as real text does)
    int repeat_alphabet_min = 0;
    /// repeat_alphabet after the short steps (0: the same): heads formed on the most frequent characters learn to
    /// copy every character of a large vocabulary
    int long_repeat_alphabet = 0;
    /// Share of each batch that is a window of real text in which a passage of it (8 … n_ctx/2 characters)
    /// is written again later in the same window: copying learned on the corpus's own text.
    double repeat_text_fraction = 0;
    /// The first this many steps draw windows of short_ctx characters (a warm start: the heads form on short windows,
    /// at a fraction of the cost of a step), the rest windows of n_ctx.
    int short_steps = 0;
    int short_ctx = 0;  // 0: n_ctx/2
    /// repeat_fraction after the short steps (negative: the same): random strings start the copying heads, real text
    /// that repeats keeps them.
    double long_repeat_fraction = -1;
    std::uint64_t seed = 1;
    /// The batch is cut into this many equal parts, whose gradients are summed in a fixed order; natively
    /// each part runs on its own thread. The result depends on the parts, never on the machine's cores.
    int parts = 1;
};

/// @brief Buffers of one batched forward pass, kept for the backward pass.
struct activations;

/// @brief The mean cross-entropy (nats) of predicting targets from inputs, B sequences of T ids;
/// with grad, the gradient of that loss for every parameter (model::table's layout); with grad and attention_out,
/// per layer the gradient arriving at its attention's output (B·T × d_model: where it joins the residual).
double loss_and_grad(const model& m, const std::vector<int>& inputs, const std::vector<int>& targets,
                     int B, int T, std::vector<float>* grad, std::vector<std::vector<float>>* attention_out = nullptr);

/// @brief Layer l of a trace's text with the model's own loss above it, for the sequence core's backward
/// pass (compute_grad): the layer's spec (layer_spec on its ln_1 rows, the characters as labels) and the
/// next-character loss of the text (the mean over its n − 1 predictions, as `attn lm grad` has it) with
/// its gradient at the attention's output as an "upstream" loss (n × d_model; the last row 0: the last
/// character's prediction is not in the loss). Every stage's gradient is then the model loss's own.
struct layer_grad {
    attn::spec spec;
    loss_spec upstream;
    double loss;
};
layer_grad layer_grad_of(const model& m, const model_trace& t, int layer);
/// @brief Layer l's MLP on rows of x′ (rows, d): ln_2 (rows, d) with each row's mean and 1/σ (either may be
/// null), pre and act (rows, d_m), out (rows, d) = GELU(LN₂(x′)·W₁ + b₁)·W₂ + b₂. The one MLP of the batched
/// pass, the trace and generation.
void mlp_forward(const model& m, int l, const float* mid, std::size_t rows, float* ln2, float* mean, float* rstd,
                 float* pre, float* act, float* out);
/// @brief The batched forward pass's logits (B·T, V) and, per layer, the attention weights (B, h, T, T).
void forward_logits(const model& m, const std::vector<int>& inputs, int B, int T,
                    std::vector<float>& logits, std::vector<std::vector<float>>* weights);

/// @brief A seeded, portable pseudo-random stream (splitmix64): the same numbers on every platform.
class rng {
public:
    explicit rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    double uniform();                 // [0, 1)
    std::size_t below(std::size_t n); // [0, n)
    double normal();
private:
    std::uint64_t state_;
};

/// @brief One part's mean loss over B sequences of the batch's inputs and targets; with grad, its gradient.
using part_loss = std::function<double(const std::vector<int>& inputs, const std::vector<int>& targets, int B, std::vector<float>* grad)>;
/// @brief The mean loss of a batch of B sequences of T ids, its gradient into grad (sized already): the batch cut
/// into `parts` runs of whole sequences, each its own pass (natively each on its own thread), their losses and
/// gradients summed in a fixed order by their share of the sequences. The result depends on the parts, never on
/// the machine's cores.
double batch_gradient(int parts, std::size_t B, std::size_t T, const std::vector<int>& inputs, const std::vector<int>& targets,
                      const part_loss& loss, std::vector<std::vector<float>>& part_grads, std::vector<float>& grad);
/// @brief One AdamW update (PyTorch's; decay on the table's decay entries only) of the weights by grad, its global
/// norm clipped to s.clip, at the learning rate of step (a linear warm-up, then a cosine from lr down to
/// lr · min_lr_ratio at the last step, after the short steps when there are any); step counts on by one. A loss
/// or gradient that overflowed is refused (spec_error) before the update: the weights stay as they were.
void optimizer_step(std::vector<float>& weights, const std::vector<float>& grad, std::vector<float>& m1, std::vector<float>& m2,
                    const std::vector<param>& table, const train_settings& s, double loss, int& step);

/// @brief Trains m in place on a training text: mini-batches of random windows (some replaced by
/// repeated random strings), AdamW, clipping at the global norm, warm-up then cosine decay.
class trainer {
public:
    trainer(model& m, std::vector<int> train_ids, const train_settings& s);
    /// @brief Each text window drawn from stream k with probability weights[k] (e.g. poems beside prose).
    trainer(model& m, std::vector<std::vector<int>> streams, std::vector<double> weights, const train_settings& s);
    /// @brief One step; returns the batch's loss before the update (nats per character). A loss or gradient that
    /// overflowed is refused (spec_error) before the update: the weights stay as they were.
    double step();
    int steps_done() const { return step_; }
    /// @brief How many steps one call may take within the bound "work" (at least 1: the constructor refuses a
    /// step over it).
    int steps_per_call() const { return steps_per_call_; }
    /// Characters a window of the next step: n_ctx, or short_ctx in the first short_steps steps.
    std::size_t window() const;
private:
    void sample_batch();
    model& m_;
    std::vector<std::vector<int>> streams_;
    std::vector<double> weights_;
    train_settings s_;
    rng rng_;
    std::vector<float> grad_, m1_, m2_;
    std::vector<std::vector<float>> part_grads_;
    std::vector<int> inputs_, targets_;
    int step_ = 0;
    int steps_per_call_ = 1;
};

}  // namespace attn::lm
