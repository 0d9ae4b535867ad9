// The checks and answers every caller of a model folder's model shares (attn/hf_calls.hpp).
#include "attn/hf_calls.hpp"

#include <algorithm>
#include <tuple>
#include <string_view>

#include "attn/lm_train.hpp"

namespace attn::hf {
namespace {

/// The ids that may be proposed: the tokenizer's own (an embedding padded past them has rows no text is made of).
std::vector<bool> proposable(const model& m) {
    std::vector<bool> ok(static_cast<std::size_t>(m.c.n_vocab), false);
    for (std::size_t id = 0; id < m.tok.size() && id < ok.size(); ++id) ok[id] = !m.tok.pieces_[id].empty();
    return ok;
}

std::string token_of(const model& m, int id) { return m.tok.readable({id})[0]; }

/// The ids of the first k entries of `p` in decreasing order (ties to the lower id), skipping zeros.
std::vector<int> likeliest(const std::vector<float>& p, int k) {
    std::vector<int> order;
    for (std::size_t j = 0; j < p.size(); ++j)
        if (p[j] > 0) order.push_back(static_cast<int>(j));
    const auto by_p = [&](int a, int b) { return p[static_cast<std::size_t>(a)] > p[static_cast<std::size_t>(b)]; };
    const std::size_t keep = std::min(order.size(), static_cast<std::size_t>(k));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                      [&](int a, int b) { return by_p(a, b) || (!by_p(b, a) && a < b); });
    order.resize(keep);
    return order;
}

}  // namespace

std::vector<int> ids_to_run(const model& m, const std::string& text, int more) {
    std::vector<int> ids = m.tok.encode(text);
    if (ids.empty()) throw spec_error("the text makes no token: give at least one character.");
    const long long total = static_cast<long long>(ids.size()) + more;
    if (total > m.c.n_ctx)
        throw spec_error("the text's " + std::to_string(ids.size()) + " tokens" + (more ? " and " + std::to_string(more) + " more" : std::string()) +
                         " are more than the model's context of " + std::to_string(m.c.n_ctx) + " tokens.");
    for (const int id : ids)
        if (id >= m.c.n_vocab)
            throw spec_error("the tokenizer gives id " + std::to_string(id) + " but the model's embedding has " + std::to_string(m.c.n_vocab) + " rows.");
    return ids;
}

double check_trace_size(const model& m, std::size_t n_tokens, double most_floats) {
    const config& c = m.c;
    // what forward's tap reports (forward.cpp), n standing for both the rows and the keys, k and v counted as wide
    // as q: globally embed, pe, x, the final norm (4d) and the logits and probabilities (2·vocab); per layer the
    // norms, q, k, v, their rotations, context, concat, output, the two residuals and the MLP's out (13d), the
    // cache (2d), the MLP's hidden stages (3f: SwiGLU's gate, up, act), attention's five h × n steps and two per head
    const double n = static_cast<double>(n_tokens), d = c.d_model, f = c.d_mlp, h = c.n_head;
    const double floats = n * (2.0 * c.n_vocab + 4.0 * d + c.n_layer * (15.0 * d + 3.0 * f + 2.0 * h + 5.0 * h * n));
    if (floats > most_floats)
        throw spec_error("a trace of " + std::to_string(n_tokens) + " tokens would keep about " + std::to_string(static_cast<long long>(floats / 1e6)) +
                         " million numbers, over the " + std::to_string(static_cast<long long>(most_floats / 1e6)) +
                         " million a trace may keep here: trace a shorter text.");
    return floats;
}

spec layer_spec(const model& m, const std::vector<int>& ids, int layer) {
    const config& c = m.c;
    const bool gpt2 = c.arch == architecture::gpt2;
    if (layer < 0 || layer >= c.n_layer)
        throw spec_error("layer is " + std::to_string(layer) + " but the model has layers 0 to " + std::to_string(c.n_layer - 1) + ".");
    const std::size_t n = ids.size(), d = static_cast<std::size_t>(c.d_model);
    spec s;
    s.x = matrix::from_shape({n, d});
    kv_cache cache;
    bool found = false;
    const std::string_view norm = gpt2 ? "ln_1" : "rms_1";  // the rows the layer's attention reads
    forward(m, ids, cache, [&](const stage_view& v) {
        if (v.layer != layer || std::string_view(v.id) != norm) return;
        std::copy(v.data, v.data + n * d, s.x.data());
        found = true;
    });
    if (!found) throw spec_error("the trace has no " + std::string(norm) + " in layer " + std::to_string(layer) + ".");
    const std::string p = "l" + std::to_string(layer) + ".";
    // the folder's out × in weights (y = x·Wᵀ + b) as the spec's in × out (y = x·W + b)
    const auto weights = [&](const std::string& name) {
        const weight& w = m.at(p + name);
        matrix out = matrix::from_shape({w.cols, w.rows});
        std::vector<float> row(w.cols);
        for (std::size_t o = 0; o < w.rows; ++o) {
            w.row(o, row.data());
            for (std::size_t i = 0; i < w.cols; ++i) out(i, o) = row[i];
        }
        return out;
    };
    const auto bias = [&](const std::string& name) {
        const weight& b = m.at(p + name);
        vector out = vector::from_shape({b.rows * b.cols});
        for (std::size_t i = 0; i < out.size(); ++i) out(i) = b.at(i);
        return out;
    };
    // GPT-2 has every bias; Llama none; Qwen2 those of q, k and v
    for (auto [proj, w, b] : {std::tuple{&s.wq, "wq", "bq"}, std::tuple{&s.wk, "wk", "bk"}, std::tuple{&s.wv, "wv", "bv"}, std::tuple{&s.wo, "wo", "bo"}}) {
        proj->w = weights(w);
        if (m.w.count(p + b)) proj->b = bias(b);
    }
    s.heads = c.n_head;
    if (!gpt2) {
        s.kv_heads = c.n_kv_head;
        s.positional = positional_kind::rotary;
        s.rope_theta = static_cast<float>(c.rope_theta);
    }
    s.score = score_kind::scaled_dot;
    s.mask = mask_kind::causal;
    s.query_tokens = m.tok.readable(ids);
    return s;
}

json tokenized(const tokenizer& t, const std::vector<int>& ids) {
    json pieces = json::array();
    for (const int id : ids) pieces.push_back(t.piece(id));
    return {{"ids", ids}, {"tokens", t.readable(ids)}, {"pieces", pieces}};
}

json next_tokens(const model& m, const std::vector<float>& logits, int k, const lm::generate_options& o) {
    const lm::sampling s = lm::sample_logits(logits.data(), proposable(m), o, 0.0);
    json out = json::array();
    for (const int id : likeliest(s.top_p, k))
        out.push_back({{"id", id}, {"token", token_of(m, id)}, {"p", shortest_decimal(s.top_p[static_cast<std::size_t>(id)])}});
    return out;
}

json sample_tokens(const model& m, const std::vector<float>& logits, int k, const lm::generate_options& o) {
    lm::rng r(o.seed);
    const lm::sampling s = lm::sample_logits(logits.data(), proposable(m), o, o.temperature == 0 ? 0.0 : r.uniform());
    json out = json::array();
    for (const int id : likeliest(s.temperature, k)) {
        const auto j = static_cast<std::size_t>(id);
        out.push_back({{"id", id}, {"token", token_of(m, id)}, {"temperature", s.temperature[j]}, {"top_k", s.top_k[j]}, {"top_p", s.top_p[j]}});
    }
    return {{"candidates", out}, {"pick", {{"id", s.pick}, {"token", token_of(m, s.pick)}}}};
}

std::vector<int> generate(const model& m, std::vector<float> logits, kv_cache& cache, const lm::generate_options& o) {
    const std::vector<bool> ok = proposable(m);
    lm::rng r(o.seed);
    std::vector<int> made;
    for (int step = 0; step < o.n; ++step) {
        const int pick = lm::sample_logits(logits.data(), ok, o, o.temperature == 0 ? 0.0 : r.uniform()).pick;
        made.push_back(pick);
        if (step + 1 < o.n) logits = forward(m, {pick}, cache);
    }
    return made;
}

json about(const model& m) {
    const config& c = m.c;
    return {{"architecture", architecture_name(c.arch)}, {"dtype", dtype_name(m.at("embed").type)}, {"n_layer", c.n_layer}, {"n_head", c.n_head},
            {"n_kv_head", c.n_kv_head}, {"d_model", c.d_model}, {"d_head", c.d_head}, {"d_mlp", c.d_mlp}, {"n_ctx", c.n_ctx},
            {"n_vocab", c.n_vocab}, {"tokenizer_size", m.tok.size()}, {"tied", c.tied}, {"rope_theta", c.rope_theta},
            {"weight_bytes", m.weight_bytes()}};
}

}  // namespace attn::hf
