// The weight file: safetensors (8 bytes little-endian header length N, N bytes of JSON, raw data).
// Every length, offset and shape is checked in 64 bits against the file before a byte of data is read; the
// header's nesting before it is parsed, its keys given twice while it is (lm_bounds(): header_*).
//
// [SECTION] the header's JSON · the config and lists · the header · the data · reading · writing
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "attn/lm.hpp"
#include "attn/text.hpp"
#include "io/guarded_json.hpp"

namespace attn::lm {
namespace {

using json = nlohmann::json;

[[noreturn]] void refuse(const std::string& sentence) { throw spec_error("weight file: " + sentence); }

std::uint64_t bound(const char* name) { return static_cast<std::uint64_t>(lm_bound_of(name).hi); }

// ---- [SECTION] the header's JSON ----

json parse_guarded(const std::uint8_t* text, std::size_t size, const std::string& what, std::uint64_t most_values) {
    return io::parse_guarded(text, size, "weight file: ", what, most_values, bound("header_nesting"));
}

json parse_metadata_json(const json& meta, const char* key, std::uint64_t most_values) {
    if (!meta.contains(key)) refuse(std::string("__metadata__ has no \"") + key + "\".");
    if (!meta[key].is_string()) refuse(std::string("__metadata__.") + key + " must be a string (of JSON).");
    const std::string& text = meta[key].get_ref<const std::string&>();
    return parse_guarded(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), std::string("__metadata__.") + key, most_values);
}

// ---- [SECTION] the config and lists ----

int config_int(const json& c, const char* key) {
    if (!c.contains(key) || !c[key].is_number_integer())
        refuse(std::string("config.") + key + " must be a whole number.");
    const auto v = c[key].get<std::int64_t>();
    if (v < -1000000 || v > 1000000) refuse(std::string("config.") + key + " is out of range.");
    return static_cast<int>(v);
}

config read_config(const json& c) {
    if (!c.is_object()) refuse("config must be a JSON object.");
    config cfg;
    cfg.n_layer = config_int(c, "n_layer");
    cfg.n_head = config_int(c, "n_head");
    cfg.d_model = config_int(c, "d_model");
    cfg.d_mlp = config_int(c, "d_mlp");
    cfg.n_ctx = config_int(c, "n_ctx");
    if (!c.contains("positional") || !c["positional"].is_string() ||
        (c["positional"] != "learned" && c["positional"] != "sinusoidal"))
        refuse("config.positional must be \"learned\" or \"sinusoidal\".");
    cfg.learned_positions = c["positional"] == "learned";
    if (!c.contains("ln_eps") || !c["ln_eps"].is_number()) refuse("config.ln_eps must be a number.");
    cfg.ln_eps = c["ln_eps"].get<float>();
    validate_config(cfg);
    return cfg;
}

std::vector<std::string> string_list(const json& j, const char* what) {
    if (!j.is_array()) refuse(std::string(what) + " must be a JSON list of strings.");
    std::vector<std::string> out;
    for (const json& e : j) {
        if (!e.is_string()) refuse(std::string(what) + " must be a JSON list of strings.");
        out.push_back(e.get<std::string>());
    }
    return out;
}

// ---- [SECTION] the header ----

/// Where each tensor's bytes are, relative to the data: its first byte and its dtype's width (2 or 4).
struct slot_bytes {
    std::uint64_t begin, width;
};

/// The header checked whole (the data only by its size): a model with its config, vocabulary, corpus, probe and
/// parameter table but no weights, and where each tensor of the table is.
model read_header(const std::uint8_t* text, std::uint64_t n, std::uint64_t data_size, std::vector<slot_bytes>& slots) {
    const json header = parse_guarded(text, static_cast<std::size_t>(n), "its header", bound("header_values"));
    if (!header.is_object()) refuse("its header is not a JSON object.");
    if (!header.contains("__metadata__") || !header["__metadata__"].is_object()) refuse("its header has no __metadata__ object.");
    const json& meta = header["__metadata__"];
    model m;
    m.config = read_config(parse_metadata_json(meta, "config", 64));
    const std::uint64_t most_vocab = bound("file_vocab");
    m.vocab = string_list(parse_metadata_json(meta, "vocab", std::max(bound("header_values"), most_vocab + 1)), "__metadata__.vocab");
    if (m.vocab.size() > most_vocab) refuse("the vocabulary has more than " + std::to_string(most_vocab) + " entries.");
    index_vocab(m);
    if (meta.contains("corpus")) {
        m.corpus = string_list(parse_metadata_json(meta, "corpus", bound("header_values")), "__metadata__.corpus");
        if (m.corpus.size() > bound("corpus_files"))
            refuse("__metadata__.corpus names more than " + std::to_string(bound("corpus_files")) + " files.");
        for (std::size_t i = 0; i < m.corpus.size(); ++i)
            if (std::find(m.corpus.begin(), m.corpus.begin() + static_cast<std::ptrdiff_t>(i), m.corpus[i]) != m.corpus.begin() + static_cast<std::ptrdiff_t>(i))
                refuse("__metadata__.corpus names \"" + user_text(m.corpus[i]) + "\" twice.");
    }
    if (meta.contains("probe") && meta["probe"].is_string()) m.probe = meta["probe"].get<std::string>();
    if (count_chars(m.probe, "__metadata__.probe") > bound("probe"))
        refuse("__metadata__.probe has more than " + std::to_string(bound("probe")) + " characters.");
    m.table = parameter_table(m.config, m.vocab.size());
    std::uint64_t floats = 0;
    for (const param& p : m.table) floats += p.size;
    if (floats > bound("weights")) refuse("the model would have " + std::to_string(floats) + " weights, over the limit of 10^8.");

    struct range { std::uint64_t begin, end; std::string name; };
    std::vector<range> ranges;
    slots.assign(m.table.size(), {0, 0});
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const auto slot = std::find_if(m.table.begin(), m.table.end(), [&](const param& p) { return p.name == it.key(); });
        const std::string name = user_text(it.key());
        if (slot == m.table.end()) refuse("tensor \"" + name + "\" is not one of this config's tensors (docs/model.md).");
        const json& t = it.value();
        if (!t.is_object() || !t.contains("dtype") || !t.contains("shape") || !t.contains("data_offsets"))
            refuse("tensor \"" + name + "\" needs dtype, shape and data_offsets.");
        if (t["dtype"] != "F32" && t["dtype"] != "F16") refuse("tensor \"" + name + "\" has dtype " + user_text(t["dtype"].dump()) + "; F32 and F16 are read.");
        const std::uint64_t width = t["dtype"] == "F32" ? 4 : 2;
        if (!t["shape"].is_array()) refuse("tensor \"" + name + "\" has a shape that is not a list.");
        std::vector<std::size_t> shape;
        for (const json& s : t["shape"]) {
            if (!s.is_number_unsigned() || s.get<std::uint64_t>() > 100000000ull) refuse("tensor \"" + name + "\" has a bad shape.");
            shape.push_back(s.get<std::size_t>());
        }
        if (shape != slot->shape) {
            std::string want;
            for (std::size_t s : slot->shape) want += (want.empty() ? "" : " × ") + std::to_string(s);
            refuse("tensor \"" + name + "\" has shape " + user_text(t["shape"].dump()) + " but this config needs " + want + ".");
        }
        const json& off = t["data_offsets"];
        if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
            refuse("tensor \"" + name + "\" has data_offsets that are not two whole numbers.");
        const std::uint64_t b = off[0].get<std::uint64_t>(), e = off[1].get<std::uint64_t>();
        if (b > e || e > data_size)
            refuse("tensor \"" + name + "\" has data_offsets [" + std::to_string(b) + ", " + std::to_string(e) +
                   "] outside the " + std::to_string(data_size) + " bytes of data.");
        if (e - b != slot->size * width)
            refuse("tensor \"" + name + "\" has " + std::to_string(e - b) + " bytes but its shape needs " +
                   std::to_string(slot->size * width) + ".");
        ranges.push_back({b, e, name});
        slots[static_cast<std::size_t>(slot - m.table.begin())] = {b, width};
    }
    if (ranges.size() != m.table.size()) {
        for (const param& p : m.table)
            if (!header.contains(p.name)) refuse("tensor \"" + p.name + "\" is missing.");
    }
    std::sort(ranges.begin(), ranges.end(), [](const range& a, const range& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].begin < ranges[i - 1].end)
            refuse("tensors \"" + ranges[i - 1].name + "\" and \"" + ranges[i].name + "\" overlap.");
    return m;
}

// ---- [SECTION] the data ----

/// The weights from the data (base: its first byte), each value's bits checked finite before the floats are
/// allocated: a refused file leaves no 400 MB of weights behind (wasm's heap does not shrink).
void read_data(model& m, const std::vector<slot_bytes>& slots, const std::uint8_t* base) {
    for (std::size_t k = 0; k < m.table.size(); ++k) {
        const param& p = m.table[k];
        const std::uint8_t* at = base + slots[k].begin;
        for (std::size_t i = 0; i < p.size; ++i) {
            bool finite;
            if (slots[k].width == 4) {
                std::uint32_t bits;
                std::memcpy(&bits, at + 4 * i, 4);
                finite = (bits & 0x7F800000u) != 0x7F800000u;
            } else {
                std::uint16_t bits;
                std::memcpy(&bits, at + 2 * i, 2);
                finite = (bits & 0x7C00u) != 0x7C00u;
            }
            if (!finite) refuse("tensor \"" + p.name + "\" holds a value that is not finite.");
        }
    }
    m.weights.resize(m.table.back().offset + m.table.back().size);
    for (std::size_t k = 0; k < m.table.size(); ++k) {
        const param& p = m.table[k];
        float* w = m.weights.data() + p.offset;
        const std::uint8_t* at = base + slots[k].begin;
        if (slots[k].width == 4) std::memcpy(w, at, p.size * 4);  // little-endian, as every target here
        else
            for (std::size_t i = 0; i < p.size; ++i) {
                std::uint16_t h;
                std::memcpy(&h, at + 2 * i, 2);
                w[i] = io::half_to_float(h);
            }
    }
}

std::uint64_t header_length(const std::uint8_t* first8, std::uint64_t file_size) {
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | first8[i];
    if (n > bound("header_bytes"))
        refuse("its header length is " + std::to_string(n) + " bytes, over the " + std::to_string(bound("header_bytes") >> 20) +
               " MiB a header may have.");
    if (n > file_size - 8) refuse("its header length is " + std::to_string(n) + " bytes but only " + std::to_string(file_size - 8) + " follow.");
    return n;
}

void check_file_size(std::uint64_t size) {
    if (size > bound("file_bytes"))
        refuse("the file is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(bound("file_bytes") >> 20) + " MiB.");
    if (size < 8) refuse("the file is shorter than the 8 bytes of its header length.");
}

}  // namespace

// ---- [SECTION] reading ----

model read_safetensors(const std::uint8_t* data, std::size_t size, const std::function<void(const model&)>& before_data) {
    check_file_size(size);
    const std::uint64_t n = header_length(data, size);
    std::vector<slot_bytes> slots;
    model m = read_header(data + 8, n, size - 8 - n, slots);
    if (before_data) before_data(m);
    read_data(m, slots, data + 8 + n);
    return m;
}

model read_safetensors_file(const std::string& path, const std::function<void(const model&)>& before_data) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw spec_error("cannot read the weight file \"" + user_text(path) + "\": it is a folder.");
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw spec_error("cannot read the weight file \"" + user_text(path) + "\".");
    const std::streamoff size = in.tellg();
    if (size < 0) throw spec_error("cannot read the weight file \"" + user_text(path) + "\" (is it a folder?).");
    check_file_size(static_cast<std::uint64_t>(size));
    // the header first: a call's cost is checked before the data (up to 416 MiB) is read
    std::vector<std::uint8_t> bytes(8);
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), 8)) throw spec_error("cannot read the weight file \"" + user_text(path) + "\".");
    const std::uint64_t n = header_length(bytes.data(), static_cast<std::uint64_t>(size));
    bytes.resize(static_cast<std::size_t>(8 + n));
    if (!in.read(reinterpret_cast<char*>(bytes.data()) + 8, static_cast<std::streamsize>(n)))
        throw spec_error("cannot read the weight file \"" + user_text(path) + "\".");
    std::vector<slot_bytes> slots;
    model m = read_header(bytes.data() + 8, n, static_cast<std::uint64_t>(size) - 8 - n, slots);
    if (before_data) before_data(m);
    std::vector<std::uint8_t> data(static_cast<std::size_t>(static_cast<std::uint64_t>(size) - 8 - n));
    if (!in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size())))
        throw spec_error("cannot read the weight file \"" + user_text(path) + "\" (is it a folder?).");
    read_data(m, slots, data.data());
    return m;
}

// ---- [SECTION] writing ----

std::vector<std::uint8_t> write_safetensors(const model& m, dtype type) {
    json header = json::object();
    const std::size_t width = type == dtype::f32 ? 4 : 2;
    std::size_t at = 0;
    for (const param& p : m.table) {
        header[p.name] = {{"dtype", type == dtype::f32 ? "F32" : "F16"}, {"shape", p.shape},
                          {"data_offsets", {at, at + p.size * width}}};
        at += p.size * width;
    }
    const config& c = m.config;
    json cfg = {{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp},
                {"n_ctx", c.n_ctx}, {"positional", c.learned_positions ? "learned" : "sinusoidal"}, {"ln_eps", c.ln_eps}};
    header["__metadata__"] = {{"config", cfg.dump()}, {"vocab", json(m.vocab).dump()}, {"corpus", json(m.corpus).dump()},
                              {"probe", m.probe}};
    std::string text = header.dump();
    while ((text.size() + 8) % 8 != 0) text += ' ';  // the data starts 8-byte aligned, as safetensors writes it
    std::vector<std::uint8_t> out(8 + text.size() + at);
    std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
    std::memcpy(out.data() + 8, text.data(), text.size());
    std::uint8_t* base = out.data() + 8 + text.size();
    for (const param& p : m.table) {
        const float* w = m.weights.data() + p.offset;
        if (type == dtype::f32) std::memcpy(base, w, p.size * 4);
        else
            for (std::size_t i = 0; i < p.size; ++i) {
                const std::uint16_t h = io::float_to_half(w[i]);
                std::memcpy(base + 2 * i, &h, 2);
            }
        base += p.size * width;
    }
    return out;
}

}  // namespace attn::lm
