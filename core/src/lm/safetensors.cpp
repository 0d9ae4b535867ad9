// The weight file: safetensors (8 bytes little-endian header length N, N bytes of JSON, raw data).
// Every length, offset and shape is checked in 64 bits against the file before a byte of data is read.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "attn/lm.hpp"
#include "attn/text.hpp"

namespace attn::lm {
namespace {

using json = nlohmann::json;
constexpr std::uint64_t max_header_bytes = 16u << 20;

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu, bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else {  // subnormal: normalise
            int e = -1;
            do { ++e; mant <<= 1; } while ((mant & 0x400u) == 0);
            bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else if (exp == 31) bits = sign | 0x7F800000u | (mant << 13);
    else bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::uint16_t float_to_half(float f) {  // round to nearest even, as numpy's astype(float16)
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t ax = x & 0x7FFFFFFFu;
    if (ax >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u : 0));
    if (ax >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // overflows to infinity
    if (ax < 0x38800000u) {  // subnormal half (or zero)
        if (ax < 0x33000000u) return static_cast<std::uint16_t>(sign);
        const std::uint32_t e = ax >> 23, m = (ax & 0x7FFFFFu) | 0x800000u;
        const std::uint32_t shift = 126 - e;  // the half's unit is 2^-24; f = m · 2^(e - 150)
        const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        std::uint32_t q = m >> shift;
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return static_cast<std::uint16_t>(sign | q);
    }
    std::uint32_t h = ((ax >> 13) - ((127 - 15) << 10));
    const std::uint32_t rem = ax & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

[[noreturn]] void refuse(const std::string& sentence) { throw spec_error("weight file: " + sentence); }

json parse_metadata_json(const json& meta, const char* key) {
    if (!meta.contains(key)) refuse(std::string("__metadata__ has no \"") + key + "\".");
    if (!meta[key].is_string()) refuse(std::string("__metadata__.") + key + " must be a string (of JSON).");
    json j = json::parse(meta[key].get<std::string>(), nullptr, false);
    if (j.is_discarded()) refuse(std::string("__metadata__.") + key + " is not valid JSON.");
    return j;
}

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

}  // namespace

model read_safetensors(const std::uint8_t* data, std::size_t size) {
    if (size > max_file_bytes) refuse("the file is larger than 1 GiB.");
    if (size < 8) refuse("the file is shorter than the 8 bytes of its header length.");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | data[i];
    if (n > max_header_bytes) refuse("its header length is " + std::to_string(n) + " bytes, over the 16 MiB a header may have.");
    if (n > size - 8) refuse("its header length is " + std::to_string(n) + " bytes but only " + std::to_string(size - 8) + " follow.");
    const json header = json::parse(data + 8, data + 8 + n, nullptr, false);
    if (header.is_discarded() || !header.is_object()) refuse("its header is not a JSON object.");
    const std::uint64_t data_size = size - 8 - n;
    const std::uint8_t* base = data + 8 + n;

    if (!header.contains("__metadata__") || !header["__metadata__"].is_object()) refuse("its header has no __metadata__ object.");
    const json& meta = header["__metadata__"];
    model m;
    m.config = read_config(parse_metadata_json(meta, "config"));
    m.vocab = string_list(parse_metadata_json(meta, "vocab"), "__metadata__.vocab");
    if (m.vocab.size() > 100000) refuse("the vocabulary has more than 100000 entries.");
    index_vocab(m);
    if (meta.contains("corpus")) m.corpus = string_list(parse_metadata_json(meta, "corpus"), "__metadata__.corpus");
    if (meta.contains("probe") && meta["probe"].is_string()) m.probe = meta["probe"].get<std::string>();
    decode_utf8(m.probe, "__metadata__.probe");
    m.table = parameter_table(m.config, m.vocab.size());
    std::uint64_t floats = 0;
    for (const param& p : m.table) floats += p.size;
    if (floats > 100000000ull) refuse("the model would have more than 10^8 weights.");

    struct range { std::uint64_t begin, end; std::string name; };
    std::vector<range> ranges;
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
    }
    if (ranges.size() != m.table.size()) {
        for (const param& p : m.table)
            if (!header.contains(p.name)) refuse("tensor \"" + p.name + "\" is missing.");
    }
    std::sort(ranges.begin(), ranges.end(), [](const range& a, const range& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].begin < ranges[i - 1].end)
            refuse("tensors \"" + ranges[i - 1].name + "\" and \"" + ranges[i].name + "\" overlap.");

    m.weights.resize(m.table.back().offset + m.table.back().size);
    for (const param& p : m.table) {
        const json& t = header[p.name];
        const std::uint64_t b = t["data_offsets"][0].get<std::uint64_t>();
        float* w = m.weights.data() + p.offset;
        if (t["dtype"] == "F32") std::memcpy(w, base + b, p.size * 4);  // little-endian, as every target here
        else
            for (std::size_t i = 0; i < p.size; ++i) {
                std::uint16_t h;
                std::memcpy(&h, base + b + 2 * i, 2);
                w[i] = half_to_float(h);
            }
        for (std::size_t i = 0; i < p.size; ++i)
            if (!std::isfinite(w[i])) refuse("tensor \"" + p.name + "\" holds a value that is not finite.");
    }
    return m;
}

model read_safetensors_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw spec_error("cannot read the weight file \"" + user_text(path) + "\": it is a folder.");
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw spec_error("cannot read the weight file \"" + user_text(path) + "\".");
    const std::streamoff size = in.tellg();
    if (size < 0) throw spec_error("cannot read the weight file \"" + user_text(path) + "\" (is it a folder?).");
    if (static_cast<std::uint64_t>(size) > max_file_bytes) refuse("the file is larger than 1 GiB.");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw spec_error("cannot read the weight file \"" + user_text(path) + "\" (is it a folder?).");
    return read_safetensors(bytes.data(), bytes.size());
}

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
                const std::uint16_t h = float_to_half(w[i]);
                std::memcpy(base + 2 * i, &h, 2);
            }
        base += p.size * width;
    }
    return out;
}

}  // namespace attn::lm
