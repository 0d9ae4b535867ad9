// The batched forward and backward pass of the whole model (B sequences of T characters at once),
// after llm.c's train_gpt2.c: every activation the backward pass needs is kept, and every gradient is
// written by hand. The trace (trace.cpp) computes the same numbers one stage at a time through the
// sequence core; a test holds the two to 1e-5.
//
// [SECTION] layout: activations · attention forward · forward · attention backward · backward
#include <algorithm>
#include <cmath>

#include "attn/lm_train.hpp"
#include "attn/positional.hpp"
#include "blocks.hpp"
#include "kernels.hpp"

namespace attn::lm {

struct layer_acts {
    std::vector<float> in, ln1, ln1_mean, ln1_rstd, q, k, v, att, ctx, mid, ln2, ln2_mean, ln2_rstd, pre, act;
};
struct activations {
    int B = 0, T = 0;
    std::vector<layer_acts> layers;
    std::vector<float> resid, lnf, lnf_mean, lnf_rstd, logits;  // resid: the last layer's output
};

using std::size_t;
using namespace blocks;

namespace {

dims dims_of(const model& m, int B, int T) {
    const config& c = m.config;
    const size_t d = static_cast<size_t>(c.d_model), h = static_cast<size_t>(c.n_head);
    return {static_cast<size_t>(B), static_cast<size_t>(T), static_cast<size_t>(B) * static_cast<size_t>(T), d, h,
            d / h, static_cast<size_t>(c.d_mlp), m.vocab.size()};
}

/// One head's columns of sequence b in a (B·T, d) buffer, as (T, d_h) rows, or transposed to (d_h, T).
void gather_head(float* out, const float* in, size_t b, size_t hd, bool transposed, const dims& s) {
    for (size_t t = 0; t < s.T; ++t)
        for (size_t c = 0; c < s.dh; ++c) (transposed ? out[c * s.T + t] : out[t * s.dh + c]) = in[(b * s.T + t) * s.d + hd * s.dh + c];
}
/// The reverse of gather_head for (T, d_h) rows: written into the head's columns of sequence b.
void scatter_head(float* out, const float* in, size_t b, size_t hd, const dims& s) {
    for (size_t t = 0; t < s.T; ++t)
        for (size_t c = 0; c < s.dh; ++c) out[(b * s.T + t) * s.d + hd * s.dh + c] = in[t * s.dh + c];
}

}  // namespace

// ---- [SECTION] attention forward: one (sequence, head) at a time, causal, scaled by 1/√d_h ----

void blocks::attention_forward(float* ctx, float* att, const float* q, const float* k, const float* v, const dims& s) {
    std::vector<float> qh(s.T * s.dh), kt(s.dh * s.T), vh(s.T * s.dh), row(s.T), out(s.dh), ctxh(s.T * s.dh);
    const float scale = 1.0f / std::sqrt(static_cast<float>(s.dh));
    for (size_t b = 0; b < s.B; ++b)
        for (size_t hd = 0; hd < s.h; ++hd) {
            gather_head(qh.data(), q, b, hd, false, s);
            gather_head(kt.data(), k, b, hd, true, s);
            gather_head(vh.data(), v, b, hd, false, s);
            float* a = att + (b * s.h + hd) * s.T * s.T;
            for (size_t i = 0; i < s.T; ++i) {
                const size_t n = i + 1;  // query i sees keys 0 … i
                std::fill(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(n), 0.0f);
                for (size_t c = 0; c < s.dh; ++c) {
                    const float x = qh[i * s.dh + c];
                    const float* kc = kt.data() + c * s.T;
                    for (size_t j = 0; j < n; ++j) row[j] += x * kc[j];
                }
                float mx = -INFINITY;
                for (size_t j = 0; j < n; ++j) mx = std::max(mx, row[j] * scale);
                float sum = 0.0f;
                for (size_t j = 0; j < n; ++j) {
                    row[j] = std::exp(row[j] * scale - mx);
                    sum += row[j];
                }
                const float inv = 1.0f / sum;
                float* ai = a + i * s.T;
                std::fill(out.begin(), out.end(), 0.0f);
                for (size_t j = 0; j < s.T; ++j) ai[j] = j < n ? row[j] * inv : 0.0f;
                for (size_t j = 0; j < n; ++j) {
                    const float w = ai[j];
                    const float* vj = vh.data() + j * s.dh;
                    for (size_t c = 0; c < s.dh; ++c) out[c] += w * vj[c];
                }
                std::copy(out.begin(), out.end(), ctxh.begin() + static_cast<std::ptrdiff_t>(i * s.dh));
            }
            scatter_head(ctx, ctxh.data(), b, hd, s);
        }
}

namespace {

void add_rows(float* out, const float* a, const float* b, size_t count) {
    for (size_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

}  // namespace

// ---- [SECTION] forward ----

void mlp_forward(const model& m, int l, const float* mid, size_t rows, float* ln2, float* mean, float* rstd, float* pre,
                 float* act, float* out) {
    const size_t d = static_cast<size_t>(m.config.d_model), dm = static_cast<size_t>(m.config.d_mlp);
    kern::layernorm(ln2, mean, rstd, mid, m.tensor(l, "ln_2.weight"), m.tensor(l, "ln_2.bias"), rows, d, m.config.ln_eps);
    kern::linear(pre, ln2, m.tensor(l, "mlp.w1"), m.tensor(l, "mlp.b1"), rows, d, dm);
    kern::gelu_rows(act, pre, rows * dm);
    kern::linear(out, act, m.tensor(l, "mlp.w2"), m.tensor(l, "mlp.b2"), rows, dm, d);
}

void forward(const model& m, const std::vector<int>& inputs, int B, int T, activations& a) {
    const dims s = dims_of(m, B, T);
    const config& c = m.config;
    a.B = B;
    a.T = T;
    a.layers.resize(static_cast<size_t>(c.n_layer));
    std::vector<float> x(s.BT * s.d);
    const float* wte = m.tensor("wte");
    const matrix pe = c.learned_positions ? matrix() : sinusoidal_encoding(s.T, s.d);
    const float* wpe = c.learned_positions ? m.tensor("wpe") : pe.data();
    for (size_t r = 0; r < s.BT; ++r) {
        const float* e = wte + static_cast<size_t>(inputs[r]) * s.d;
        const float* p = wpe + (r % s.T) * s.d;
        for (size_t i = 0; i < s.d; ++i) x[r * s.d + i] = e[i] + p[i];
    }
    for (size_t l = 0; l < a.layers.size(); ++l) {
        layer_acts& L = a.layers[l];
        L.in = x;
        L.ln1.resize(s.BT * s.d);
        L.ln1_mean.resize(s.BT);
        L.ln1_rstd.resize(s.BT);
        kern::layernorm(L.ln1.data(), L.ln1_mean.data(), L.ln1_rstd.data(), x.data(), m.tensor(static_cast<int>(l), "ln_1.weight"),
                        m.tensor(static_cast<int>(l), "ln_1.bias"), s.BT, s.d, c.ln_eps);
        const struct { std::vector<float>* out; const char *w, *b; } qkv[] = {
            {&L.q, "attn.wq", "attn.bq"}, {&L.k, "attn.wk", "attn.bk"}, {&L.v, "attn.wv", "attn.bv"}};
        for (const auto& p : qkv) {
            p.out->resize(s.BT * s.d);
            kern::linear(p.out->data(), L.ln1.data(), m.tensor(static_cast<int>(l), p.w), m.tensor(static_cast<int>(l), p.b), s.BT, s.d, s.d);
        }
        L.att.assign(s.B * s.h * s.T * s.T, 0.0f);
        L.ctx.resize(s.BT * s.d);
        attention_forward(L.ctx.data(), L.att.data(), L.q.data(), L.k.data(), L.v.data(), s);
        std::vector<float> o(s.BT * s.d);
        kern::linear(o.data(), L.ctx.data(), m.tensor(static_cast<int>(l), "attn.wo"), m.tensor(static_cast<int>(l), "attn.bo"), s.BT, s.d, s.d);
        L.mid.resize(s.BT * s.d);
        add_rows(L.mid.data(), x.data(), o.data(), s.BT * s.d);
        if (s.dm == 0) {
            x = L.mid;
            continue;
        }
        L.ln2.resize(s.BT * s.d);
        L.ln2_mean.resize(s.BT);
        L.ln2_rstd.resize(s.BT);
        L.pre.resize(s.BT * s.dm);
        L.act.resize(s.BT * s.dm);
        mlp_forward(m, static_cast<int>(l), L.mid.data(), s.BT, L.ln2.data(), L.ln2_mean.data(), L.ln2_rstd.data(), L.pre.data(),
                    L.act.data(), o.data());
        add_rows(x.data(), L.mid.data(), o.data(), s.BT * s.d);
    }
    a.resid = x;
    a.lnf.resize(s.BT * s.d);
    a.lnf_mean.resize(s.BT);
    a.lnf_rstd.resize(s.BT);
    kern::layernorm(a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), x.data(), m.tensor("ln_f.weight"), m.tensor("ln_f.bias"),
                    s.BT, s.d, c.ln_eps);
    std::vector<float> wte_t(s.d * s.V);  // tied unembedding: logits = ln_f · wteᵀ
    kern::transpose(wte_t.data(), wte, s.V, s.d);
    a.logits.resize(s.BT * s.V);
    kern::linear(a.logits.data(), a.lnf.data(), wte_t.data(), nullptr, s.BT, s.d, s.V);
}

void forward_logits(const model& m, const std::vector<int>& inputs, int B, int T, std::vector<float>& logits,
                    std::vector<std::vector<float>>* weights) {
    activations a;
    forward(m, inputs, B, T, a);
    logits = std::move(a.logits);
    if (weights) {
        weights->clear();
        for (layer_acts& L : a.layers) weights->push_back(std::move(L.att));
    }
}

// ---- [SECTION] attention backward ----

void blocks::attention_backward(float* dq, float* dk, float* dv, const float* dctx, const float* att, const float* q,
                        const float* k, const float* v, const dims& s) {
    std::vector<float> qh(s.T * s.dh), kh(s.T * s.dh), vt(s.dh * s.T), dc(s.T * s.dh), dqh(s.T * s.dh),
        dkh(s.T * s.dh), dvh(s.T * s.dh), da(s.T);
    const float scale = 1.0f / std::sqrt(static_cast<float>(s.dh));
    for (size_t b = 0; b < s.B; ++b)
        for (size_t hd = 0; hd < s.h; ++hd) {
            gather_head(qh.data(), q, b, hd, false, s);
            gather_head(kh.data(), k, b, hd, false, s);
            gather_head(vt.data(), v, b, hd, true, s);
            gather_head(dc.data(), dctx, b, hd, false, s);
            std::fill(dqh.begin(), dqh.end(), 0.0f);
            std::fill(dkh.begin(), dkh.end(), 0.0f);
            std::fill(dvh.begin(), dvh.end(), 0.0f);
            const float* a = att + (b * s.h + hd) * s.T * s.T;
            for (size_t i = 0; i < s.T; ++i) {
                const size_t n = i + 1;
                const float* ai = a + i * s.T;
                const float* dci = dc.data() + i * s.dh;
                std::fill(da.begin(), da.begin() + static_cast<std::ptrdiff_t>(n), 0.0f);
                for (size_t c = 0; c < s.dh; ++c) {  // dα_ij = dctx_i · v_j
                    const float x = dci[c];
                    const float* vc = vt.data() + c * s.T;
                    for (size_t j = 0; j < n; ++j) da[j] += x * vc[j];
                }
                float dot = 0.0f;
                for (size_t j = 0; j < n; ++j) dot += ai[j] * da[j];
                for (size_t j = 0; j < n; ++j) {
                    const float w = ai[j];
                    float* dvj = dvh.data() + j * s.dh;  // dv_j += α_ij · dctx_i
                    for (size_t c = 0; c < s.dh; ++c) dvj[c] += w * dci[c];
                    const float ds = w * (da[j] - dot) * scale;  // through the softmax and the 1/√d_h
                    float* dqi = dqh.data() + i * s.dh;
                    float* dkj = dkh.data() + j * s.dh;
                    const float* kj = kh.data() + j * s.dh;
                    const float* qi = qh.data() + i * s.dh;
                    for (size_t c = 0; c < s.dh; ++c) {
                        dqi[c] += ds * kj[c];
                        dkj[c] += ds * qi[c];
                    }
                }
            }
            scatter_head(dq, dqh.data(), b, hd, s);
            scatter_head(dk, dkh.data(), b, hd, s);
            scatter_head(dv, dvh.data(), b, hd, s);
        }
}

void blocks::layernorm_backward(float* dx, float* dw, float* db, const float* dout, const float* x, const float* mean,
                        const float* rstd, const float* w, size_t rows, size_t d) {
    for (size_t r = 0; r < rows; ++r) {
        const float* g = dout + r * d;
        const float* xr = x + r * d;
        float mean_dn = 0.0f, mean_dn_n = 0.0f;
        for (size_t i = 0; i < d; ++i) {
            const float n = (xr[i] - mean[r]) * rstd[r];
            const float dn = g[i] * w[i];
            mean_dn += dn;
            mean_dn_n += dn * n;
        }
        mean_dn /= static_cast<float>(d);
        mean_dn_n /= static_cast<float>(d);
        for (size_t i = 0; i < d; ++i) {
            const float n = (xr[i] - mean[r]) * rstd[r];
            db[i] += g[i];
            dw[i] += n * g[i];
            dx[r * d + i] += (g[i] * w[i] - mean_dn - n * mean_dn_n) * rstd[r];
        }
    }
}

void blocks::linear_backward(float* dx, float* dw, float* db, const float* dy, const float* x, const float* w, size_t rows,
                     size_t in_dim, size_t out_dim) {
    if (dx) {
        std::vector<float> wt(out_dim * in_dim);
        kern::transpose(wt.data(), w, in_dim, out_dim);
        kern::matmul_acc(dx, dy, wt.data(), rows, out_dim, in_dim);
    }
    kern::matmul_at_acc(dw, x, dy, rows, in_dim, out_dim);
    if (db)
        for (size_t r = 0; r < rows; ++r)
            for (size_t j = 0; j < out_dim; ++j) db[j] += dy[r * out_dim + j];
}

double blocks::softmax_cross_entropy(float* logits, const int* targets, size_t rows, size_t V, float per_row, bool grad) {
    double loss = 0.0;
    std::vector<float> e(V);
    for (size_t r = 0; r < rows; ++r) {
        float* z = logits + r * V;
        float lanes[8] = {z[0], z[0], z[0], z[0], z[0], z[0], z[0], z[0]};  // the max in 8 lanes: the same value, sooner
        size_t j0 = 0;
        for (; j0 + 8 <= V; j0 += 8)
            for (size_t u = 0; u < 8; ++u) lanes[u] = std::max(lanes[u], z[j0 + u]);
        float mx = *std::max_element(lanes, lanes + 8);
        for (; j0 < V; ++j0) mx = std::max(mx, z[j0]);
        // each exp once, in float; their sum in double, in order. Two loops, not one: with the call to exp in the
        // loop the running sum lived on the stack, and the softmax took a fifth of a training step
        for (size_t j = 0; j < V; ++j) e[j] = std::exp(z[j] - mx);
        double sum = 0.0;
        for (size_t j = 0; j < V; ++j) sum += e[j];
        loss += std::log(sum) + mx - z[targets[r]];
        if (!grad) continue;
        const float inv = static_cast<float>(1.0 / sum) * per_row;
        for (size_t j = 0; j < V; ++j) z[j] = e[j] * inv;
        z[targets[r]] -= per_row;
    }
    return loss;
}

// ---- [SECTION] backward ----

double loss_and_grad(const model& m, const std::vector<int>& inputs, const std::vector<int>& targets, int B, int T,
                     std::vector<float>* grad, std::vector<std::vector<float>>* attention_out) {
    const dims s = dims_of(m, B, T);
    const config& c = m.config;
    activations a;
    forward(m, inputs, B, T, a);
    // softmax and cross-entropy per row, in place: a.logits becomes (probs − onehot) / BT
    double loss = blocks::softmax_cross_entropy(a.logits.data(), targets.data(), s.BT, s.V, 1.0f / static_cast<float>(s.BT), grad != nullptr);
    loss /= static_cast<double>(s.BT);
    if (!grad) return loss;
    grad->assign(m.weights.size(), 0.0f);
    if (attention_out) attention_out->assign(a.layers.size(), {});
    auto g = [&](const std::string& name) { return grad->data() + m.slot(name).offset; };
    auto w = [&](const std::string& name) { return m.tensor(name); };
    float* dwte = g("wte");
    const float* dlogits = a.logits.data();
    kern::matmul_at_acc(dwte, dlogits, a.lnf.data(), s.BT, s.V, s.d);
    std::vector<float> dlnf(s.BT * s.d, 0.0f), dx(s.BT * s.d, 0.0f);
    kern::matmul_acc(dlnf.data(), dlogits, w("wte"), s.BT, s.V, s.d);
    layernorm_backward(dx.data(), g("ln_f.weight"), g("ln_f.bias"), dlnf.data(), a.resid.data(), a.lnf_mean.data(),
                       a.lnf_rstd.data(), w("ln_f.weight"), s.BT, s.d);
    for (size_t li = a.layers.size(); li-- > 0;) {
        const layer_acts& L = a.layers[li];
        auto n = [&](const char* rest) { return layer_tensor_name(static_cast<int>(li), rest); };
        std::vector<float> dmid = dx;  // the residual passes the gradient straight through
        if (s.dm > 0) {
            std::vector<float> dact(s.BT * s.dm, 0.0f), dln2(s.BT * s.d, 0.0f);
            linear_backward(dact.data(), g(n("mlp.w2")), g(n("mlp.b2")), dx.data(), L.act.data(), w(n("mlp.w2")), s.BT, s.dm, s.d);
            kern::gelu_grad_times(dact.data(), L.pre.data(), dact.size());
            linear_backward(dln2.data(), g(n("mlp.w1")), g(n("mlp.b1")), dact.data(), L.ln2.data(), w(n("mlp.w1")), s.BT, s.d, s.dm);
            layernorm_backward(dmid.data(), g(n("ln_2.weight")), g(n("ln_2.bias")), dln2.data(), L.mid.data(), L.ln2_mean.data(),
                               L.ln2_rstd.data(), w(n("ln_2.weight")), s.BT, s.d);
        }
        if (attention_out) (*attention_out)[li] = dmid;  // o joins the residual: dL/do = dL/dx′
        std::vector<float> dctx(s.BT * s.d, 0.0f), dq(s.BT * s.d), dk(s.BT * s.d), dv(s.BT * s.d), dln1(s.BT * s.d, 0.0f);
        linear_backward(dctx.data(), g(n("attn.wo")), g(n("attn.bo")), dmid.data(), L.ctx.data(), w(n("attn.wo")), s.BT, s.d, s.d);
        attention_backward(dq.data(), dk.data(), dv.data(), dctx.data(), L.att.data(), L.q.data(), L.k.data(), L.v.data(), s);
        linear_backward(dln1.data(), g(n("attn.wq")), g(n("attn.bq")), dq.data(), L.ln1.data(), w(n("attn.wq")), s.BT, s.d, s.d);
        linear_backward(dln1.data(), g(n("attn.wk")), g(n("attn.bk")), dk.data(), L.ln1.data(), w(n("attn.wk")), s.BT, s.d, s.d);
        linear_backward(dln1.data(), g(n("attn.wv")), g(n("attn.bv")), dv.data(), L.ln1.data(), w(n("attn.wv")), s.BT, s.d, s.d);
        dx = dmid;
        layernorm_backward(dx.data(), g(n("ln_1.weight")), g(n("ln_1.bias")), dln1.data(), L.in.data(), L.ln1_mean.data(),
                           L.ln1_rstd.data(), w(n("ln_1.weight")), s.BT, s.d);
    }
    float* dwpe = c.learned_positions ? g("wpe") : nullptr;
    for (size_t r = 0; r < s.BT; ++r) {
        float* e = dwte + static_cast<size_t>(inputs[r]) * s.d;
        for (size_t i = 0; i < s.d; ++i) e[i] += dx[r * s.d + i];
        if (dwpe)
            for (size_t i = 0; i < s.d; ++i) dwpe[(r % s.T) * s.d + i] += dx[r * s.d + i];
    }
    return loss;
}

}  // namespace attn::lm
