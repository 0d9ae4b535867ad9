// A model folder loaded: config, tokenizer, then the safetensors headers (one file or the shards an index
// names) checked whole — every tensor named, shaped, typed and inside its file, none overlapping — before a
// byte of weights is read. The file's layouts are converted here: GPT-2's Conv1D (in × out, q|k|v side by
// side) becomes the core's out × in matrices, so one linear op serves every architecture.
//
// [SECTION] the tensors a config needs · the safetensors headers · reading the weights · load
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "hf/read_common.hpp"
#include "io/guarded_json.hpp"

namespace attn::hf {

float weight::at(std::size_t i) const {
    switch (type) {
        case dtype::f32: { float f; std::memcpy(&f, bytes.data() + 4 * i, 4); return f; }
        case dtype::f16: { std::uint16_t h; std::memcpy(&h, bytes.data() + 2 * i, 2); return io::half_to_float(h); }
        case dtype::bf16: { std::uint16_t h; std::memcpy(&h, bytes.data() + 2 * i, 2); return io::bf16_to_float(h); }
    }
    return 0;
}

void weight::row(std::size_t r, float* out) const {
    const std::size_t first = r * cols;
    if (type == dtype::f32) {
        std::memcpy(out, bytes.data() + 4 * first, 4 * cols);
        return;
    }
    const std::uint8_t* at16 = bytes.data() + 2 * first;
    for (std::size_t i = 0; i < cols; ++i) {
        std::uint16_t h;
        std::memcpy(&h, at16 + 2 * i, 2);
        out[i] = type == dtype::f16 ? io::half_to_float(h) : io::bf16_to_float(h);
    }
}

std::uint64_t model::weight_bytes() const {
    std::uint64_t n = 0;
    for (const auto& [name, t] : w) n += t.rows * t.cols * (t.type == dtype::f32 ? 4 : 2);  // known from the headers, before the data
    return n;
}

const weight& model::at(const std::string& name) const {
    const auto it = w.find(name);
    if (it == w.end()) throw std::logic_error("hf model has no weight " + name);
    return it->second;
}

namespace {

using detail::in_file;
using detail::refuse;

// ---- [SECTION] the tensors a config needs ----

enum class layout {
    plain,        // stored as the core keeps it (out × in, or a vector)
    transposed,   // GPT-2's Conv1D: stored in × out
    qkv_weight,   // GPT-2's c_attn.weight: in × 3·out, split into wq, wk, wv (each transposed)
    qkv_bias      // GPT-2's c_attn.bias: 3·out, split into bq, bk, bv
};

struct needed {
    std::string file_name;               // as Hugging Face names it
    std::vector<std::uint64_t> shape;    // as the file stores it
    std::string core_name;               // the core's name ("l0.wq"; for qkv: "l0.w" / "l0.b" + q|k|v)
    layout how;
};

std::vector<needed> needed_tensors(const config& c, bool has_lm_head) {
    const std::uint64_t d = static_cast<std::uint64_t>(c.d_model), f = static_cast<std::uint64_t>(c.d_mlp);
    const std::uint64_t v = static_cast<std::uint64_t>(c.n_vocab), kv = static_cast<std::uint64_t>(c.n_kv_head * c.d_head);
    std::vector<needed> out;
    const auto add = [&](std::string file, std::vector<std::uint64_t> shape, std::string core, layout how = layout::plain) {
        out.push_back({std::move(file), std::move(shape), std::move(core), how});
    };
    if (c.arch == architecture::gpt2) {
        add("wte.weight", {v, d}, "embed");
        add("wpe.weight", {static_cast<std::uint64_t>(c.n_ctx), d}, "pos");
        for (int l = 0; l < c.n_layer; ++l) {
            const std::string h = "h." + std::to_string(l) + ".", k = "l" + std::to_string(l) + ".";
            add(h + "ln_1.weight", {d}, k + "ln1.w");
            add(h + "ln_1.bias", {d}, k + "ln1.b");
            add(h + "attn.c_attn.weight", {d, 3 * d}, k + "w", layout::qkv_weight);
            add(h + "attn.c_attn.bias", {3 * d}, k + "b", layout::qkv_bias);
            add(h + "attn.c_proj.weight", {d, d}, k + "wo", layout::transposed);
            add(h + "attn.c_proj.bias", {d}, k + "bo");
            add(h + "ln_2.weight", {d}, k + "ln2.w");
            add(h + "ln_2.bias", {d}, k + "ln2.b");
            add(h + "mlp.c_fc.weight", {d, f}, k + "up", layout::transposed);
            add(h + "mlp.c_fc.bias", {f}, k + "up.b");
            add(h + "mlp.c_proj.weight", {f, d}, k + "down", layout::transposed);
            add(h + "mlp.c_proj.bias", {d}, k + "down.b");
        }
        add("ln_f.weight", {d}, "norm_f.w");
        add("ln_f.bias", {d}, "norm_f.b");
    } else {
        add("model.embed_tokens.weight", {v, d}, "embed");
        for (int l = 0; l < c.n_layer; ++l) {
            const std::string h = "model.layers." + std::to_string(l) + ".", k = "l" + std::to_string(l) + ".";
            add(h + "input_layernorm.weight", {d}, k + "ln1.w");
            add(h + "self_attn.q_proj.weight", {d, d}, k + "wq");
            add(h + "self_attn.k_proj.weight", {kv, d}, k + "wk");
            add(h + "self_attn.v_proj.weight", {kv, d}, k + "wv");
            if (c.arch == architecture::qwen2) {
                add(h + "self_attn.q_proj.bias", {d}, k + "bq");
                add(h + "self_attn.k_proj.bias", {kv}, k + "bk");
                add(h + "self_attn.v_proj.bias", {kv}, k + "bv");
            }
            add(h + "self_attn.o_proj.weight", {d, d}, k + "wo");
            add(h + "post_attention_layernorm.weight", {d}, k + "ln2.w");
            add(h + "mlp.gate_proj.weight", {f, d}, k + "gate");
            add(h + "mlp.up_proj.weight", {f, d}, k + "up");
            add(h + "mlp.down_proj.weight", {d, f}, k + "down");
        }
        add("model.norm.weight", {d}, "norm_f.w");
    }
    if (has_lm_head) add("lm_head.weight", {v, d}, "lm_head");
    return out;
}

/// Buffers that checkpoints carry but that are not weights: GPT-2's causal-mask buffers, old Llamas' inv_freq.
bool is_buffer(const std::string& name) {
    const auto ends = [&](const char* s) {
        const std::size_t n = std::strlen(s);
        return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
    };
    return ends(".attn.bias") || ends(".attn.masked_bias") || ends(".rotary_emb.inv_freq");
}

// ---- [SECTION] the safetensors headers ----

struct entry {
    std::string file;
    dtype type;
    std::vector<std::uint64_t> shape;
    std::uint64_t begin, end;  // absolute offsets in the file
};

constexpr std::uint64_t most_header_bytes = 64ull << 20;

std::uint64_t width_of(dtype t) { return t == dtype::f32 ? 4 : 2; }

/// Every tensor entry of one safetensors file, checked against the file's size; buffers skipped.
void read_header(const files& f, const std::string& name, std::map<std::string, entry>& out) {
    if (!f.has(name)) throw spec_error(f.where() + " has no " + name + ".");
    const std::uint64_t size = f.size(name);
    if (size < 8) refuse(f, name, "it is shorter than the 8 bytes of its header length.");
    std::uint8_t first8[8];
    f.read(name, 0, 8, first8);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | first8[i];
    if (n > most_header_bytes) refuse(f, name, "its header length is " + std::to_string(n) + " bytes, over the 64 MiB a header may have.");
    if (n > size - 8) refuse(f, name, "its header length is " + std::to_string(n) + " bytes but only " + std::to_string(size - 8) + " follow.");
    std::vector<std::uint8_t> text(static_cast<std::size_t>(n));
    f.read(name, 8, n, text.data());
    const json header = io::parse_guarded(text.data(), text.size(), in_file(f, name), "its header", 1u << 22, 8);
    if (!header.is_object()) refuse(f, name, "its header is not a JSON object.");
    const std::uint64_t data_start = 8 + n, data_size = size - 8 - n;
    struct range { std::uint64_t begin, end; std::string name; };
    std::vector<range> ranges;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const std::string tname = user_text(it.key());
        const json& t = it.value();
        if (!t.is_object() || !t.contains("dtype") || !t.contains("shape") || !t.contains("data_offsets"))
            refuse(f, name, "tensor \"" + tname + "\" needs dtype, shape and data_offsets.");
        const json& off = t["data_offsets"];
        if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
            refuse(f, name, "tensor \"" + tname + "\" has data_offsets that are not two whole numbers.");
        const std::uint64_t b = off[0].get<std::uint64_t>(), e = off[1].get<std::uint64_t>();
        if (b > e || e > data_size)
            refuse(f, name, "tensor \"" + tname + "\" has data_offsets [" + std::to_string(b) + ", " + std::to_string(e) + "] outside the " +
                            std::to_string(data_size) + " bytes of data.");
        if (e - b > static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()))
            refuse(f, name, "tensor \"" + tname + "\" has " + std::to_string(e - b) + " bytes, more than this build can hold in one piece.");
        ranges.push_back({b, e, tname});
        if (is_buffer(it.key())) continue;
        const std::string dt = t["dtype"].is_string() ? t["dtype"].get<std::string>() : "";
        if (dt != "F32" && dt != "F16" && dt != "BF16")
            refuse(f, name, "tensor \"" + tname + "\" has dtype " + user_text(t["dtype"].dump()) + "; F32, F16 and BF16 are read.");
        entry en{name, dt == "F32" ? dtype::f32 : dt == "F16" ? dtype::f16 : dtype::bf16, {}, data_start + b, data_start + e};
        if (!t["shape"].is_array() || t["shape"].size() > 4) refuse(f, name, "tensor \"" + tname + "\" has a shape that is not a list of up to 4 sizes.");
        unsigned __int128 count = 1;
        for (const json& s : t["shape"]) {
            if (!s.is_number_unsigned() || s.get<std::uint64_t>() > (1ull << 32)) refuse(f, name, "tensor \"" + tname + "\" has a bad shape.");
            en.shape.push_back(s.get<std::uint64_t>());
            count *= s.get<std::uint64_t>();
        }
        if (count * width_of(en.type) != e - b)
            refuse(f, name, "tensor \"" + tname + "\" has " + std::to_string(e - b) + " bytes but its shape and dtype need " +
                            std::to_string(static_cast<std::uint64_t>(count * width_of(en.type))) + ".");
        if (out.count(it.key())) refuse(f, name, "tensor \"" + tname + "\" is also in " + out[it.key()].file + ".");
        out[it.key()] = std::move(en);
    }
    std::sort(ranges.begin(), ranges.end(), [](const range& a, const range& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].begin < ranges[i - 1].end)
            refuse(f, name, "tensors \"" + ranges[i - 1].name + "\" and \"" + ranges[i].name + "\" overlap.");
}

/// The weight files: model.safetensors, or the shards model.safetensors.index.json maps tensors to.
std::map<std::string, entry> read_headers(const files& f) {
    std::map<std::string, entry> entries;
    const std::string index = "model.safetensors.index.json";
    if (f.has(index)) {
        const json j = detail::read_json(f, index, 64ull << 20, 1u << 22);
        if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
            refuse(f, index, "it has no \"weight_map\" object.");
        std::set<std::string> shards;
        for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
            if (!it.value().is_string()) refuse(f, index, "\"" + user_text(it.key()) + "\" is not mapped to a file name.");
            const std::string shard = it.value().get<std::string>();
            if (shard.empty() || shard.find('/') != std::string::npos || shard.find('\\') != std::string::npos || shard == "." || shard == "..")
                refuse(f, index, "\"" + user_text(shard) + "\" is not a file name in the folder.");
            shards.insert(shard);
        }
        if (shards.size() > 4096) refuse(f, index, "it names more than 4096 files.");
        for (const std::string& s : shards) read_header(f, s, entries);
        for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
            const auto e = entries.find(it.key());
            if (e != entries.end() && e->second.file != it.value().get<std::string>())
                refuse(f, index, "it maps \"" + user_text(it.key()) + "\" to " + user_text(it.value().get<std::string>()) + " but it is in " +
                                     e->second.file + ".");
        }
    } else if (f.has("model.safetensors")) {
        read_header(f, "model.safetensors", entries);
    } else {
        throw spec_error(f.where() + " has no model.safetensors (nor model.safetensors.index.json and its shards).");
    }
    return entries;
}

// ---- [SECTION] reading the weights ----

std::string shape_text(const std::vector<std::uint64_t>& s) {
    std::string out;
    for (std::uint64_t n : s) out += (out.empty() ? "" : " × ") + std::to_string(n);
    return out.empty() ? "a scalar" : out;
}

bool finite_bits(const std::uint8_t* at, dtype t) {
    if (t == dtype::f32) {
        std::uint32_t b;
        std::memcpy(&b, at, 4);
        return (b & 0x7F800000u) != 0x7F800000u;
    }
    std::uint16_t h;
    std::memcpy(&h, at, 2);
    return t == dtype::f16 ? (h & 0x7C00u) != 0x7C00u : (h & 0x7F80u) != 0x7F80u;
}

/// rows × cols of `src` (element width w), columns [c0, c0 + n) of each row, written transposed: n × rows.
std::vector<std::uint8_t> transpose_columns(const std::vector<std::uint8_t>& src, std::size_t rows, std::size_t cols, std::size_t c0,
                                            std::size_t n, std::size_t w) {
    std::vector<std::uint8_t> out(n * rows * w);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < n; ++c) std::memcpy(out.data() + (c * rows + r) * w, src.data() + (r * cols + c0 + c) * w, w);
    return out;
}

}  // namespace

// ---- [SECTION] load ----

model load(const files& f, const std::function<void(const model&)>& before_weights) {
    model m;
    m.c = detail::read_config(f);
    m.tok = detail::read_tokenizer(f);
    std::map<std::string, entry> entries = read_headers(f);
    const std::string prefix = m.c.arch == architecture::gpt2 && !entries.count("wte.weight") && entries.count("transformer.wte.weight") ? "transformer." : "";
    // GPT-2 ties the logits to wte unless the file has lm_head; Llama and Qwen2 say so in tie_word_embeddings
    // (a tied model's file may still carry the copy, which is then not read, as Hugging Face ties it)
    const bool has_lm_head = m.c.arch == architecture::gpt2 ? entries.count("lm_head.weight") != 0 : !m.c.tied;
    m.c.tied = !has_lm_head;
    const std::string weights_file = f.has("model.safetensors.index.json") ? "model.safetensors.index.json" : "model.safetensors";
    std::vector<std::pair<needed, entry>> plan;
    std::set<std::string> used;
    for (const needed& n : needed_tensors(m.c, has_lm_head)) {
        const std::string name = n.file_name == "lm_head.weight" ? n.file_name : prefix + n.file_name;
        const auto it = entries.find(name);
        if (it == entries.end())
            refuse(f, weights_file, "the tensor \"" + name + "\" that a " + architecture_name(m.c.arch) + " model of this config.json needs is missing.");
        if (it->second.shape != n.shape)
            refuse(f, it->second.file, "tensor \"" + name + "\" has shape " + shape_text(it->second.shape) + " but config.json needs " +
                                           shape_text(n.shape) + ".");
        plan.emplace_back(n, it->second);
        used.insert(name);
    }
    if (m.c.tied) used.insert("lm_head.weight");
    for (const auto& [name, e] : entries)
        if (!used.count(name))
            refuse(f, e.file, "tensor \"" + user_text(name) + "\" is not one of a " + std::string(architecture_name(m.c.arch)) +
                                  " model's tensors (docs/models-you-bring.md).");
    // the tokenizer's ids must be rows of the embedding (which may have more rows than the tokenizer has ids)
    if (m.tok.size() > static_cast<std::size_t>(m.c.n_vocab))
        throw spec_error(in_file(f, f.has("tokenizer.json") ? "tokenizer.json" : "vocab.json") + "it has the id " + std::to_string(m.tok.size() - 1) +
                         " but the embedding has " + std::to_string(m.c.n_vocab) + " rows: the tokenizer is not this model's.");
    for (const auto& [n, e] : plan) {  // the model's sizes, before any data: what a page refuses by
        const std::size_t w = static_cast<std::size_t>(width_of(e.type));
        const std::size_t rows = n.shape.size() == 2 ? static_cast<std::size_t>(n.shape[0]) : 1;
        const std::size_t cols = static_cast<std::size_t>(n.shape.back());
        if (n.how == layout::qkv_weight || n.how == layout::qkv_bias) {
            for (const char* part : {"q", "k", "v"}) {
                weight& t = m.w[n.core_name + part];
                t.type = e.type;
                t.rows = n.how == layout::qkv_bias ? 1 : cols / 3;
                t.cols = n.how == layout::qkv_bias ? cols / 3 : rows;
            }
        } else {
            weight& t = m.w[n.core_name];
            t.type = e.type;
            t.rows = n.how == layout::transposed ? cols : rows;
            t.cols = n.how == layout::transposed ? rows : cols;
        }
        (void)w;
    }
    if (before_weights) before_weights(m);
    for (const auto& [n, e] : plan) {
        const std::size_t w = static_cast<std::size_t>(width_of(e.type));
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(e.end - e.begin));
        f.read(e.file, e.begin, e.end - e.begin, bytes.data());
        for (std::size_t i = 0; i < bytes.size(); i += w)
            if (!finite_bits(bytes.data() + i, e.type))
                refuse(f, e.file, "tensor \"" + prefix + n.file_name + "\" holds a value that is not finite (at " + std::to_string(i / w) + ").");
        const std::size_t rows = n.shape.size() == 2 ? static_cast<std::size_t>(n.shape[0]) : 1;
        const std::size_t cols = static_cast<std::size_t>(n.shape.back());
        switch (n.how) {
            case layout::plain: m.w[n.core_name].bytes = std::move(bytes); break;
            case layout::transposed: m.w[n.core_name].bytes = transpose_columns(bytes, rows, cols, 0, cols, w); break;
            case layout::qkv_weight:
                for (std::size_t p = 0; p < 3; ++p)
                    m.w[n.core_name + "qkv"[p]].bytes = transpose_columns(bytes, rows, cols, p * cols / 3, cols / 3, w);
                break;
            case layout::qkv_bias:
                for (std::size_t p = 0; p < 3; ++p)
                    m.w[n.core_name + "qkv"[p]].bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(p * cols / 3 * w),
                                                             bytes.begin() + static_cast<std::ptrdiff_t>((p + 1) * cols / 3 * w));
                break;
        }
    }
    return m;
}

}  // namespace attn::hf
