// Direct logit attribution: which heads pushed a candidate next character (docs/model.md, "Which heads
// pushed it"). Read off the trace: each head's context row at the last position times its rows of W_o is
// what the head adds to the residual stream; the final LayerNorm is linear once its scale is fixed to the
// row's own (as TransformerLens's apply_ln does), so the head's share of the logit is that vector centred,
// scaled by the row's 1/σ, times γ, dotted with the character's embedding (the tied unembedding).
#include <algorithm>
#include <cmath>

#include "attn/lm.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"

namespace attn::lm {

std::vector<attribution> logit_attribution(const model& m, const model_trace& t, const std::vector<std::string>& chars) {
    const config& c = m.config;
    const std::size_t d = static_cast<std::size_t>(c.d_model), H = static_cast<std::size_t>(c.n_head), dh = d / H;
    const std::size_t n = t.tokens.ids.size(), last = n - 1;
    // the final LayerNorm's 1/σ of the last row, from the stream it normalises
    const float* resid = t.find("resid_post", c.n_layer - 1)->data.data() + last * d;
    const double rstd = 1.0 / std::sqrt(moments(resid, d).var + double(c.ln_eps));
    const float* gamma = m.tensor("ln_f.weight");
    const float* wte = m.tensor("wte");
    const float* logits = t.find("logits", std::nullopt)->data.data() + last * m.vocab.size();
    // each head's output at the last row, centred and scaled as ln_f sees it, times γ: (n_layer·H) × d
    std::vector<double> seen(static_cast<std::size_t>(c.n_layer) * H * d);
    for (int l = 0; l < c.n_layer; ++l) {
        const float* ctx = t.find("context", l)->data.data();  // (H, n, d_h)
        const float* wo = m.tensor(l, "attn.wo");               // (d, d): row r of the concat → output
        for (std::size_t hd = 0; hd < H; ++hd) {
            std::vector<double> o(d, 0.0);
            for (std::size_t r = 0; r < dh; ++r) {
                const double x = ctx[(hd * n + last) * dh + r];
                for (std::size_t k = 0; k < d; ++k) o[k] += x * wo[(hd * dh + r) * d + k];
            }
            double om = 0;
            for (double v : o) om += v;
            om /= double(d);
            double* out = seen.data() + (static_cast<std::size_t>(l) * H + hd) * d;
            for (std::size_t k = 0; k < d; ++k) out[k] = (o[k] - om) * rstd * gamma[k];
        }
    }
    std::vector<attribution> result;
    for (const std::string& ch : chars) {
        const auto it = std::find(m.vocab.begin(), m.vocab.end(), ch);
        if (it == m.vocab.end() || it == m.vocab.begin())
            throw spec_error("\"" + user_text(ch) + "\" is not a character of this model's vocabulary.");
        const std::size_t id = static_cast<std::size_t>(it - m.vocab.begin());
        attribution a{ch, logits[id], {}};
        for (std::size_t g = 0; g < seen.size() / d; ++g) {
            double s = 0;
            for (std::size_t k = 0; k < d; ++k) s += seen[g * d + k] * wte[id * d + k];
            check_finite(static_cast<float>(s), "head attributions");  // as the float it is answered as
            a.heads.push_back(static_cast<float>(s));
        }
        result.push_back(std::move(a));
    }
    return result;
}

json attribution_json(const model& m, const model_trace& t, int k) {
    const std::vector<candidate> top = next_of_trace(m, t, k);
    std::vector<std::string> chars;
    for (const candidate& c : top) chars.push_back(c.ch);
    const std::vector<attribution> a = logit_attribution(m, t, chars);
    json out = json::array();
    for (std::size_t i = 0; i < a.size(); ++i) out.push_back({{"char", a[i].ch}, {"p", top[i].p}, {"logit", a[i].logit}, {"heads", a[i].heads}});
    return out;
}

}  // namespace attn::lm
