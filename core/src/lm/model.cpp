// The model's parameter table, its initialisation, its vocabulary and UTF-8 text (docs/model.md).
#include <cmath>
#include <stdexcept>
#include <unordered_set>

#include "attn/lm.hpp"
#include "attn/lm_train.hpp"
#include "attn/text.hpp"

namespace attn::lm {

std::string layer_tensor_name(int layer, std::string_view rest) {
    return "h." + std::to_string(layer) + "." + std::string(rest);
}

std::vector<param> parameter_table(const config& c, std::size_t vocab) {
    const std::size_t d = static_cast<std::size_t>(c.d_model), dm = static_cast<std::size_t>(c.d_mlp);
    std::vector<param> t;
    auto add = [&](std::string name, std::vector<std::size_t> shape, bool decay) {
        std::size_t size = 1;
        for (std::size_t s : shape) size *= s;
        const std::size_t offset = t.empty() ? 0 : t.back().offset + t.back().size;
        t.push_back({std::move(name), std::move(shape), offset, size, decay});
    };
    add("wte", {vocab, d}, true);
    if (c.learned_positions) add("wpe", {static_cast<std::size_t>(c.n_ctx), d}, true);
    for (int l = 0; l < c.n_layer; ++l) {
        auto name = [l](std::string rest) { return layer_tensor_name(l, rest); };
        add(name("ln_1.weight"), {d}, false);
        add(name("ln_1.bias"), {d}, false);
        for (const char* w : {"q", "k", "v", "o"}) {
            add(name(std::string("attn.w") + w), {d, d}, true);
            add(name(std::string("attn.b") + w), {d}, false);
        }
        if (dm > 0) {
            add(name("ln_2.weight"), {d}, false);
            add(name("ln_2.bias"), {d}, false);
            add(name("mlp.w1"), {d, dm}, true);
            add(name("mlp.b1"), {dm}, false);
            add(name("mlp.w2"), {dm, d}, true);
            add(name("mlp.b2"), {d}, false);
        }
    }
    add("ln_f.weight", {d}, false);
    add("ln_f.bias", {d}, false);
    return t;
}

const std::vector<lm_bound>& lm_bounds() {
    static const std::vector<lm_bound> bounds{
        {"n_layer", 1, 12}, {"n_head", 1, 16}, {"d_model", 1, 512}, {"d_mlp", 0, 2048}, {"n_ctx", 2, 512},
        {"vocab", 8, 4096}, {"n", 1, max_generate}, {"steps", 1, max_train_steps}, {"batch", 1, 512}, {"warmup", 0, max_train_steps},
    };
    return bounds;
}

const lm_bound& lm_bound_of(std::string_view name) {
    for (const lm_bound& b : lm_bounds())
        if (name == b.name) return b;
    throw std::logic_error("no bound named " + std::string(name));
}

void check_bound(std::string_view name, long long v, std::string_view what) {
    const lm_bound& b = lm_bound_of(name);
    if (v < b.lo || v > b.hi)
        throw spec_error(std::string(what.empty() ? name : what) + " is " + std::to_string(v) + " but must be from " + std::to_string(b.lo) +
                         " to " + std::to_string(b.hi) + ".");
}

void validate_config(const config& c) {
    for (const auto& [field, v] : {std::pair{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp}, {"n_ctx", c.n_ctx}})
        check_bound(field, v, std::string("config.") + field);
    if (c.d_model % c.n_head != 0)
        throw spec_error("config.d_model (" + std::to_string(c.d_model) + ") must be a multiple of config.n_head (" +
                         std::to_string(c.n_head) + ").");
    if (!(c.ln_eps > 0.0f && c.ln_eps < 1.0f)) throw spec_error("config.ln_eps must be a number between 0 and 1.");
}

const param& model::slot(std::string_view name) const {
    for (const param& p : table)
        if (p.name == name) return p;
    throw spec_error("the model has no tensor \"" + user_text(name) + "\".");
}
const float* model::tensor(std::string_view name) const { return weights.data() + slot(name).offset; }
float* model::tensor(std::string_view name) { return weights.data() + slot(name).offset; }

void index_vocab(model& m) {
    if (m.vocab.size() < 2) throw spec_error("the vocabulary needs \"<unk>\" and at least one character.");
    if (m.vocab[0] != "<unk>") throw spec_error("vocabulary entry 0 must be \"<unk>\".");
    m.ids.clear();
    for (std::size_t i = 1; i < m.vocab.size(); ++i) {
        const std::u32string c = decode_utf8(m.vocab[i], "a vocabulary entry");
        if (c.size() != 1)
            throw spec_error("vocabulary entry " + std::to_string(i) + " (\"" + user_text(m.vocab[i]) +
                             "\") is not exactly one character.");
        if (!m.ids.emplace(c[0], static_cast<int>(i)).second)
            throw spec_error("vocabulary entry " + std::to_string(i) + " (\"" + user_text(m.vocab[i]) +
                             "\") is there twice.");
    }
}

model make_model(const config& c, std::vector<std::string> vocab, std::uint64_t seed) {
    validate_config(c);
    model m;
    m.config = c;
    m.vocab = std::move(vocab);
    index_vocab(m);
    m.table = parameter_table(c, m.vocab.size());
    m.weights.assign(m.table.back().offset + m.table.back().size, 0.0f);
    rng r(seed);
    const double residual_std = 0.02 / std::sqrt(2.0 * c.n_layer);
    for (const param& p : m.table) {
        float* w = m.weights.data() + p.offset;
        const bool ln_weight = p.name.size() > 7 && p.name.compare(p.name.size() - 7, 7, ".weight") == 0;
        if (ln_weight) std::fill(w, w + p.size, 1.0f);
        else if (p.shape.size() == 2) {
            const bool residual = p.name.find("attn.wo") != std::string::npos || p.name.find("mlp.w2") != std::string::npos;
            const double std_dev = residual ? residual_std : 0.02;
            for (std::size_t i = 0; i < p.size; ++i) w[i] = static_cast<float>(r.normal() * std_dev);
        }
    }
    return m;
}

// ---- UTF-8 ----

std::u32string decode_utf8(std::string_view s, const char* what) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char b = static_cast<unsigned char>(s[i]);
        int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + static_cast<std::size_t>(len) > s.size())
            throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) + ").");
        char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < len; ++k) {
            const unsigned char cb = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((cb >> 6) != 2) throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) + ").");
            c = (c << 6) | (cb & 0x3F);
        }
        const char32_t min_of[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < min_of[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) +
                             ": an overlong form, a surrogate or past U+10FFFF).");
        out.push_back(c);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

std::string encode_utf8(char32_t c) {
    std::string s;
    if (c < 0x80) s += static_cast<char>(c);
    else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

tokens tokenize(const model& m, std::string_view utf8, std::size_t max_chars) {
    const std::u32string text = decode_utf8(utf8, "the text");
    if (text.empty()) throw spec_error("the text is empty: give the model at least one character.");
    if (text.size() > max_chars)
        throw spec_error("the text has " + std::to_string(text.size()) + " characters but the model reads at most " +
                         std::to_string(max_chars) + " at once (its context, n_ctx).");
    tokens t;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto it = m.ids.find(text[i]);
        t.ids.push_back(it == m.ids.end() ? 0 : it->second);
        if (it == m.ids.end()) t.unknown.push_back(i);
        t.chars.push_back(encode_utf8(text[i]));
    }
    return t;
}

std::vector<int> to_ids(const model& m, const std::u32string& text) {
    std::vector<int> ids(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto it = m.ids.find(text[i]);
        ids[i] = it == m.ids.end() ? 0 : it->second;
    }
    return ids;
}

// ---- the portable random stream ----

std::uint64_t rng::next() {  // splitmix64 (Steele, Lea and Flood): the same stream on every platform
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
double rng::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
std::size_t rng::below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
double rng::normal() {  // Box–Muller, one value a call: simple and the same everywhere
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace attn::lm
