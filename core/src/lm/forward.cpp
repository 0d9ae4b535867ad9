// The character model's one forward pass (forward.hpp), after llm.c's train_gpt2.c with llama.cpp's cache
// and named intermediates: token and position embeddings, then per layer LayerNorm, causal multi-head
// attention and a GELU MLP on a residual stream, then the final LayerNorm and the tied unembedding. A trace
// is this pass with a tap; training, with the activations kept; generation, with a key/value cache. Every row
// is computed the same way in each mode, so the three give the same bits (tests/native/test_lm.cpp).
//
// [SECTION] the tap's stages · the MLP · the pass · the calls on it
#include "forward.hpp"

#include <algorithm>
#include <cmath>

#include "attn/kernels.hpp"
#include "attn/lm_train.hpp"
#include "attn/positional.hpp"
#include "blocks.hpp"
#include "kernels.hpp"

namespace attn::lm {
namespace {

using std::size_t;
using sizes = std::vector<size_t>;

// ---- [SECTION] the tap's stages ----

/// The pass's tap (ops::emitter), and rows (n × h·dh) as the sequence core shows them, head by head (h × n × dh).
struct emitter : ops::emitter {
    void heads(const char* id, int layer, const float* rows, size_t n, size_t h, size_t dh) const {
        if (!*this) return;
        std::vector<float> out(h * n * dh);
        for (size_t hd = 0; hd < h; ++hd)
            for (size_t i = 0; i < n; ++i) std::copy_n(rows + i * h * dh + hd * dh, dh, out.data() + (hd * n + i) * dh);
        spare(id, layer, {h, n, dh}, out);
    }
};

void add_rows(float* out, const float* a, const float* b, size_t count) {
    for (size_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

}  // namespace

// ---- [SECTION] the MLP ----

void mlp_forward(const model& m, int l, const float* mid, size_t rows, float* ln2, float* mean, float* rstd, float* pre,
                 float* act, float* out) {
    const size_t d = static_cast<size_t>(m.config.d_model), dm = static_cast<size_t>(m.config.d_mlp);
    kern::layernorm(ln2, mean, rstd, mid, m.tensor(l, "ln_2.weight"), m.tensor(l, "ln_2.bias"), rows, d, m.config.ln_eps);
    kern::linear(pre, ln2, m.tensor(l, "mlp.w1"), m.tensor(l, "mlp.b1"), rows, d, dm);
    kern::gelu_rows(act, pre, rows * dm);
    kern::linear(out, act, m.tensor(l, "mlp.w2"), m.tensor(l, "mlp.b2"), rows, dm, d);
}

// ---- [SECTION] the pass ----

std::vector<float> unembedding(const model& m) {
    const size_t d = static_cast<size_t>(m.config.d_model), V = m.vocab.size();
    std::vector<float> out(d * V);
    kern::transpose(out.data(), m.tensor("wte"), V, d);
    return out;
}

std::vector<float> forward(const model& m, const std::vector<int>& ids, int B_in, int T_in, const pass& p) {
    const config& c = m.config;
    const size_t B = static_cast<size_t>(B_in), T = static_cast<size_t>(T_in), BT = B * T, d = static_cast<size_t>(c.d_model),
                 h = static_cast<size_t>(c.n_head), dh = d / h, dm = static_cast<size_t>(c.d_mlp), V = m.vocab.size();
    const size_t pos0 = p.cache ? static_cast<size_t>(p.cache->length) : 0;
    if (B_in < 1 || T_in < 1 || ids.size() != BT) throw spec_error("a pass needs B·T character ids, at least one.");
    if ((p.cache || p.report) && B != 1) throw spec_error("a traced or cached pass runs one sequence.");
    if (pos0 + T > static_cast<size_t>(c.n_ctx))
        throw spec_error("the model reads at most " + std::to_string(c.n_ctx) + " characters, and this would be " +
                         std::to_string(pos0 + T) + ".");
    const emitter emit{{p.report}};
    activations scratch;
    activations& a = p.keep ? *p.keep : scratch;  // without keep, each layer's buffers are reused by the next
    a.B = B_in;
    a.T = T_in;
    a.layers.resize(p.keep ? static_cast<size_t>(c.n_layer) : 1);

    // the stream's start: each character's embedding plus its position's row
    std::vector<float> x(BT * d), embed(emit ? BT * d : 0);
    const float* wte = m.tensor("wte");
    // the sinusoidal table's row p is the same whatever the table's length: one for the context, made once per
    // thread and shape, serves every pass (a generation step reads one row of it)
    thread_local matrix sinusoidal;
    if (!c.learned_positions && !(sinusoidal.dimension() == 2 && sinusoidal.shape(0) == static_cast<size_t>(c.n_ctx) && sinusoidal.shape(1) == d))
        sinusoidal = sinusoidal_encoding(static_cast<size_t>(c.n_ctx), d);
    const float* pe = (c.learned_positions ? m.tensor("wpe") : sinusoidal.data()) + pos0 * d;
    for (size_t r = 0; r < BT; ++r) {
        const float* e = wte + static_cast<size_t>(ids[r]) * d;
        const float* at = pe + (r % T) * d;
        for (size_t i = 0; i < d; ++i) x[r * d + i] = e[i] + at[i];
        if (emit) std::copy_n(e, d, embed.data() + r * d);
    }
    emit.spare("embed", -1, {T, d}, embed);
    emit("pe", -1, {T, d}, pe);
    emit("x", -1, {T, d}, x.data());

    if (p.cache) p.cache->k.resize(static_cast<size_t>(c.n_layer)), p.cache->v.resize(static_cast<size_t>(c.n_layer));
    std::vector<float> o(BT * d);
    for (int l = 0; l < c.n_layer; ++l) {
        layer_acts& L = a.layers[p.keep ? static_cast<size_t>(l) : 0];
        if (p.keep) L.in = x;
        L.ln1.resize(BT * d), L.ln1_mean.resize(BT), L.ln1_rstd.resize(BT);
        kern::layernorm(L.ln1.data(), L.ln1_mean.data(), L.ln1_rstd.data(), x.data(), m.tensor(l, "ln_1.weight"),
                        m.tensor(l, "ln_1.bias"), BT, d, c.ln_eps);
        emit("ln_1", l, {T, d}, L.ln1.data());
        const struct { std::vector<float>* out; const char *w, *b; } qkv[] = {
            {&L.q, "attn.wq", "attn.bq"}, {&L.k, "attn.wk", "attn.bk"}, {&L.v, "attn.wv", "attn.bv"}};
        for (const auto& proj : qkv) {
            proj.out->resize(BT * d);
            kern::linear(proj.out->data(), L.ln1.data(), m.tensor(l, proj.w), m.tensor(l, proj.b), BT, d, d);
        }
        emit.heads("q", l, L.q.data(), T, h, dh);
        emit.heads("k", l, L.k.data(), T, h, dh);
        emit.heads("v", l, L.v.data(), T, h, dh);
        // the keys and values attention reads: the cache's, this pass's appended, or this pass's own
        const float *keys = L.k.data(), *values = L.v.data();
        if (p.cache) {
            std::vector<float>& kc = p.cache->k[static_cast<size_t>(l)];
            std::vector<float>& vc = p.cache->v[static_cast<size_t>(l)];
            kc.resize(pos0 * d), vc.resize(pos0 * d);
            kc.insert(kc.end(), L.k.begin(), L.k.end());
            vc.insert(vc.end(), L.v.begin(), L.v.end());
            keys = kc.data(), values = vc.data();
            if (emit) {  // the cache attention reads, keys then values, head by head: 2 × h × t × dh
                const size_t t = pos0 + T;
                std::vector<float> both(2 * h * t * dh);
                for (const auto& [from, to] : {std::pair{&kc, both.data()}, std::pair{&vc, both.data() + h * t * dh}})
                    for (size_t hd = 0; hd < h; ++hd)
                        for (size_t j = 0; j < t; ++j) std::copy_n(from->data() + j * d + hd * dh, dh, to + (hd * t + j) * dh);
                emit.spare("kv_cache", l, {2, h, t, dh}, both);
            }
        }
        L.ctx.resize(BT * d);
        if (p.keep) L.att.assign(B * h * T * T, 0.0f);
        ops::attention_steps steps;
        for (size_t b = 0; b < B; ++b) {
            const size_t rows = b * T * d;
            blocks::causal_attention(L.ctx.data() + rows, p.keep ? L.att.data() + b * h * T * T : nullptr, T, emit ? &steps : nullptr,
                                     L.q.data() + rows, keys + rows, values + rows, T, pos0, h, dh);
        }
        const size_t t = pos0 + T;
        emit.steps(l, h, T, t, steps);
        emit.heads("context", l, L.ctx.data(), T, h, dh);
        emit("concat", l, {T, d}, L.ctx.data());
        kern::linear(o.data(), L.ctx.data(), m.tensor(l, "attn.wo"), m.tensor(l, "attn.bo"), BT, d, d);
        emit("output", l, {T, d}, o.data());
        L.mid.resize(BT * d);
        add_rows(L.mid.data(), x.data(), o.data(), BT * d);
        emit("resid_mid", l, {T, d}, L.mid.data());
        if (dm == 0) {
            x = L.mid;
        } else {
            L.ln2.resize(BT * d), L.ln2_mean.resize(BT), L.ln2_rstd.resize(BT), L.pre.resize(BT * dm), L.act.resize(BT * dm);
            mlp_forward(m, l, L.mid.data(), BT, L.ln2.data(), L.ln2_mean.data(), L.ln2_rstd.data(), L.pre.data(), L.act.data(), o.data());
            emit("ln_2", l, {T, d}, L.ln2.data());
            emit("mlp_pre", l, {T, dm}, L.pre.data());
            emit("mlp_act", l, {T, dm}, L.act.data());
            emit("mlp_out", l, {T, d}, o.data());
            add_rows(x.data(), L.mid.data(), o.data(), BT * d);
        }
        emit("resid_post", l, {T, d}, x.data());
    }
    if (p.cache) p.cache->length += T_in;

    // the final LayerNorm and the tied unembedding, logits = LN_f(x)·wteᵀ, of the rows asked for
    a.lnf.resize(BT * d), a.lnf_mean.resize(BT), a.lnf_rstd.resize(BT);
    kern::layernorm(a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), x.data(), m.tensor("ln_f.weight"), m.tensor("ln_f.bias"), BT, d, c.ln_eps);
    emit("ln_f", -1, {T, d}, a.lnf.data());
    a.resid = std::move(x);
    if (p.logits == logit_rows::none) return {};
    std::vector<float> own;
    const float* wte_t = p.unembedding;
    if (!wte_t) own = unembedding(m), wte_t = own.data();
    std::vector<float> logits;
    if (p.logits == logit_rows::all) {
        logits.resize(BT * V);
        kern::linear(logits.data(), a.lnf.data(), wte_t, nullptr, BT, d, V);
    } else {
        logits.resize(B * V);
        for (size_t b = 0; b < B; ++b) kern::linear(logits.data() + b * V, a.lnf.data() + (b * T + T - 1) * d, wte_t, nullptr, 1, d, V);
    }
    if (emit) {
        std::vector<float> probs(logits.size()), row_max(T), row_sum(T);
        simd_kernels().softmax_rows(probs.data(), probs.data(), row_max.data(), row_sum.data(), logits.data(), logits.size() / V, V);
        emit("logits", -1, {logits.size() / V, V}, logits.data());
        emit.spare("probs", -1, {logits.size() / V, V}, probs);
    }
    if (!p.keep) return logits;
    a.logits = std::move(logits);  // the backward pass turns them into their gradient in place
    return {};
}

// ---- [SECTION] the calls on it ----

void forward_logits(const model& m, const std::vector<int>& inputs, int B, int T, std::vector<float>& logits,
                    std::vector<std::vector<float>>* weights) {
    activations a;
    pass training;
    training.keep = &a;
    forward(m, inputs, B, T, training);
    logits = std::move(a.logits);
    if (weights) {
        weights->clear();
        for (layer_acts& L : a.layers) weights->push_back(std::move(L.att));
    }
}

}  // namespace attn::lm
