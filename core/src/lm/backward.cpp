// The blocks of the batched passes (B sequences of T characters at once) and the character model's backward
// pass, after llm.c's train_gpt2.c: every gradient is written by hand from the activations the one forward
// pass (forward.cpp) kept.
//
// [SECTION] layout: attention forward · attention backward · backward
#include <algorithm>
#include <cmath>

#include "attn/lm_train.hpp"
#include "attn/positional.hpp"
#include "blocks.hpp"
#include "forward.hpp"
#include "kernels.hpp"

namespace attn::lm {

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

// ---- [SECTION] attention forward: one head at a time, causal, scaled by 1/√d_h ----

void blocks::causal_attention(float* ctx, float* att, size_t att_cols, ops::attention_steps* steps, const float* q, const float* k,
                              const float* v, size_t n, size_t pos0, size_t h, size_t dh) {
    const size_t d = h * dh, t = pos0 + n;
    // several queries read each key: its columns are gathered once, transposed, so each query's scores are one
    // vector loop across the keys; one query (a generation step) reads the keys in place, one dot product each. Either
    // way a score is the same sum over its head's columns in the same order, so every mode has the same bits.
    const bool gather = n > 1;
    std::vector<float> qh(n * dh), kt(gather ? dh * t : 0), row(t), out(dh);
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    if (steps)
        for (std::vector<float>* s : {&steps->scores, &steps->scaled, &steps->masked, &steps->exp, &steps->weights}) s->assign(h * n * t, 0.0f);
    if (steps) steps->row_max.assign(h * n, 0.0f), steps->row_sum.assign(h * n, 0.0f);
    for (size_t hd = 0; hd < h; ++hd) {
        for (size_t i = 0; i < n; ++i) std::copy_n(q + i * d + hd * dh, dh, qh.data() + i * dh);
        if (gather)
            for (size_t j = 0; j < t; ++j)
                for (size_t c = 0; c < dh; ++c) kt[c * t + j] = k[j * d + hd * dh + c];
        for (size_t i = 0; i < n; ++i) {
            const size_t seen = pos0 + i + 1;       // the query at position pos0 + i sees keys 0 … pos0 + i
            const size_t cols = steps ? t : seen;   // a trace shows the scores of the keys it may not see, too
            if (gather) {
                std::fill(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(cols), 0.0f);
                for (size_t c = 0; c < dh; ++c) {
                    const float x = qh[i * dh + c];
                    const float* kc = kt.data() + c * t;
                    for (size_t j = 0; j < cols; ++j) row[j] += x * kc[j];
                }
            } else {
                for (size_t j = 0; j < cols; ++j) {
                    const float* kj = k + j * d + hd * dh;
                    float s = 0.0f;
                    for (size_t c = 0; c < dh; ++c) s += qh[c] * kj[c];
                    row[j] = s;
                }
            }
            const size_t at = (hd * n + i) * t;  // the row's place in every h × n × t step
            if (steps)
                for (size_t j = 0; j < t; ++j) {
                    steps->scores[at + j] = row[j];
                    steps->scaled[at + j] = row[j] * scale;
                    steps->masked[at + j] = j < seen ? row[j] * scale : -1e9f;
                }
            float mx = -INFINITY;
            for (size_t j = 0; j < seen; ++j) mx = std::max(mx, row[j] * scale);
            float sum = 0.0f;
            for (size_t j = 0; j < seen; ++j) {
                row[j] = std::exp(row[j] * scale - mx);
                sum += row[j];
            }
            const float inv = 1.0f / sum;
            if (steps) {
                steps->row_max[hd * n + i] = mx;
                steps->row_sum[hd * n + i] = sum;
                std::copy_n(row.data(), seen, steps->exp.data() + at);
                for (size_t j = 0; j < seen; ++j) steps->weights[at + j] = row[j] * inv;
            }
            if (att) {
                float* ai = att + (hd * n + i) * att_cols;
                for (size_t j = 0; j < att_cols; ++j) ai[j] = j < seen ? row[j] * inv : 0.0f;
            }
            std::fill(out.begin(), out.end(), 0.0f);
            for (size_t j = 0; j < seen; ++j) {
                const float w = row[j] * inv;
                const float* vj = v + j * d + hd * dh;
                for (size_t c = 0; c < dh; ++c) out[c] += w * vj[c];
            }
            std::copy(out.begin(), out.end(), ctx + i * d + hd * dh);
        }
    }
}

void blocks::attention_forward(float* ctx, float* att, const float* q, const float* k, const float* v, const dims& s) {
    for (size_t b = 0; b < s.B; ++b) {
        const size_t rows = b * s.T * s.d;
        causal_attention(ctx + rows, att + b * s.h * s.T * s.T, s.T, nullptr, q + rows, k + rows, v + rows, s.T, 0, s.h, s.dh);
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
    pass training;
    training.keep = &a;
    forward(m, inputs, B, T, training);
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
