// config.json → hf::config: the keys each architecture uses (DESIGN.md "Models you bring"), each checked and
// refused in one sentence naming the key; keys the core does not use are ignored, as Hugging Face does.
#include <cmath>
#include <limits>

#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "hf/read_common.hpp"
#include "io/guarded_json.hpp"

namespace attn::hf {

const char* architecture_name(architecture a) {
    switch (a) {
        case architecture::gpt2: return "gpt2";
        case architecture::llama: return "llama";
        case architecture::qwen2: return "qwen2";
    }
    return "";
}

const char* dtype_name(dtype t) {
    switch (t) {
        case dtype::f32: return "F32";
        case dtype::f16: return "F16";
        case dtype::bf16: return "BF16";
    }
    return "";
}

namespace detail {

std::string in_file(const files& f, const std::string& name) { return name + " in " + f.where() + ": "; }

void refuse(const files& f, const std::string& name, const std::string& sentence) { throw spec_error(in_file(f, name) + sentence); }

std::string read_text(const files& f, const std::string& name, std::uint64_t most_bytes) {
    if (!f.has(name)) throw spec_error(f.where() + " has no " + name + ".");
    const std::uint64_t n = f.size(name);
    if (n > most_bytes)
        refuse(f, name, "it is " + std::to_string(n) + " bytes, over the " + std::to_string(most_bytes >> 20) + " MiB such a file may have.");
    std::string text(static_cast<std::size_t>(n), '\0');
    f.read(name, 0, n, reinterpret_cast<std::uint8_t*>(text.data()));
    return text;
}

template <class Json>
Json read_json(const files& f, const std::string& name, std::uint64_t most_bytes, std::uint64_t most_values) {
    const std::string text = read_text(f, name, most_bytes);
    return io::parse_guarded<Json>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), in_file(f, name), "the file",
                             most_values, 64);
}

template json read_json<json>(const files&, const std::string&, std::uint64_t, std::uint64_t);
template io::keyed_json read_json<io::keyed_json>(const files&, const std::string&, std::uint64_t, std::uint64_t);

namespace {

// The largest model the core reads (a Llama 3 8B's config fits every bound).
constexpr long long most_layers = 256, most_width = 32768, most_heads = 512, most_vocab = 1 << 20, most_ctx = 1 << 20;

struct config_reader {
    const files& f;
    const json& j;

    [[noreturn]] void fail(const std::string& sentence) const { refuse(f, "config.json", sentence); }

    int whole(const char* key, long long lo, long long hi) const {
        if (!j.contains(key)) fail(std::string("it has no \"") + key + "\".");
        const json& v = j[key];
        if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
            fail(std::string("\"") + key + "\" is " + user_text(v.dump()) + "; it must be a whole number from " + std::to_string(lo) +
                 " to " + std::to_string(hi) + ".");
        return static_cast<int>(v.get<long long>());
    }
    double number(const char* key, double lo, double hi) const {
        if (!j.contains(key)) fail(std::string("it has no \"") + key + "\".");
        const json& v = j[key];
        if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi))
            fail(std::string("\"") + key + "\" is " + user_text(v.dump()) + "; it must be a number from " + json(lo).dump() + " to " +
                 json(hi).dump() + ".");
        return v.get<double>();
    }
    /// A key that, when present, must have the one value the core computes (null counts as absent).
    void only(const char* key, const json& allowed, const char* why) const {
        if (j.contains(key) && !j[key].is_null() && j[key] != allowed)
            fail(std::string("\"") + key + "\" is " + user_text(j[key].dump()) + "; " + why);
    }
};

}  // namespace

config read_config(const files& f) {
    if (!f.has("config.json"))
        throw spec_error(f.where() + " has no config.json: a model folder is one Hugging Face writes (config.json, model.safetensors, "
                         "tokenizer.json; docs/models-you-bring.md).");
    const json j = read_json(f, "config.json", 1 << 20, 100000);
    if (!j.is_object()) refuse(f, "config.json", "it is not a JSON object.");
    const config_reader r{f, j};
    if (!j.contains("model_type") || !j["model_type"].is_string())
        r.fail("it has no \"model_type\" (gpt2, llama and qwen2 are read).");
    const std::string type = j["model_type"].get<std::string>();
    config c;
    if (type == "gpt2") {
        c.arch = architecture::gpt2;
        c.n_layer = r.whole("n_layer", 1, most_layers);
        c.n_head = c.n_kv_head = r.whole("n_head", 1, most_heads);
        c.d_model = r.whole("n_embd", 1, most_width);
        c.n_ctx = r.whole("n_positions", 1, most_ctx);
        c.n_vocab = r.whole("vocab_size", 1, most_vocab);
        c.eps = static_cast<float>(r.number("layer_norm_epsilon", 0, 1));
        c.d_mlp = j.contains("n_inner") && !j["n_inner"].is_null() ? r.whole("n_inner", 1, 4 * most_width) : 4 * c.d_model;
        r.only("activation_function", "gelu_new", "GPT-2's gelu_new (the tanh form) is the one computed here.");
        r.only("scale_attn_by_inverse_layer_idx", false, "scores are divided by √d_head only here, not by the layer's number too.");
        c.tied = true;
    } else if (type == "llama" || type == "qwen2") {
        c.arch = type == "llama" ? architecture::llama : architecture::qwen2;
        c.n_layer = r.whole("num_hidden_layers", 1, most_layers);
        c.n_head = r.whole("num_attention_heads", 1, most_heads);
        c.n_kv_head = j.contains("num_key_value_heads") && !j["num_key_value_heads"].is_null()
                          ? r.whole("num_key_value_heads", 1, c.n_head) : c.n_head;
        if (c.n_head % c.n_kv_head != 0)
            r.fail("\"num_key_value_heads\" is " + std::to_string(c.n_kv_head) + ", which does not divide \"num_attention_heads\" (" +
                   std::to_string(c.n_head) + "): each key/value head must serve the same number of query heads.");
        c.d_model = r.whole("hidden_size", 1, most_width);
        c.d_mlp = r.whole("intermediate_size", 1, 8 * most_width);
        c.n_ctx = r.whole("max_position_embeddings", 1, most_ctx);
        c.n_vocab = r.whole("vocab_size", 1, most_vocab);
        c.eps = static_cast<float>(r.number("rms_norm_eps", 0, 1));
        c.rope_theta = j.contains("rope_theta") ? r.number("rope_theta", 1, 1e12) : 10000.0;
        c.tied = j.contains("tie_word_embeddings") && j["tie_word_embeddings"].is_boolean() ? j["tie_word_embeddings"].get<bool>() : false;
        r.only("hidden_act", "silu", "the SwiGLU MLP with silu is the one computed here.");
        r.only("rope_scaling", json(), "rotary scaling (Llama 3.1's long context, YaRN, …) is not computed here, so this model would be run wrong.");
        if (j.contains("attention_bias") && !j["attention_bias"].is_null() && type == "llama" && j["attention_bias"] != false)
            r.fail("\"attention_bias\" is true; a llama model here has no biases on its projections.");
        r.only("mlp_bias", false, "a llama model here has no biases in its MLP.");
        r.only("use_sliding_window", false, "every query here sees every key before it; a sliding window is not computed.");
    } else {
        r.fail("\"model_type\" is \"" + user_text(type) + "\"; gpt2, llama and qwen2 are read (docs/models-you-bring.md).");
    }
    if (c.d_model % c.n_head != 0)
        r.fail("the width " + std::to_string(c.d_model) + " is not a multiple of the " + std::to_string(c.n_head) + " heads.");
    c.d_head = c.d_model / c.n_head;
    if (j.contains("head_dim") && !j["head_dim"].is_null() && j["head_dim"] != c.d_head)
        r.fail("\"head_dim\" is " + user_text(j["head_dim"].dump()) + " but the width over the heads is " + std::to_string(c.d_head) +
               "; only head_dim = hidden_size / num_attention_heads is read.");
    if (c.arch != architecture::gpt2 && c.d_head % 2 != 0)
        r.fail("the head width " + std::to_string(c.d_head) + " is odd; rotary positions turn pairs of features.");
    return c;
}

}  // namespace detail
}  // namespace attn::hf
