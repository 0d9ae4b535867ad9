// compute_grad(): the backward pass, stage by stage in reverse trace order. Each stage's adjoint
// (dL/d(stage)) is written where the trace keeps the stage itself, so the page can show the two side
// by side. The products run on the kernel set (SIMD, or the scalar twins); the softmax and the
// score functions' backward steps are plain loops over small per-row sums.
//
// [SECTION] products and sums · the loss · each stage's backward step · the backward pass
#include "attn/grad.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <optional>

#include "attn/mask.hpp"
#include "sequence/forward_pass.hpp"
#include "kernels/simd4.hpp"
#include "attn/multi_head.hpp"

namespace attn {
namespace {

// ---- [SECTION] products and sums ----

/// out (k, n) = a (m, k)ᵀ · b (m, n), through the kernels' matmul on a transposed copy of a.
matrix matmul_at(const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n, const kernel_set& ks) {
    matrix at = matrix::from_shape({k, m});
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t c = 0; c < k; ++c) at(c, i) = a[i * k + c];
    matrix out = matrix::from_shape({k, n});
    ks.matmul(out.data(), at.data(), b, k, m, n);
    return out;
}

/// out (m, n) = a (m, k) · b (n, k)ᵀ.
matrix matmul_bt(const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n, const kernel_set& ks) {
    matrix out = matrix::from_shape({m, n});
    ks.matmul_bt(out.data(), a, b, m, k, n);
    return out;
}

vector column_sums(const matrix& m) {
    vector out = vector::from_shape({m.shape(1)});
    out.fill(0.0f);
    for (std::size_t i = 0; i < m.shape(0); ++i)
        for (std::size_t c = 0; c < m.shape(1); ++c) out(c) += m(i, c);
    return out;
}

template <class T>
T zeros_like(const T& t) {
    T z = T::from_shape(t.shape());
    z.fill(0.0f);
    return z;
}

/// A trace of the same stages and shapes as t, every value 0: the adjoints start here.
trace zero_adjoint(const trace& t) {
    trace a;  // its spec stays empty: the forward pass's spec is the one (a copy here cost 6% of a training step)
    if (t.pe) a.pe = zeros_like(*t.pe);
    a.x = zeros_like(t.x);
    if (t.memory) a.memory = zeros_like(*t.memory);
    a.q = zeros_like(t.q), a.k = zeros_like(t.k), a.v = zeros_like(t.v);
    a.scores = zeros_like(t.scores);
    if (t.scaled) a.scaled = zeros_like(*t.scaled);
    if (t.masked) a.masked = zeros_like(*t.masked);
    a.row_max = zeros_like(t.row_max), a.exp = zeros_like(t.exp), a.row_sum = zeros_like(t.row_sum);
    a.weights = zeros_like(t.weights), a.context = zeros_like(t.context);
    for (auto [from, to] : {std::pair{&t.online_max, &a.online_max}, {&t.online_rescale, &a.online_rescale},
                            {&t.online_sum, &a.online_sum}, {&t.online_acc, &a.online_acc}, {&t.online_output, &a.online_output}})
        if (*from) *to = zeros_like(**from);
    a.concat = zeros_like(t.concat);
    if (t.output) a.output = zeros_like(*t.output);
    a.mask = t.mask;
    a.empty_rows = t.empty_rows;
    return a;
}

// ---- [SECTION] the loss ----

/// The loss of y (n_q, d_out) and dL/dy.
float loss_and_gradient(const matrix& y, const loss_spec& l, matrix& dy) {
    const std::size_t n = y.shape(0), d = y.shape(1);
    dy = matrix::from_shape({n, d});
    double total = 0;
    if (l.loss == loss_spec::kind::upstream) {  // the linear stand-in Σ g ⊙ y: its gradient is g itself
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < d; ++c) {
                total += double(l.target(i, c)) * y(i, c);
                dy(i, c) = l.target(i, c);
            }
        return float(total);
    }
    if (l.loss == loss_spec::kind::mse) {
        const float scale = 2.0f / float(n * d);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < d; ++c) {
                const float diff = y(i, c) - l.target(i, c);
                total += double(diff) * diff;
                dy(i, c) = scale * diff;
            }
        return float(total / double(n * d));
    }
    for (std::size_t i = 0; i < n; ++i) {  // cross-entropy: softmax of the row, −log of the label's share
        float top = y(i, 0);
        for (std::size_t c = 1; c < d; ++c) top = std::max(top, y(i, c));
        double sum = 0;
        for (std::size_t c = 0; c < d; ++c) sum += std::exp(double(y(i, c) - top));
        total += std::log(sum) - double(y(i, l.labels[i]) - top);
        for (std::size_t c = 0; c < d; ++c)
            dy(i, c) = float((std::exp(double(y(i, c) - top)) / sum - (c == l.labels[i] ? 1.0 : 0.0)) / double(n));
    }
    return float(total / double(n));
}

// ---- [SECTION] each stage's backward step ----

/// dL/dX and the parameter gradients of y = X·W + b, given dL/dy; an absent W is the identity.
matrix projection_backward(const matrix& in, const projection& p, const matrix& dy, projection& grad, const kernel_set& ks) {
    const std::size_t n = in.shape(0), d = in.shape(1), d_out = dy.shape(1);
    if (p.b) grad.b = column_sums(dy);
    if (!p.w) return dy;
    grad.w = matmul_at(in.data(), dy.data(), n, d, d_out, ks);
    return matmul_bt(dy.data(), p.w->data(), n, d_out, d, ks);  // dy · Wᵀ (W is d × d_out, read as rows of Wᵀ)
}

/// The scores' backward for head h: adds dL/dq and dL/dk of this head and the score parameters' gradients.
void scores_backward(const spec& s, const trace& t, std::size_t h, const matrix& de, matrix& dq, matrix& dk,
                     param_grads& g, const kernel_set& ks) {
    const std::size_t n_q = t.q.shape(1), n_k = t.k.shape(1), dh = t.q.shape(2);
    const float* q = &t.q(h, 0, 0);
    const float* k = &t.k(h, 0, 0);
    switch (s.score) {
        case score_kind::dot:
        case score_kind::scaled_dot: {
            ks.matmul(dq.data(), de.data(), k, n_q, n_k, dh);   // dq = de · k
            dk = matmul_at(de.data(), q, n_q, n_k, dh, ks);     // dk = deᵀ · q
            return;
        }
        case score_kind::bilinear: {
            const matrix& w = *s.bilinear;
            matrix a = matrix::from_shape({n_q, dh});          // a = q · W
            ks.matmul(a.data(), q, w.data(), n_q, dh, dh);
            matrix da = matrix::from_shape({n_q, dh});         // da = de · k
            ks.matmul(da.data(), de.data(), k, n_q, n_k, dh);
            dq = matmul_bt(da.data(), w.data(), n_q, dh, dh, ks);  // dq = da · Wᵀ
            dk = matmul_at(de.data(), a.data(), n_q, n_k, dh, ks); // dk = deᵀ · a
            *g.bilinear += matmul_at(q, da.data(), n_q, dh, dh, ks);  // dW = qᵀ · da
            return;
        }
        case score_kind::additive: {
            const matrix &w1 = *s.additive.w1, &w2 = *s.additive.w2;
            const vector& v = *s.additive.v;
            const std::size_t da = v.size();
            matrix u = matrix::from_shape({n_q, da}), w = matrix::from_shape({n_k, da});
            ks.matmul(u.data(), q, w1.data(), n_q, dh, da);
            ks.matmul(w.data(), k, w2.data(), n_k, dh, da);
            matrix du = zeros_like(u), dw = zeros_like(w);
            for (std::size_t i = 0; i < n_q; ++i)
                for (std::size_t j = 0; j < n_k; ++j) {
                    const float e = de(i, j);
                    if (e == 0.0f) continue;
                    for (std::size_t a = 0; a < da; ++a) {
                        const float th = std::tanh(u(i, a) + w(j, a));
                        const float back = e * v(a) * (1.0f - th * th);
                        du(i, a) += back;
                        dw(j, a) += back;
                        (*g.additive.v)(a) += e * th;
                    }
                }
            dq = matmul_bt(du.data(), w1.data(), n_q, da, dh, ks);  // du · W1ᵀ
            dk = matmul_bt(dw.data(), w2.data(), n_k, da, dh, ks);  // dw · W2ᵀ
            *g.additive.w1 += matmul_at(q, du.data(), n_q, dh, da, ks);
            *g.additive.w2 += matmul_at(k, dw.data(), n_k, dh, da, ks);
            return;
        }
    }
}

/// The softmax sub-steps backward for one row: from dL/dα to dL/d(exp, row_sum, row_max) and to
/// dL/d(softmax input). in is the softmax input row; a key it hides (−∞) has exp 0 and gets 0.
void softmax_row_backward(const float* alpha_grad, const float* exp, float row_sum, const float* in, std::size_t n_k,
                          float* dexp, float& dsum, float& dmax, float* din) {
    double s = 0;
    for (std::size_t j = 0; j < n_k; ++j) s += double(alpha_grad[j]) * exp[j];
    dsum = float(-s / (double(row_sum) * row_sum));  // α = exp / s: through s
    double m = 0;
    for (std::size_t j = 0; j < n_k; ++j) {
        dexp[j] = alpha_grad[j] / row_sum + dsum;
        m -= double(dexp[j]) * exp[j];               // exp = e^(in − max): through max
    }
    dmax = float(m);
    std::size_t arg = 0;  // the max's gradient goes to the (first) largest input
    for (std::size_t j = 1; j < n_k; ++j)
        if (in[j] > in[arg]) arg = j;
    for (std::size_t j = 0; j < n_k; ++j) din[j] = dexp[j] * exp[j] + (j == arg ? dmax : 0.0f);
}

}  // namespace

// ---- [SECTION] the backward pass ----

void check_differentiable(const spec& s) {
    if (s.positional == positional_kind::rotary)
        throw spec_error("positional is rotary, whose backward pass the core does not have yet: gradients and training need "
                         "\"none\", \"sinusoidal\" or a learned table.");
    if (s.kv_head_count() < static_cast<std::size_t>(s.heads))
        throw spec_error("kv_heads is " + std::to_string(s.kv_heads) + ", fewer than heads, and the core's backward pass has no "
                         "shared key/value heads yet: leave kv_heads out for gradients and training.");
}

grad_result compute_grad(const spec& s, const loss_spec& l, const kernel_set& ks) {
    validate(s, grad_budget);  // before any work: the backward pass holds many times the trace
    check_differentiable(s);
    grad_result r = backward_pass(compute_trace(s, ks), l, ks);
    // a target of 3e38 gives a finite forward pass and an infinite loss: refuse rather than answer null
    if (!std::isfinite(r.loss))
        throw spec_error(l.loss == loss_spec::kind::upstream
                             ? "the loss Σ upstream ⊙ y overflowed the float range: upstream or the outputs are too large."
                             : "the loss overflowed the float range: the target or the outputs are too large.");
    bool finite = true;
    const auto check = [&](const auto& t) { finite = finite && simd::all_finite(t.data(), t.size()); };
    for (const stage_view& v : r.adjoint.stages()) finite = finite && simd::all_finite(v.data, v.size);
    check(r.grads.x);
    if (r.grads.memory) check(*r.grads.memory);
    for (const projection* p : {&r.grads.wq, &r.grads.wk, &r.grads.wv, &r.grads.wo}) {
        if (p->w) check(*p->w);
        if (p->b) check(*p->b);
    }
    for (const auto* m : {&r.grads.additive.w1, &r.grads.additive.w2, &r.grads.bilinear, &r.grads.learned})
        if (*m) check(**m);
    if (r.grads.additive.v) check(*r.grads.additive.v);
    if (!finite)
        throw spec_error(std::string("a gradient overflowed the float range: the inputs, weights or ") +
                         (l.loss == loss_spec::kind::upstream ? "upstream" : "target") + " are too large.");
    return r;
}

grad_result backward_pass(trace forward, const loss_spec& l, const kernel_set& ks) {
    grad_result r;
    r.trace = std::move(forward);
    const trace& t = r.trace;
    const spec& s = t.spec;
    trace& a = r.adjoint = zero_adjoint(t);
    param_grads& g = r.grads;
    const std::size_t heads = std::size_t(s.heads), n_q = s.n_q(), n_k = s.n_k(), dh = s.d_head();

    // the loss on the last stage
    const matrix& y = t.output ? *t.output : t.concat;
    matrix dy;
    r.loss = loss_and_gradient(y, l, dy);

    // output = concat·W_o + b_o; concat merges the heads' contexts
    if (t.output) {
        *a.output = dy;
        a.concat = projection_backward(t.concat, s.wo, dy, g.wo, ks);
    } else {
        a.concat = dy;
    }
    a.context = split_heads(a.concat, heads);

    // per head: context = α·V, the softmax sub-steps, mask, scaling, scores
    // the rows the softmax read: with a mask, hidden keys are −∞ there (softmax_input), as compute_trace has it
    const tensor3& softmax_stage = t.masked ? *t.masked : t.scaled ? *t.scaled : t.scores;
    std::optional<tensor3> hidden;
    if (t.masked) hidden = softmax_input(*t.masked, *t.mask, t.empty_rows);
    const tensor3& softmax_in = hidden ? *hidden : softmax_stage;
    tensor3* softmax_in_adjoint = a.masked ? &*a.masked : a.scaled ? &*a.scaled : &a.scores;
    if (s.score == score_kind::bilinear) g.bilinear = zeros_like(*s.bilinear);
    if (s.score == score_kind::additive) {
        g.additive.w1 = zeros_like(*s.additive.w1), g.additive.w2 = zeros_like(*s.additive.w2);
        g.additive.v = zeros_like(*s.additive.v);
    }
    for (std::size_t h = 0; h < heads; ++h) {
        const float* dc = &a.context(h, 0, 0);
        ks.matmul_bt(&a.weights(h, 0, 0), dc, &t.v(h, 0, 0), n_q, dh, n_k);            // dα = dC · Vᵀ
        const matrix dv = matmul_at(&t.weights(h, 0, 0), dc, n_q, n_k, dh, ks);       // dV = αᵀ · dC
        std::copy(dv.begin(), dv.end(), &a.v(h, 0, 0));
        for (std::size_t i = 0; i < n_q; ++i)
            softmax_row_backward(&a.weights(h, i, 0), &t.exp(h, i, 0), t.row_sum(h, i, 0), &softmax_in(h, i, 0), n_k,
                                 &a.exp(h, i, 0), a.row_sum(h, i, 0), a.row_max(h, i, 0), &(*softmax_in_adjoint)(h, i, 0));
        matrix de = matrix::from_shape({n_q, n_k});  // dL/d(scores) of this head
        for (std::size_t i = 0; i < n_q; ++i)
            for (std::size_t j = 0; j < n_k; ++j) {
                float d = (*softmax_in_adjoint)(h, i, j);
                if (t.mask && !(*t.mask)(i, j)) d = 0.0f;  // a masked score is replaced by mask_value: no gradient
                if (t.scaled) {
                    if (t.masked) (*a.scaled)(h, i, j) = d;
                    d /= std::sqrt(float(dh));
                }
                a.scores(h, i, j) = d;
                de(i, j) = d;
            }
        matrix dq = matrix::from_shape({n_q, dh}), dk = matrix::from_shape({n_k, dh});
        scores_backward(s, t, h, de, dq, dk, g, ks);
        std::copy(dq.begin(), dq.end(), &a.q(h, 0, 0));
        std::copy(dk.begin(), dk.end(), &a.k(h, 0, 0));
    }
    const matrix dq_all = merge_heads(a.q), dk_all = merge_heads(a.k), dv_all = merge_heads(a.v);

    // projections: Q from x; K and V from memory (cross-attention) or from x
    a.x = projection_backward(t.x, s.wq, dq_all, g.wq, ks);
    const matrix& kv_in = t.memory ? *t.memory : t.x;
    matrix d_kv = projection_backward(kv_in, s.wk, dk_all, g.wk, ks);
    d_kv += projection_backward(kv_in, s.wv, dv_all, g.wv, ks);
    if (t.memory) a.memory = d_kv;
    else a.x += d_kv;

    // inputs: x and memory had the positional encoding added, which passes the gradient through
    g.x = a.x;
    if (t.memory) g.memory = *a.memory;
    if (t.pe) {
        for (std::size_t i = 0; i < n_q; ++i)
            for (std::size_t c = 0; c < s.d_model(); ++c) (*a.pe)(i, c) += a.x(i, c);
        if (a.memory)
            for (std::size_t i = 0; i < n_k; ++i)
                for (std::size_t c = 0; c < s.d_model(); ++c) (*a.pe)(i, c) += (*a.memory)(i, c);
        if (s.positional == positional_kind::learned) {
            g.learned = zeros_like(s.learned);
            for (std::size_t i = 0; i < a.pe->shape(0); ++i)
                for (std::size_t c = 0; c < s.d_model(); ++c) (*g.learned)(i, c) = (*a.pe)(i, c);
        }
    }
    return r;
}

}  // namespace attn
