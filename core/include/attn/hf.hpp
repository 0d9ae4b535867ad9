// Models you bring: a Hugging Face model folder (GPT-2, Llama, Qwen2) read, tokenized and run with every
// stage reported (docs/models-you-bring.md; the layouts and maths are ../DESIGN.md's "Models you bring").
// Weights stay in the file's dtype (F32, F16 or BF16) and are computed in float32; the file's layout is
// converted on load so that every projection is one rows-out × columns-in matrix (y = x·Wᵀ).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/tap.hpp"

namespace attn::hf {

enum class architecture { gpt2, llama, qwen2 };
enum class dtype { f32, f16, bf16 };
const char* architecture_name(architecture a);
const char* dtype_name(dtype t);

/// @brief What the core uses of config.json, under one set of names for every architecture.
struct config {
    architecture arch = architecture::gpt2;
    int n_layer = 0, n_head = 0, n_kv_head = 0;  // n_kv_head == n_head but for grouped-query attention
    int d_model = 0, d_head = 0, d_mlp = 0;
    int n_ctx = 0;     // n_positions / max_position_embeddings
    int n_vocab = 0;   // the embedding's rows (may exceed the tokenizer's ids: Qwen pads them)
    float eps = 1e-5f;             // layer_norm_epsilon / rms_norm_eps
    double rope_theta = 10000.0;   // llama, qwen2
    bool tied = true;              // the logits read the token embedding (no lm_head.weight)
};

/// @brief One weight, kept as the file stores it (little-endian), `rows` × `cols` (a vector: rows 1).
struct weight {
    dtype type = dtype::f32;
    std::size_t rows = 0, cols = 0;
    std::vector<std::uint8_t> bytes;
    float at(std::size_t i) const;
    /// @brief Row r as float32 into out[cols].
    void row(std::size_t r, float* out) const;
};

/// @brief Byte-level BPE as Hugging Face's tokenizers runs it (tokenizer.json, or GPT-2's vocab.json +
/// merges.txt): added tokens split out first, then the normalizer (NFC or none), the pre-tokenizer's split,
/// the byte-to-character map and the merges.
class tokenizer {
public:
    enum class split { gpt2, llama3, qwen2 };  // the pre-tokenizer's regex, recognised from its text
    std::vector<int> encode(const std::string& text) const;
    /// @brief The token as the model stores it (byte-level characters, e.g. "Ġworld").
    const std::string& piece(int id) const;
    /// @brief The token's bytes (the byte-level map undone).
    std::string bytes_of(int id) const;
    /// @brief Each token of ids as a reader sees it: its text, or, for a token holding part of a character's
    /// UTF-8 bytes, that character and which piece it is ("锅(1/2)").
    std::vector<std::string> readable(const std::vector<int>& ids) const;
    std::size_t size() const { return pieces_.size(); }

    struct added {
        std::string content;
        int id;
        bool special;
    };
    // filled by the reader (hf/tokenizer_json.cpp)
    std::vector<std::string> pieces_;                     // by id ("" where no token has that id)
    std::unordered_map<std::string, int> ids_;            // piece → id
    std::unordered_map<std::string, int> merge_rank_;     // "left right" → rank
    std::vector<added> added_;                            // longest first
    split split_ = split::gpt2;
    bool nfc_ = false;
    bool ignore_merges_ = false;                          // Llama 3: a whole pre-token in the vocabulary is one token
};

/// @brief Where a model's files come from: a folder on disk, or files another program holds (the page, the npm package).
class files {
public:
    virtual ~files() = default;
    virtual bool has(const std::string& name) const = 0;
    virtual std::uint64_t size(const std::string& name) const = 0;
    /// @brief Reads n bytes at offset of the file (the caller has checked them against size()).
    virtual void read(const std::string& name, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) const = 0;
    /// @brief Where a refusal says the files are ("the folder models/llama").
    virtual std::string where() const = 0;
};
std::unique_ptr<files> folder(const std::string& path);
/// @brief Reads n bytes at offset of the index-th file into out; false when it cannot (the file changed or went away).
using range_reader = std::function<bool(std::size_t index, std::uint64_t offset, std::uint64_t n, std::uint8_t* out)>;
/// @brief Files another program holds (the page's chosen files, the npm package's bytes): their names and sizes,
/// `where` for the refusals ("the files chosen"), and the function that reads them.
std::unique_ptr<files> held_elsewhere(std::vector<std::pair<std::string, std::uint64_t>> sizes, std::string where, range_reader read);

struct model {
    config c;
    std::unordered_map<std::string, weight> w;  // by the core's names (hf/names.cpp: "l0.wq", "embed", …)
    tokenizer tok;
    std::uint64_t weight_bytes() const;
    const weight& at(const std::string& name) const;
};

/// @brief What loading reads before any weight: the config, the tokenizer and every tensor's header entry, all
/// checked. `before_weights`, when given, sees the model then (its weights empty), e.g. to refuse its size.
model load(const files& f, const std::function<void(const model&)>& before_weights = {});

/// @brief The tokenizer alone (tokenizer.json, or vocab.json + merges.txt), no weights read.
tokenizer load_tokenizer(const files& f);

/// The tap and the cache are every architecture's (attn/tap.hpp).
using stage_view = attn::tapped_stage;
using attn::kv_cache;
using attn::tap;

/// @brief Runs the tokens `ids` at positions cache.length … (appending their keys and values to the cache) and
/// returns the logits of the last one. Every intermediate goes to `t` when given; without it the same code
/// runs with nothing kept.
std::vector<float> forward(const model& m, const std::vector<int>& ids, kv_cache& cache, const tap& t = {});

}  // namespace attn::hf
