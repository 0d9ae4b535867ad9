// Training small models in the layouts of "models you bring" (GPT-2, Llama, Qwen2) on token ids, and writing
// them as Hugging Face folders (docs/models-you-bring.md, "Test models"): the test models are made so.
// Every gradient is written by hand, as the character model's trainer (lm/backward.cpp) has them, whose
// attention, LayerNorm, linear and cross-entropy blocks it shares; RMSNorm, rotary positions, shared key/value
// heads, SwiGLU and GPT-2's tanh GELU are this file's.
#pragma once

#include <string>
#include <vector>

#include "attn/hf.hpp"
#include "attn/json.hpp"
#include "attn/lm_train.hpp"

namespace attn::hf {

/// @brief The model's shape; the defaults are the test models' (docs/models-you-bring.md).
struct train_shape {
    architecture arch = architecture::llama;
    int d_model = 64, n_head = 4, n_kv_head = 2, n_layer = 2, d_mlp = 128, n_ctx = 256;
    int vocab_rows = 0;  // the embedding's rows: the tokenizer's ids, or more (Qwen pads them)
    double rope_theta = 500000.0;
    float eps = 1e-5f;
};

/// @brief A model of train_shape trained on a stream of token ids. The vocabularies are large and a corpus
/// uses a few thousand of their tokens: a token seen fewer than min_count times in the training ids shares one
/// embedding row r with the others like it, and a token never seen shares one row u, the softmax's normaliser
/// counting each shared row once for every token it stands for. The loss is then exactly the full-vocabulary
/// loss of the model that is written, whose rare rows are all r and whose unseen rows all u.
class folder_trainer {
public:
    folder_trainer(const train_shape& shape, std::vector<int> train_ids, const lm::train_settings& s, int min_count,
                   int window);
    /// @brief One AdamW step on a batch of random windows; the batch's loss before the update (nats per token).
    double step();
    /// @brief The mean loss (nats) of predicting targets from inputs, B sequences of T ids (the vocabulary's
    /// own ids); with grad, its gradient for every weight (weights()'s layout).
    double loss(const std::vector<int>& inputs, const std::vector<int>& targets, int B, int T, std::vector<float>* grad) const;
    /// @brief The mean loss per predicted token of a text's ids, in windows of the training window.
    double mean_loss(const std::vector<int>& ids) const;
    std::vector<float>& weights() { return w_; }
    const train_shape& shape() const { return shape_; }
    struct vocabulary {
        int own_rows = 0, rare_tokens = 0, unseen_tokens = 0;
    };
    vocabulary vocab() const { return groups_; }

    /// @brief One tensor of the written model, with Hugging Face's name, shape and layout.
    struct tensor {
        std::string name;
        std::vector<std::size_t> shape;
        std::vector<float> data;
    };
    std::vector<tensor> hf_tensors() const;
    /// @brief config.json as Hugging Face writes it for the architecture.
    json config_json(dtype t) const;

    /// Where a layer's weights start in weights() (absent ones: none). Every projection is in × out (y = x·W + b);
    /// w1, b1 are GPT-2's c_fc or the gate, w3 the up projection, w2, b2 c_proj or down.
    struct layer_at {
        static constexpr std::size_t none = static_cast<std::size_t>(-1);
        std::size_t n1w = none, n1b = none, wq = none, bq = none, wk = none, bk = none, wv = none, bv = none, wo = none,
                    bo = none, n2w = none, n2b = none, w1 = none, b1 = none, w3 = none, w2 = none, b2 = none;
    };
private:
    struct acts;
    void forward(const std::vector<int>& rows_in, int B, int T, acts& a) const;
    std::size_t add(const std::string& name, std::vector<std::size_t> shape, bool decay, int init);
    train_shape shape_;
    lm::train_settings s_;
    int window_;
    std::vector<int> data_;                       // the training ids
    std::vector<int> row_of_;                     // a vocabulary id → its embedding row
    std::vector<float> row_bias_, row_extra_;     // log(tokens a shared row stands for) on its logit, and its loss
    vocabulary groups_;
    std::vector<float> w_, m1_, m2_, grad_;
    std::vector<std::vector<float>> part_grads_;
    std::vector<lm::param> table_;
    std::size_t embed_ = 0, wpe_ = 0, normf_w_ = 0, normf_b_ = 0;
    std::vector<layer_at> layers_;
    lm::rng rng_;
    int step_ = 0;
};

/// @brief Writes dir/config.json, dir/model.safetensors (weights in t) and the tokenizer's files copied from
/// tokenizer_dir (tokenizer.json and tokenizer_config.json, or GPT-2's vocab.json and merges.txt).
void write_trained_folder(const std::string& dir, const folder_trainer& tr, dtype t, const std::string& tokenizer_dir);

}  // namespace attn::hf
