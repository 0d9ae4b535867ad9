// The trainer of model folders (attn/hf_train.hpp): one batched forward pass over the three layouts, its
// backward pass by hand, AdamW as the character model has it, and the folder written as Hugging Face writes it.
//
// [SECTION] parameters · blocks of this file · forward · backward · steps · the folder
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "attn/hf_train.hpp"
#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "io/guarded_json.hpp"
#include "lm/blocks.hpp"
#include "lm/kernels.hpp"
#include "ops/ops.hpp"

namespace attn::hf {

using std::size_t;
using layer_at = folder_trainer::layer_at;
namespace kern = lm::kern;
namespace blocks = lm::blocks;

namespace {

enum init_kind { zeros, ones, normal_std, normal_residual };

bool is_gpt2(const train_shape& s) { return s.arch == architecture::gpt2; }
size_t head_dim(const train_shape& s) { return static_cast<size_t>(s.d_model / s.n_head); }

}  // namespace

// ---- [SECTION] parameters ----

size_t folder_trainer::add(const std::string& name, std::vector<size_t> shape, bool decay, int init) {
    size_t n = 1;
    for (size_t k : shape) n *= k;
    lm::param p{name, std::move(shape), w_.size(), n, decay};
    table_.push_back(p);
    w_.resize(w_.size() + n);
    // GPT-2's initialisation: normal 0.02, the projections into the residual stream by 1/√(2·layers); norms at one
    const double residual = 0.02 / std::sqrt(2.0 * shape_.n_layer);
    for (size_t i = 0; i < n; ++i)
        w_[p.offset + i] = init == zeros ? 0.0f : init == ones ? 1.0f
                         : static_cast<float>(rng_.normal() * (init == normal_std ? 0.02 : residual));
    return p.offset;
}

folder_trainer::folder_trainer(const train_shape& shape, std::vector<int> train_ids, const lm::train_settings& s,
                               int min_count, int window)
    : shape_(shape), s_(s), window_(window), rng_(s.seed) {
    const train_shape& c = shape_;
    if (c.d_model <= 0 || c.n_head <= 0 || c.n_kv_head <= 0 || c.n_layer <= 0 || c.d_mlp <= 0 || c.n_ctx <= 0 ||
        c.d_model % c.n_head != 0 || c.n_head % c.n_kv_head != 0 || head_dim(c) % 2 != 0 || c.vocab_rows <= 0)
        throw spec_error("the model's shape is not one of these layouts (d_model a multiple of an even head width, heads a multiple of the key/value heads).");
    if (is_gpt2(c) && c.n_kv_head != c.n_head) throw spec_error("GPT-2 has as many key/value heads as heads.");
    if (window < 2 || window > c.n_ctx) throw spec_error("the training window must be 2 … the model's n_ctx (" + std::to_string(c.n_ctx) + ").");
    if (train_ids.size() < static_cast<size_t>(window) + 2) throw spec_error("the training text has fewer tokens than one window.");
    if (s.steps < 1 || s.batch < 1 || s.parts < 1) throw spec_error("steps, batch and parts must be at least 1.");
    const size_t V = static_cast<size_t>(c.vocab_rows);
    std::vector<size_t> count(V, 0);
    for (int id : train_ids) {
        if (id < 0 || static_cast<size_t>(id) >= V)
            throw spec_error("a training id (" + std::to_string(id) + ") is outside the embedding's " + std::to_string(V) + " rows.");
        ++count[static_cast<size_t>(id)];
    }
    // the rows: each token seen min_count times or more its own, then r (the rarer ones), then u (the unseen)
    row_of_.assign(V, 0);
    int own = 0;
    for (size_t id = 0; id < V; ++id)
        if (count[id] >= static_cast<size_t>(std::max(1, min_count))) row_of_[id] = own++;
    for (size_t id = 0; id < V; ++id)
        if (count[id] < static_cast<size_t>(std::max(1, min_count))) {
            row_of_[id] = count[id] > 0 ? own : own + 1;
            ++(count[id] > 0 ? groups_.rare_tokens : groups_.unseen_tokens);
        }
    groups_.own_rows = own;
    row_bias_.assign(static_cast<size_t>(own) + 2, 0.0f);
    row_extra_.assign(row_bias_.size(), 0.0f);
    const int group_size[2] = {groups_.rare_tokens, groups_.unseen_tokens};
    for (int g = 0; g < 2; ++g) {
        const size_t r = static_cast<size_t>(own + g);
        // a shared row's logit counts once for each token it stands for; an empty group holds no probability
        row_bias_[r] = group_size[g] > 0 ? static_cast<float>(std::log(group_size[g])) : -1e4f;
        row_extra_[r] = group_size[g] > 0 ? row_bias_[r] : 0.0f;
    }
    data_ = std::move(train_ids);

    const size_t d = static_cast<size_t>(c.d_model), dh = head_dim(c), f = static_cast<size_t>(c.d_mlp);
    const size_t hq = static_cast<size_t>(c.n_head) * dh, hk = static_cast<size_t>(c.n_kv_head) * dh;
    const bool g2 = is_gpt2(c), qkv_bias = g2 || c.arch == architecture::qwen2;
    embed_ = add("embed", {row_bias_.size(), d}, true, normal_std);
    if (g2) wpe_ = add("wpe", {static_cast<size_t>(c.n_ctx), d}, true, normal_std);
    for (int l = 0; l < c.n_layer; ++l) {
        const std::string p = "l" + std::to_string(l) + ".";
        layer_at L;
        L.n1w = add(p + "n1.w", {d}, false, ones);
        if (g2) L.n1b = add(p + "n1.b", {d}, false, zeros);
        L.wq = add(p + "wq", {d, hq}, true, normal_std);
        if (qkv_bias) L.bq = add(p + "bq", {hq}, false, zeros);
        L.wk = add(p + "wk", {d, hk}, true, normal_std);
        if (qkv_bias) L.bk = add(p + "bk", {hk}, false, zeros);
        L.wv = add(p + "wv", {d, hk}, true, normal_std);
        if (qkv_bias) L.bv = add(p + "bv", {hk}, false, zeros);
        L.wo = add(p + "wo", {hq, d}, true, normal_residual);
        if (g2) L.bo = add(p + "bo", {d}, false, zeros);
        L.n2w = add(p + "n2.w", {d}, false, ones);
        if (g2) L.n2b = add(p + "n2.b", {d}, false, zeros);
        L.w1 = add(p + "w1", {d, f}, true, normal_std);
        if (g2) L.b1 = add(p + "b1", {f}, false, zeros);
        if (!g2) L.w3 = add(p + "w3", {d, f}, true, normal_std);
        L.w2 = add(p + "w2", {f, d}, true, normal_residual);
        if (g2) L.b2 = add(p + "b2", {d}, false, zeros);
        layers_.push_back(L);
    }
    normf_w_ = add("normf.w", {d}, false, ones);
    if (g2) normf_b_ = add("normf.b", {d}, false, zeros);
    m1_.assign(w_.size(), 0.0f);
    m2_.assign(w_.size(), 0.0f);
    grad_.assign(w_.size(), 0.0f);
}

// ---- [SECTION] blocks of this file: RMSNorm, rotary positions, shared key/value heads, the activations ----

namespace {

void rmsnorm(float* y, float* rrms, const float* x, const float* w, size_t rows, size_t d, float eps) {
    for (size_t r = 0; r < rows; ++r) {
        const float* a = x + r * d;
        double ss = 0.0;
        for (size_t i = 0; i < d; ++i) ss += static_cast<double>(a[i]) * a[i];
        rrms[r] = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(d) + eps));
        for (size_t i = 0; i < d; ++i) y[r * d + i] = a[i] * rrms[r] * w[i];
    }
}

/// y = x·ρ·w with ρ = 1/√(mean(x²) + ε): dx += ρ·(dy∘w) − x·ρ³·mean((dy∘w)∘x), dw += dy∘x·ρ.
void rmsnorm_backward(float* dx, float* dw, const float* dy, const float* x, const float* rrms, const float* w, size_t rows, size_t d) {
    for (size_t r = 0; r < rows; ++r) {
        const float* a = x + r * d;
        const float* g = dy + r * d;
        const float p = rrms[r];
        double dot = 0.0;
        for (size_t i = 0; i < d; ++i) dot += static_cast<double>(g[i]) * w[i] * a[i];
        const float k = static_cast<float>(dot / static_cast<double>(d)) * p * p * p;
        for (size_t i = 0; i < d; ++i) {
            dw[i] += g[i] * a[i] * p;
            dx[r * d + i] += p * g[i] * w[i] - a[i] * k;
        }
    }
}

struct rotary_table {
    std::vector<float> cs, sn;  // [position][i < dh/2]
    size_t half = 0;
};
rotary_table rotary_of(size_t T, size_t dh, double theta) {
    rotary_table r;
    r.half = dh / 2;
    r.cs.resize(T * r.half);
    r.sn.resize(T * r.half);
    for (size_t p = 0; p < T; ++p)
        for (size_t i = 0; i < r.half; ++i) {
            const double a = ops::rope_angle(p, i, dh, theta);  // the angle as the forward pass has it
            r.cs[p * r.half + i] = static_cast<float>(std::cos(a));
            r.sn[p * r.half + i] = static_cast<float>(std::sin(a));
        }
    return r;
}

/// Rotates every head of every row (BT, heads·dh) by its position's angles, in place; `back` rotates by the
/// negative angles, which is the rotation's backward pass (its transpose).
void rotate_rows(float* x, size_t rows, size_t T, size_t heads, size_t dh, const rotary_table& rt, bool back) {
    const size_t half = rt.half;
    for (size_t r = 0; r < rows; ++r) {
        const float* c = rt.cs.data() + (r % T) * half;
        const float* s = rt.sn.data() + (r % T) * half;
        for (size_t h = 0; h < heads; ++h) {
            float* v = x + (r * heads + h) * dh;
            for (size_t i = 0; i < half; ++i) {
                const float a = v[i], b = v[i + half], sn = back ? -s[i] : s[i];
                v[i] = a * c[i] - b * sn;
                v[i + half] = b * c[i] + a * sn;
            }
        }
    }
}

/// (BT, g·dh) → (BT, h·dh): query head i reads key/value head i / (h/g).
void expand_heads(float* out, const float* in, size_t rows, size_t h, size_t g, size_t dh) {
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < h; ++i) std::memcpy(out + (r * h + i) * dh, in + (r * g + i / (h / g)) * dh, dh * sizeof(float));
}
/// The backward pass of expand_heads: each key/value head's gradient is the sum over the query heads sharing it.
void sum_heads(float* out, const float* in, size_t rows, size_t h, size_t g, size_t dh) {
    std::fill(out, out + rows * g * dh, 0.0f);
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < h; ++i) {
            float* o = out + (r * g + i / (h / g)) * dh;
            const float* a = in + (r * h + i) * dh;
            for (size_t c = 0; c < dh; ++c) o[c] += a[c];
        }
}

constexpr float gelu_c = 0.7978845608028654f;  // √(2/π)
float gelu_new(float x) { return 0.5f * x * (1.0f + std::tanh(gelu_c * (x + 0.044715f * x * x * x))); }
float gelu_new_grad(float x) {
    const float t = std::tanh(gelu_c * (x + 0.044715f * x * x * x));
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * gelu_c * (1.0f + 3.0f * 0.044715f * x * x);
}
float sigmoid(float z) { return 1.0f / (1.0f + std::exp(-z)); }

void add_into(float* out, const float* a, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] += a[i];
}

}  // namespace

// ---- [SECTION] forward ----

struct folder_trainer::acts {
    struct layer {
        std::vector<float> in, n1, n1_mean, n1_scale, q, k, v, ke, ve, att, ctx, mid, n2, n2_mean, n2_scale, h1, h3, act;
    };
    size_t B = 0, T = 0, BT = 0;
    std::vector<layer> layers;
    std::vector<float> out, nf, nf_mean, nf_scale, logits;
    rotary_table rot;
};

void folder_trainer::forward(const std::vector<int>& rows_in, int B, int T, acts& a) const {
    const train_shape& c = shape_;
    const bool g2 = is_gpt2(c);
    const size_t d = static_cast<size_t>(c.d_model), dh = head_dim(c), f = static_cast<size_t>(c.d_mlp);
    const size_t h = static_cast<size_t>(c.n_head), g = static_cast<size_t>(c.n_kv_head), hq = h * dh, hk = g * dh;
    const size_t K = row_bias_.size();
    a.B = static_cast<size_t>(B);
    a.T = static_cast<size_t>(T);
    a.BT = a.B * a.T;
    const size_t BT = a.BT;
    const float* W = w_.data();
    auto at = [&](size_t off) { return off == layer_at::none ? nullptr : W + off; };
    if (!g2) a.rot = rotary_of(a.T, dh, c.rope_theta);
    std::vector<float> x(BT * d);
    for (size_t r = 0; r < BT; ++r)
        for (size_t i = 0; i < d; ++i)
            x[r * d + i] = W[embed_ + static_cast<size_t>(rows_in[r]) * d + i] + (g2 ? W[wpe_ + (r % a.T) * d + i] : 0.0f);
    auto norm = [&](std::vector<float>& y, std::vector<float>& mean, std::vector<float>& scale, const std::vector<float>& in,
                    size_t w_at, size_t b_at) {
        y.resize(BT * d);
        scale.resize(BT);
        if (g2) {
            mean.resize(BT);
            kern::layernorm(y.data(), mean.data(), scale.data(), in.data(), W + w_at, W + b_at, BT, d, c.eps);
        } else rmsnorm(y.data(), scale.data(), in.data(), W + w_at, BT, d, c.eps);
    };
    const blocks::dims s{a.B, a.T, BT, hq, h, dh, f, K};
    a.layers.resize(layers_.size());
    for (size_t l = 0; l < layers_.size(); ++l) {
        const layer_at& L = layers_[l];
        auto& A = a.layers[l];
        A.in = x;
        norm(A.n1, A.n1_mean, A.n1_scale, A.in, L.n1w, L.n1b);
        A.q.resize(BT * hq);
        A.k.resize(BT * hk);
        A.v.resize(BT * hk);
        kern::linear(A.q.data(), A.n1.data(), W + L.wq, at(L.bq), BT, d, hq);
        kern::linear(A.k.data(), A.n1.data(), W + L.wk, at(L.bk), BT, d, hk);
        kern::linear(A.v.data(), A.n1.data(), W + L.wv, at(L.bv), BT, d, hk);
        if (!g2) {  // q and k kept after the rotation: the attention and its backward pass read those
            rotate_rows(A.q.data(), BT, a.T, h, dh, a.rot, false);
            rotate_rows(A.k.data(), BT, a.T, g, dh, a.rot, false);
        }
        A.ke.resize(BT * hq);
        A.ve.resize(BT * hq);
        expand_heads(A.ke.data(), A.k.data(), BT, h, g, dh);
        expand_heads(A.ve.data(), A.v.data(), BT, h, g, dh);
        A.att.resize(a.B * h * a.T * a.T);
        A.ctx.resize(BT * hq);
        blocks::attention_forward(A.ctx.data(), A.att.data(), A.q.data(), A.ke.data(), A.ve.data(), s);
        A.mid.resize(BT * d);
        kern::linear(A.mid.data(), A.ctx.data(), W + L.wo, at(L.bo), BT, hq, d);
        add_into(A.mid.data(), A.in.data(), BT * d);
        norm(A.n2, A.n2_mean, A.n2_scale, A.mid, L.n2w, L.n2b);
        A.h1.resize(BT * f);
        A.act.resize(BT * f);
        kern::linear(A.h1.data(), A.n2.data(), W + L.w1, at(L.b1), BT, d, f);
        if (g2)
            for (size_t i = 0; i < BT * f; ++i) A.act[i] = gelu_new(A.h1[i]);
        else {
            A.h3.resize(BT * f);
            kern::linear(A.h3.data(), A.n2.data(), W + L.w3, nullptr, BT, d, f);
            for (size_t i = 0; i < BT * f; ++i) A.act[i] = A.h1[i] * sigmoid(A.h1[i]) * A.h3[i];  // SwiGLU: silu(gate)·up
        }
        kern::linear(x.data(), A.act.data(), W + L.w2, at(L.b2), BT, f, d);
        add_into(x.data(), A.mid.data(), BT * d);
    }
    a.out = x;
    norm(a.nf, a.nf_mean, a.nf_scale, a.out, normf_w_, normf_b_);
    std::vector<float> et(d * K);
    kern::transpose(et.data(), W + embed_, K, d);
    a.logits.resize(BT * K);
    kern::linear(a.logits.data(), a.nf.data(), et.data(), row_bias_.data(), BT, d, K);
}

// ---- [SECTION] backward ----

double folder_trainer::loss(const std::vector<int>& inputs, const std::vector<int>& targets, int B, int T,
                            std::vector<float>* grad) const {
    const size_t BT = static_cast<size_t>(B) * static_cast<size_t>(T);
    if (inputs.size() != BT || targets.size() != BT || T > shape_.n_ctx) throw spec_error("the batch's ids do not fill B windows of T ≤ n_ctx.");
    std::vector<int> in(BT), tg(BT);
    for (size_t r = 0; r < BT; ++r) {
        for (int id : {inputs[r], targets[r]})
            if (id < 0 || id >= shape_.vocab_rows) throw spec_error("an id (" + std::to_string(id) + ") is outside the embedding.");
        in[r] = row_of_[static_cast<size_t>(inputs[r])];
        tg[r] = row_of_[static_cast<size_t>(targets[r])];
    }
    acts a;
    forward(in, B, T, a);
    const size_t K = row_bias_.size();
    double sum = blocks::softmax_cross_entropy(a.logits.data(), tg.data(), BT, K, 1.0f / static_cast<float>(BT), grad != nullptr);
    for (int t : tg) sum += row_extra_[static_cast<size_t>(t)];  // a shared row's token: its share of the row's probability
    if (!grad) return sum / static_cast<double>(BT);
    const train_shape& c = shape_;
    const bool g2 = is_gpt2(c);
    const size_t d = static_cast<size_t>(c.d_model), dh = head_dim(c), f = static_cast<size_t>(c.d_mlp);
    const size_t h = static_cast<size_t>(c.n_head), g = static_cast<size_t>(c.n_kv_head), hq = h * dh, hk = g * dh;
    grad->assign(w_.size(), 0.0f);
    float* G = grad->data();
    const float* W = w_.data();
    auto gat = [&](size_t off) { return off == layer_at::none ? nullptr : G + off; };
    auto norm_back = [&](float* dx, const float* dy, const std::vector<float>& x, const std::vector<float>& mean,
                         const std::vector<float>& scale, size_t w_at, size_t b_at) {
        if (g2) blocks::layernorm_backward(dx, G + w_at, G + b_at, dy, x.data(), mean.data(), scale.data(), W + w_at, BT, d);
        else rmsnorm_backward(dx, G + w_at, dy, x.data(), scale.data(), W + w_at, BT, d);
    };
    const float* dlogits = a.logits.data();
    kern::matmul_at_acc(G + embed_, dlogits, a.nf.data(), BT, K, d);
    std::vector<float> dnf(BT * d, 0.0f), dx(BT * d, 0.0f);
    kern::matmul_acc(dnf.data(), dlogits, W + embed_, BT, K, d);
    norm_back(dx.data(), dnf.data(), a.out, a.nf_mean, a.nf_scale, normf_w_, normf_b_);
    const blocks::dims s{a.B, a.T, BT, hq, h, dh, f, K};
    for (size_t l = layers_.size(); l-- > 0;) {
        const layer_at& L = layers_[l];
        const auto& A = a.layers[l];
        std::vector<float> dmid = dx;  // the residual passes the gradient straight through
        std::vector<float> dact(BT * f, 0.0f), dn2(BT * d, 0.0f);
        blocks::linear_backward(dact.data(), G + L.w2, gat(L.b2), dx.data(), A.act.data(), W + L.w2, BT, f, d);
        if (g2) {
            for (size_t i = 0; i < BT * f; ++i) dact[i] *= gelu_new_grad(A.h1[i]);
            blocks::linear_backward(dn2.data(), G + L.w1, gat(L.b1), dact.data(), A.n2.data(), W + L.w1, BT, d, f);
        } else {
            std::vector<float> dgate(BT * f), dup(BT * f);
            for (size_t i = 0; i < BT * f; ++i) {
                const float z = A.h1[i], sg = sigmoid(z);
                dup[i] = dact[i] * z * sg;
                dgate[i] = dact[i] * A.h3[i] * sg * (1.0f + z * (1.0f - sg));
            }
            blocks::linear_backward(dn2.data(), G + L.w1, nullptr, dgate.data(), A.n2.data(), W + L.w1, BT, d, f);
            blocks::linear_backward(dn2.data(), G + L.w3, nullptr, dup.data(), A.n2.data(), W + L.w3, BT, d, f);
        }
        norm_back(dmid.data(), dn2.data(), A.mid, A.n2_mean, A.n2_scale, L.n2w, L.n2b);
        std::vector<float> dctx(BT * hq, 0.0f), dq(BT * hq), dke(BT * hq), dve(BT * hq), dk(BT * hk), dv(BT * hk), dn1(BT * d, 0.0f);
        blocks::linear_backward(dctx.data(), G + L.wo, gat(L.bo), dmid.data(), A.ctx.data(), W + L.wo, BT, hq, d);
        blocks::attention_backward(dq.data(), dke.data(), dve.data(), dctx.data(), A.att.data(), A.q.data(), A.ke.data(), A.ve.data(), s);
        sum_heads(dk.data(), dke.data(), BT, h, g, dh);
        sum_heads(dv.data(), dve.data(), BT, h, g, dh);
        if (!g2) {
            rotate_rows(dq.data(), BT, a.T, h, dh, a.rot, true);
            rotate_rows(dk.data(), BT, a.T, g, dh, a.rot, true);
        }
        blocks::linear_backward(dn1.data(), G + L.wq, gat(L.bq), dq.data(), A.n1.data(), W + L.wq, BT, d, hq);
        blocks::linear_backward(dn1.data(), G + L.wk, gat(L.bk), dk.data(), A.n1.data(), W + L.wk, BT, d, hk);
        blocks::linear_backward(dn1.data(), G + L.wv, gat(L.bv), dv.data(), A.n1.data(), W + L.wv, BT, d, hk);
        dx = dmid;
        norm_back(dx.data(), dn1.data(), A.in, A.n1_mean, A.n1_scale, L.n1w, L.n1b);
    }
    for (size_t r = 0; r < BT; ++r) {
        add_into(G + embed_ + static_cast<size_t>(in[r]) * d, dx.data() + r * d, d);
        if (g2) add_into(G + wpe_ + (r % a.T) * d, dx.data() + r * d, d);
    }
    return sum / static_cast<double>(BT);
}

// ---- [SECTION] steps ----

double folder_trainer::step() {
    const size_t T = static_cast<size_t>(window_), B = static_cast<size_t>(s_.batch);
    std::vector<int> inputs(B * T), targets(B * T);
    for (size_t b = 0; b < B; ++b) {
        const size_t start = rng_.below(data_.size() - T - 1);
        for (size_t t = 0; t < T; ++t) {
            inputs[b * T + t] = data_[start + t];
            targets[b * T + t] = data_[start + t + 1];
        }
    }
    const double total = lm::batch_gradient(s_.parts, B, T, inputs, targets,
                                            [&](const std::vector<int>& in, const std::vector<int>& tg, int b, std::vector<float>* g) {
                                                return loss(in, tg, b, static_cast<int>(T), g);
                                            },
                                            part_grads_, grad_);
    lm::optimizer_step(w_, grad_, m1_, m2_, table_, s_, total, step_);
    return total;
}

double folder_trainer::mean_loss(const std::vector<int>& ids) const {
    const size_t T = static_cast<size_t>(window_);
    double sum = 0.0;
    size_t n = 0;
    for (size_t at = 0; at + 1 < ids.size(); at += T) {
        const size_t len = std::min(T, ids.size() - 1 - at);
        const std::vector<int> in(ids.begin() + static_cast<std::ptrdiff_t>(at), ids.begin() + static_cast<std::ptrdiff_t>(at + len));
        const std::vector<int> tg(ids.begin() + static_cast<std::ptrdiff_t>(at + 1), ids.begin() + static_cast<std::ptrdiff_t>(at + len + 1));
        sum += loss(in, tg, 1, static_cast<int>(len), nullptr) * static_cast<double>(len);
        n += len;
    }
    return n ? sum / static_cast<double>(n) : 0.0;
}

// ---- [SECTION] the folder ----

std::vector<folder_trainer::tensor> folder_trainer::hf_tensors() const {
    const train_shape& c = shape_;
    const bool g2 = is_gpt2(c);
    const size_t d = static_cast<size_t>(c.d_model), V = static_cast<size_t>(c.vocab_rows);
    std::vector<tensor> out;
    auto slice = [&](size_t off, size_t n) { return std::vector<float>(w_.begin() + static_cast<std::ptrdiff_t>(off), w_.begin() + static_cast<std::ptrdiff_t>(off + n)); };
    auto vec = [&](const std::string& name, size_t off, size_t n) { out.push_back({name, {n}, slice(off, n)}); };
    // nn.Linear stores out × in: the transpose of this trainer's in × out
    auto linear_t = [&](const std::string& name, size_t off, size_t in, size_t o) {
        std::vector<float> t(in * o);
        kern::transpose(t.data(), w_.data() + off, in, o);
        out.push_back({name, {o, in}, std::move(t)});
    };
    std::vector<float> embed(V * d);
    for (size_t id = 0; id < V; ++id)
        std::memcpy(embed.data() + id * d, w_.data() + embed_ + static_cast<size_t>(row_of_[id]) * d, d * sizeof(float));
    const size_t dh = head_dim(c), f = static_cast<size_t>(c.d_mlp), hq = static_cast<size_t>(c.n_head) * dh,
                 hk = static_cast<size_t>(c.n_kv_head) * dh;
    if (g2) {
        out.push_back({"wte.weight", {V, d}, std::move(embed)});
        out.push_back({"wpe.weight", {static_cast<size_t>(c.n_ctx), d}, slice(wpe_, static_cast<size_t>(c.n_ctx) * d)});
    } else out.push_back({"model.embed_tokens.weight", {V, d}, std::move(embed)});
    for (size_t l = 0; l < layers_.size(); ++l) {
        const layer_at& L = layers_[l];
        if (g2) {
            const std::string p = "h." + std::to_string(l) + ".";
            vec(p + "ln_1.weight", L.n1w, d);
            vec(p + "ln_1.bias", L.n1b, d);
            std::vector<float> qkv(d * 3 * d), bias(3 * d);  // Conv1D: in × out, q | k | v side by side
            for (size_t i = 0; i < d; ++i)
                for (size_t part = 0; part < 3; ++part)
                    std::memcpy(qkv.data() + i * 3 * d + part * d, w_.data() + (part == 0 ? L.wq : part == 1 ? L.wk : L.wv) + i * d, d * sizeof(float));
            for (size_t part = 0; part < 3; ++part)
                std::memcpy(bias.data() + part * d, w_.data() + (part == 0 ? L.bq : part == 1 ? L.bk : L.bv), d * sizeof(float));
            out.push_back({p + "attn.c_attn.weight", {d, 3 * d}, std::move(qkv)});
            out.push_back({p + "attn.c_attn.bias", {3 * d}, std::move(bias)});
            out.push_back({p + "attn.c_proj.weight", {d, d}, slice(L.wo, d * d)});
            vec(p + "attn.c_proj.bias", L.bo, d);
            vec(p + "ln_2.weight", L.n2w, d);
            vec(p + "ln_2.bias", L.n2b, d);
            out.push_back({p + "mlp.c_fc.weight", {d, f}, slice(L.w1, d * f)});
            vec(p + "mlp.c_fc.bias", L.b1, f);
            out.push_back({p + "mlp.c_proj.weight", {f, d}, slice(L.w2, f * d)});
            vec(p + "mlp.c_proj.bias", L.b2, d);
        } else {
            const std::string p = "model.layers." + std::to_string(l) + ".";
            vec(p + "input_layernorm.weight", L.n1w, d);
            linear_t(p + "self_attn.q_proj.weight", L.wq, d, hq);
            if (L.bq != layer_at::none) vec(p + "self_attn.q_proj.bias", L.bq, hq);
            linear_t(p + "self_attn.k_proj.weight", L.wk, d, hk);
            if (L.bk != layer_at::none) vec(p + "self_attn.k_proj.bias", L.bk, hk);
            linear_t(p + "self_attn.v_proj.weight", L.wv, d, hk);
            if (L.bv != layer_at::none) vec(p + "self_attn.v_proj.bias", L.bv, hk);
            linear_t(p + "self_attn.o_proj.weight", L.wo, hq, d);
            vec(p + "post_attention_layernorm.weight", L.n2w, d);
            linear_t(p + "mlp.gate_proj.weight", L.w1, d, f);
            linear_t(p + "mlp.up_proj.weight", L.w3, d, f);
            linear_t(p + "mlp.down_proj.weight", L.w2, f, d);
        }
    }
    vec(g2 ? "ln_f.weight" : "model.norm.weight", normf_w_, d);
    if (g2) vec("ln_f.bias", normf_b_, d);
    return out;
}

json folder_trainer::config_json(dtype t) const {
    const train_shape& c = shape_;
    const char* torch_dtype = t == dtype::f32 ? "float32" : t == dtype::f16 ? "float16" : "bfloat16";
    if (is_gpt2(c))
        return {{"activation_function", "gelu_new"}, {"architectures", {"GPT2LMHeadModel"}}, {"layer_norm_epsilon", c.eps},
                {"model_type", "gpt2"}, {"n_ctx", c.n_ctx}, {"n_embd", c.d_model}, {"n_head", c.n_head},
                {"n_inner", c.d_mlp == 4 * c.d_model ? json(nullptr) : json(c.d_mlp)},
                {"n_layer", c.n_layer}, {"n_positions", c.n_ctx}, {"scale_attn_by_inverse_layer_idx", false},
                {"scale_attn_weights", true}, {"tie_word_embeddings", true}, {"torch_dtype", torch_dtype},
                {"vocab_size", c.vocab_rows}};
    const bool qwen = c.arch == architecture::qwen2;
    json j = {{"architectures", {qwen ? "Qwen2ForCausalLM" : "LlamaForCausalLM"}}, {"hidden_act", "silu"},
              {"hidden_size", c.d_model}, {"intermediate_size", c.d_mlp}, {"max_position_embeddings", c.n_ctx},
              {"model_type", qwen ? "qwen2" : "llama"}, {"num_attention_heads", c.n_head},
              {"num_hidden_layers", c.n_layer}, {"num_key_value_heads", c.n_kv_head}, {"rms_norm_eps", c.eps},
              {"rope_scaling", nullptr}, {"rope_theta", c.rope_theta}, {"tie_word_embeddings", true},
              {"torch_dtype", torch_dtype}, {"vocab_size", c.vocab_rows}};
    if (qwen) j["use_sliding_window"] = false;
    else {
        j["attention_bias"] = false;
        j["head_dim"] = c.d_model / c.n_head;
        j["mlp_bias"] = false;
    }
    return j;
}

namespace {

std::uint16_t float_to_bf16(float x) {  // round to nearest, ties to even (finite values: the trainer refuses others)
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

}  // namespace

void write_trained_folder(const std::string& dir, const folder_trainer& tr, dtype t, const std::string& tokenizer_dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw spec_error("cannot make the folder \"" + user_text(dir) + "\".");
    const std::vector<folder_trainer::tensor> tensors = tr.hf_tensors();
    const size_t width = t == dtype::f32 ? 4 : 2;
    json header = {{"__metadata__", {{"format", "pt"}}}};
    size_t at = 0;
    for (const auto& x : tensors) {
        header[x.name] = {{"dtype", dtype_name(t)}, {"shape", x.shape}, {"data_offsets", {at, at + x.data.size() * width}}};
        at += x.data.size() * width;
    }
    std::string text = header.dump();
    while (text.size() % 8 != 0) text += ' ';  // the data starts 8-byte aligned, as safetensors writes it
    std::ofstream out(fs::path(dir) / "model.safetensors", std::ios::binary);
    const std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out.put(static_cast<char>(n >> (8 * i)));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    std::vector<std::uint8_t> bytes;
    for (const auto& x : tensors) {
        bytes.resize(x.data.size() * width);
        for (size_t i = 0; i < x.data.size(); ++i) {
            if (t == dtype::f32) std::memcpy(bytes.data() + 4 * i, &x.data[i], 4);
            else {
                const std::uint16_t v = t == dtype::f16 ? io::float_to_half(x.data[i]) : float_to_bf16(x.data[i]);
                std::memcpy(bytes.data() + 2 * i, &v, 2);
            }
        }
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    std::ofstream cfg(fs::path(dir) / "config.json");
    cfg << tr.config_json(t).dump(2) << '\n';
    if (!out || !cfg) throw spec_error("cannot write the model into \"" + user_text(dir) + "\".");
    for (const char* name : {"tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt"})
        if (fs::exists(fs::path(tokenizer_dir) / name)) {
            fs::copy_file(fs::path(tokenizer_dir) / name, fs::path(dir) / name, fs::copy_options::overwrite_existing, ec);
            if (ec) throw spec_error("cannot copy " + std::string(name) + " into \"" + user_text(dir) + "\".");
        }
}

}  // namespace attn::hf
