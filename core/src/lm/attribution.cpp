// Where a next character's logit comes from (docs/model.md, "Where a logit comes from"), and what each layer
// already predicts (the logit lens). Both read the trace at its last position.
//
// Direct logit attribution, exact: the last row's residual r is a sum of parts (the embedding, each head's
// output — its context row times its rows of W_o —, each attention's b_o, each MLP's output with b2). ln_f is
// linear once its 1/σ is frozen at r's own, so part p adds ((p − mean p) / σ · γ) · wte[c] to logit c (the tied
// unembedding), and ln_f's β adds β · wte[c]: the parts and the bias sum to the logit.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "attn/lm.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"

namespace attn::lm {
namespace {

/// A vocabulary character's id; one sentence when the model has no such character.
std::size_t id_of(const model& m, const std::string& ch) {
    const auto it = std::find(m.vocab.begin(), m.vocab.end(), ch);
    if (it == m.vocab.end() || it == m.vocab.begin())
        throw spec_error("\"" + user_text(ch) + "\" is not a character of this model's vocabulary.");
    return static_cast<std::size_t>(it - m.vocab.begin());
}

}  // namespace

std::vector<logit_part> logit_parts(const model& m, const model_trace& t, int id) {
    const config& c = m.config;
    const std::size_t d = static_cast<std::size_t>(c.d_model), H = static_cast<std::size_t>(c.n_head), dh = d / H;
    const std::size_t n = t.tokens.ids.size(), last = n - 1;
    // pass 1: ln_f's 1/σ on the full residual of the last row
    const float* resid = t.find("resid_post", c.n_layer - 1)->data.data() + last * d;
    const double rstd = 1.0 / std::sqrt(moments(resid, d).var + double(c.ln_eps));
    const float* gamma = m.tensor("ln_f.weight");
    const float* beta = m.tensor("ln_f.bias");
    const float* u = m.tensor("wte") + static_cast<std::size_t>(id) * d;  // W_U[:, id], tied
    // a part's share: centred, scaled by 1/σ and γ, dotted with the character's unembedding
    const auto share = [&](const std::vector<double>& p) {
        const double mean = std::accumulate(p.begin(), p.end(), 0.0) / double(d);
        double s = 0;
        for (std::size_t k = 0; k < d; ++k) s += (p[k] - mean) * rstd * gamma[k] * u[k];
        return s;
    };
    const auto row = [&](const float* data) { return std::vector<double>(data + last * d, data + last * d + d); };
    std::vector<logit_part> out;
    // pass 2: the embedding, token and position (the trace's x)
    out.push_back({"embed", -1, -1, share(row(t.find("x", std::nullopt)->data.data()))});
    for (int l = 0; l < c.n_layer; ++l) {
        // pass 3: each head's output at the last row, and the attention's bias
        const float* ctx = t.find("context", l)->data.data();  // (H, n, d_h)
        const float* wo = m.tensor(l, "attn.wo");               // (d, d): row r of the concat → output
        for (std::size_t hd = 0; hd < H; ++hd) {
            std::vector<double> o(d, 0.0);
            for (std::size_t r = 0; r < dh; ++r) {
                const double x = ctx[(hd * n + last) * dh + r];
                for (std::size_t k = 0; k < d; ++k) o[k] += x * wo[(hd * dh + r) * d + k];
            }
            out.push_back({"head", l, static_cast<int>(hd), share(o)});
        }
        const float* bo = m.tensor(l, "attn.bo");
        out.push_back({"attn_bias", l, -1, share(std::vector<double>(bo, bo + d))});
        // pass 4: the MLP's output, b2 included
        if (c.d_mlp > 0) out.push_back({"mlp", l, -1, share(row(t.find("mlp_out", l)->data.data()))});
    }
    // pass 5: ln_f's β
    double b = 0;
    for (std::size_t k = 0; k < d; ++k) b += double(beta[k]) * u[k];
    out.push_back({"ln_f_bias", -1, -1, b});
    for (const logit_part& p : out) check_finite(p.value, "logit attribution");
    return out;
}

std::vector<attribution> logit_attribution(const model& m, const model_trace& t, const std::vector<std::string>& chars) {
    const float* logits = t.find("logits", std::nullopt)->data.data() + (t.tokens.ids.size() - 1) * m.vocab.size();
    std::vector<attribution> result;
    for (const std::string& ch : chars) {
        const std::size_t id = id_of(m, ch);
        attribution a{ch, logits[id], {}};
        for (const logit_part& p : logit_parts(m, t, static_cast<int>(id)))
            if (p.part == "head") {
                check_finite(static_cast<float>(p.value), "head attributions");  // as the float it is answered as
                a.heads.push_back(static_cast<float>(p.value));
            }
        result.push_back(std::move(a));
    }
    return result;
}

json attribution_json(const model& m, const model_trace& t, int k) {
    const std::vector<candidate> top = next_of_trace(m, t, k);
    const float* logits = t.find("logits", std::nullopt)->data.data() + (t.tokens.ids.size() - 1) * m.vocab.size();
    json out = json::array();
    for (const candidate& c : top) {
        const std::size_t id = id_of(m, c.ch);
        json parts = json::array(), heads = json::array();
        for (const logit_part& p : logit_parts(m, t, static_cast<int>(id))) {
            parts.push_back({{"part", p.part}, {"layer", p.layer < 0 ? json(nullptr) : json(p.layer)},
                             {"head", p.head < 0 ? json(nullptr) : json(p.head)}, {"value", p.value}});
            if (p.part == "head") heads.push_back(static_cast<float>(p.value));
        }
        out.push_back({{"char", c.ch}, {"p", c.p}, {"logit", logits[id]}, {"heads", heads}, {"parts", parts}});
    }
    return out;
}

std::vector<lens_point> logit_lens(const model& m, const model_trace& t, int k) {
    const config& c = m.config;
    const std::size_t d = static_cast<std::size_t>(c.d_model), V = m.vocab.size(), last = t.tokens.ids.size() - 1;
    if (k < 1 || static_cast<std::size_t>(k) > V - 1)
        throw spec_error("k is " + std::to_string(k) + " but must be from 1 to " + std::to_string(V - 1) + " (the vocabulary's characters).");
    const float* gamma = m.tensor("ln_f.weight");
    const float* beta = m.tensor("ln_f.bias");
    const float* wte = m.tensor("wte");
    const std::vector<bool> ok = proposable(m);
    std::vector<lens_point> out;
    const auto read = [&](int layer, bool after_mlp, const float* resid) {
        // ln_f with this point's own σ, then the unembedding and a softmax over what may be proposed
        const row_moments mo = moments(resid, d);
        const double rstd = 1.0 / std::sqrt(mo.var + double(c.ln_eps));
        std::vector<double> a(d);
        for (std::size_t j = 0; j < d; ++j) a[j] = (resid[j] - mo.mean) * rstd * gamma[j] + beta[j];
        std::vector<double> z(V, -INFINITY);
        double top = -INFINITY;
        for (std::size_t v = 0; v < V; ++v) {
            if (!ok[v]) continue;
            double s = 0;
            for (std::size_t j = 0; j < d; ++j) s += a[j] * wte[v * d + j];
            z[v] = s;
            top = std::max(top, s);
        }
        double sum = 0;
        for (double& v : z) sum += (v = std::exp(v - top));
        std::vector<std::size_t> order(V);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](std::size_t p, std::size_t q) { return z[p] > z[q] || (z[p] == z[q] && p < q); });
        lens_point pt{layer, after_mlp, {}};
        for (int r = 0; r < k; ++r) {
            const float p = static_cast<float>(z[order[static_cast<std::size_t>(r)]] / sum);
            check_finite(p, "logit lens");
            pt.top.push_back({m.vocab[order[static_cast<std::size_t>(r)]], p});
        }
        out.push_back(std::move(pt));
    };
    for (int l = 0; l < c.n_layer; ++l) {
        read(l, false, t.find("resid_mid", l)->data.data() + last * d);
        if (c.d_mlp > 0) read(l, true, t.find("resid_post", l)->data.data() + last * d);
    }
    return out;
}

json lens_json(const model& m, const model_trace& t, int k) {
    json out = json::array();
    for (const lens_point& p : logit_lens(m, t, k)) {
        json top = json::array();
        for (const candidate& c : p.top) top.push_back({{"char", c.ch}, {"p", c.p}});
        out.push_back({{"layer", p.layer}, {"after", p.after_mlp ? "mlp" : "attn"}, {"top", top}});
    }
    return out;
}

json sampling_json(const model& m, const sampling& s, int k) {
    // the k likeliest after the temperature (the order sampling ranks them in), each with its three probabilities,
    // and the drawn character, listed even when it is not among them
    const std::size_t V = m.vocab.size();
    std::vector<std::size_t> order(V - 1);
    std::iota(order.begin(), order.end(), std::size_t{1});
    const std::size_t kk = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 1)), V - 1);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kk), order.end(), [&](std::size_t p, std::size_t q) {
        return s.temperature[p] > s.temperature[q] || (s.temperature[p] == s.temperature[q] && p < q);
    });
    json rows = json::array();
    const auto row = [&](std::size_t id) {
        return json{{"char", m.vocab[id]}, {"temperature", s.temperature[id]}, {"top_k", s.top_k[id]}, {"top_p", s.top_p[id]}};
    };
    for (std::size_t r = 0; r < kk; ++r) rows.push_back(row(order[r]));
    const std::size_t pick = static_cast<std::size_t>(s.pick);
    return {{"candidates", rows}, {"sampled", row(pick)}};
}

}  // namespace attn::lm
