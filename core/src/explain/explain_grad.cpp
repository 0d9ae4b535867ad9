// explain_grad_cell(): the arithmetic of one cell of dL/d(stage), with the forward pass's and the
// backward pass's own numbers, the chain rule written out the way explain_cell writes the forward
// stages. The page shows it beside the forward sentence when training is paused.
#include <cmath>
#include <string>
#include <vector>

#include "attn/grad.hpp"
#include "explain/explain_writer.hpp"

namespace attn {
namespace {

using namespace explain_detail;

/// The forward trace (t), its adjoint (a: dL/d(stage) in the stage's shape) and the sentence writer.
struct chain {
    const grad_result& g;
    const loss_spec& loss;
    const writer& f;
    const trace& t = g.trace;
    const trace& a = g.adjoint;
    const spec& s = g.trace.spec;

    std::string d(const std::string& name) const { return "∂L/∂" + name; }
    /// The stage the softmax read: masked, else scaled, else the scores.
    stage_id softmax_in() const { return t.masked ? stage_id::masked : t.scaled ? stage_id::scaled : stage_id::scores; }
    bool hidden(std::size_t i, std::size_t j) const { return t.mask && !(*t.mask)(i, j); }

    /// "Σ_k ∂L/∂y[i][k]·W[j][k]": the gradient through a projection y = x·W, back to x's column j.
    std::string through(const char* y, const char* w_name, const matrix& w, const stage_at& dy, std::size_t i, std::size_t j,
                        std::vector<std::pair<float, float>>& pairs, bool merged_heads) const {
        for (std::size_t k = 0; k < w.shape(1); ++k) pairs.emplace_back(merged_heads ? merged(dy, i, k) : dy(0, i, k), w(j, k));
        return "Σₖ " + d(std::string(y) + "[" + n1(i) + "][k]") + "·" + w_name + "[" + n1(j) + "][k]";
    }

    std::string last_stage(stage_id id, std::size_t i, std::size_t j, float result) const {
        const stage_at y = of(t, id);
        const std::string at = "[" + n1(i) + "][" + n1(j) + "]";
        const std::string name = d(std::string(id == stage_id::output ? "output" : "concat") + at);
        if (loss.loss == loss_spec::kind::upstream)  // given: the gradient the later loss sends back
            return name + " = upstream" + at + " = " + f.num(result);
        if (loss.loss == loss_spec::kind::mse) {
            const std::size_t count = y.rows * y.cols;
            return name + " = 2·(y" + at + " − target" + at + ") ÷ " + std::to_string(count) + " = 2×(" + f.num(y(0, i, j)) + " − " +
                   f.num(loss.target(i, j)) + ") ÷ " + std::to_string(count) + " = " + f.num(result);
        }
        double top = y(0, i, 0), sum = 0;
        for (std::size_t c = 1; c < y.cols; ++c) top = std::max(top, double(y(0, i, c)));
        for (std::size_t c = 0; c < y.cols; ++c) sum += std::exp(double(y(0, i, c)) - top);
        const float p = float(std::exp(double(y(0, i, j)) - top) / sum);
        const bool label = loss.labels[i] == j;
        return name + " = (softmax(y" + sub(i + 1) + ")[" + n1(j) + "] − " + (label ? "1: column " + n1(j) + " is the label" : "0") +
               ") ÷ " + std::to_string(y.rows) + " = (" + f.num(p) + " − " + (label ? "1" : "0") + ") ÷ " + std::to_string(y.rows) +
               " = " + f.num(result);
    }

    /// dL/d(x or memory): every projection that read it, back through its weights.
    std::string input(stage_id id, std::size_t i, std::size_t j, float result) const {
        const bool memory = id == stage_id::memory;
        const std::string name = d(std::string(memory ? "m" : "x") + "[" + n1(i) + "][" + n1(j) + "]");
        std::vector<std::string> formula;
        std::vector<std::pair<float, float>> pairs;
        std::vector<float> plain;  // the gradient of a projection without W passes straight through
        const bool kv_here = memory || !t.memory;
        for (stage_id p : {stage_id::q, stage_id::k, stage_id::v}) {
            if (p == stage_id::q ? memory : !kv_here) continue;
            const projection& proj = p == stage_id::q ? s.wq : p == stage_id::k ? s.wk : s.wv;
            const char* letter = p == stage_id::q ? "q" : p == stage_id::k ? "k" : "v";
            const stage_at dy = of(a, p);
            if (!proj.w) {
                formula.push_back(d(std::string(letter) + "[" + n1(i) + "][" + n1(j) + "]"));
                plain.push_back(merged(dy, i, j));
                continue;
            }
            const std::string w_name = std::string("W_") + letter;
            formula.push_back(through(letter, w_name.c_str(), *proj.w, dy, i, j, pairs, true));
        }
        std::vector<std::string> values;
        if (!pairs.empty()) values.push_back(f.products(pairs));
        for (float v : plain) values.push_back(f.num(v));
        return name + " = " + f.join(formula, " + ") + " = " + f.join(values, " + ") + " = " + f.num(result);
    }

    /// dL/dq or dL/dk, merged view: column j is head j / d_h's column j % d_h.
    std::string query_or_key(stage_id id, std::size_t i, std::size_t j, float result) const {
        const std::size_t d_h = s.d_head(), h = j / d_h, c = j % d_h;
        const bool q = id == stage_id::q;
        const std::string name = d(std::string(q ? "q" : "k") + "[" + n1(i) + "][" + n1(j) + "]");
        const stage_at de = of(a, stage_id::scores), other = of(t, q ? stage_id::k : stage_id::q);
        const std::size_t n_other = other.rows;
        if (s.score == score_kind::additive)
            return name + " = Σ " + d("e") + "·v[a]·(1 − tanh²(…))·" + (q ? "W1" : "W2") + "[" + n1(c) + "][a] = " + f.num(result);
        std::vector<std::pair<float, float>> pairs;
        std::string partner;
        for (std::size_t k = 0; k < n_other; ++k) {
            const float grad = q ? de(h, i, k) : de(h, k, i);
            float value = other(h, k, c);
            if (s.score == score_kind::bilinear) {  // e = q·W·kᵀ: q meets W·kᵀ, k meets q·W
                value = 0;
                for (std::size_t m = 0; m < d_h; ++m)
                    value += q ? (*s.bilinear)(c, m) * other(h, k, m) : other(h, k, m) * (*s.bilinear)(m, c);
            }
            pairs.emplace_back(grad, value);
        }
        if (s.score == score_kind::bilinear) partner = q ? "(W·kₖᵀ)[" + n1(c) + "]" : "(qₖ·W)[" + n1(c) + "]";
        else partner = std::string(q ? "k" : "q") + "[k][" + n1(c) + "]";
        const std::string de_name = q ? "e[" + n1(i) + "][k]" : "e[k][" + n1(i) + "]";
        return name + " = Σₖ " + d(de_name) + "·" + partner + " = " + f.products(pairs) + " = " + f.num(result);
    }

    std::string explain(stage_id id, std::size_t h, std::size_t i, std::size_t j) const {
        const bool merged_view = id == stage_id::q || id == stage_id::k || id == stage_id::v;
        const stage_at r = of(a, id);
        const std::size_t cols = merged_view ? s.d_model() : r.cols;
        const std::size_t heads = r.v.shape.size() == 3 ? r.v.shape[0] : 1;
        if (i >= r.rows || j >= cols || (!merged_view && h >= heads))
            throw spec_error(std::string("stage ") + stage_name(id) + " has no cell (" + n1(i) + ", " + n1(j) + ").");
        const float result = merged_view ? merged(r, i, j) : r(h, i, j);
        const std::string at = "[" + n1(i) + "][" + n1(j) + "]";
        const std::size_t d_h = s.d_head();
        const bool last = id == (t.output ? stage_id::output : stage_id::concat);
        if (last) return last_stage(id, i, j, result);
        switch (id) {
            case stage_id::pe: {
                const float dx = i < t.x.shape(0) ? a.x(i, j) : 0.0f;
                const float dm = a.memory && i < a.memory->shape(0) ? (*a.memory)(i, j) : 0.0f;
                return d("PE" + at) + " = " + d("x" + at) + (a.memory ? " + " + d("m" + at) : "") + " = " + f.num(dx) +
                       (a.memory ? " + " + f.num(dm) : "") + " = " + f.num(result);
            }
            case stage_id::x:
            case stage_id::memory: return input(id, i, j, result);
            case stage_id::q:
            case stage_id::k: return query_or_key(id, i, j, result);
            case stage_id::v: {
                const stage_at w = of(t, stage_id::weights), dc = of(a, stage_id::context);
                const std::size_t head = j / d_h, c = j % d_h;
                std::vector<std::pair<float, float>> pairs;
                for (std::size_t q = 0; q < w.rows; ++q) pairs.emplace_back(w(head, q, i), dc(head, q, c));
                return d("v" + at) + " = Σᵢ α[i][" + n1(i) + "]·" + d("c[i][" + n1(c) + "]") + " = " + f.products(pairs) + " = " +
                       f.num(result);
            }
            case stage_id::scores:
            case stage_id::scaled:
            case stage_id::masked: {
                const std::string name = d(std::string(id == stage_id::scores ? "e" : stage_name(id)) + at);
                if (id != softmax_in()) {  // between the scores and the softmax's input: the mask, then ÷√d_k
                    if (hidden(i, j)) return name + " = 0: masked (mask" + at + " is 0: the score was replaced by mask_value and does not reach the loss)";
                    const stage_id next = id == stage_id::scores && t.scaled ? stage_id::scaled : stage_id::masked;
                    const float after = of(a, next)(h, i, j);
                    if (next == stage_id::masked) return name + " = " + d("masked" + at) + " (mask" + at + " = 1) = " + f.num(result);
                    return name + " = " + d("scaled" + at) + " ÷ √" + std::to_string(d_h) + " = " + f.num(after) + " ÷ " +
                           f.num(std::sqrt(float(d_h))) + " = " + f.num(result);
                }
                const stage_at in = of(t, id), ex = of(t, stage_id::exp), dex = of(a, stage_id::exp);
                std::size_t arg = 0;
                for (std::size_t c = 1; c < in.cols; ++c)
                    if (in(h, i, c) > in(h, i, arg)) arg = c;
                const bool is_max = arg == j;
                const float dm = of(a, stage_id::row_max)(h, i, 0);
                return name + " = " + d("exp" + at) + "·exp" + at + (is_max ? " + " + d("m" + sub(i + 1)) + " (the row's max)" : "") +
                       " = " + f.num(dex(h, i, j)) + "×" + f.num(ex(h, i, j)) + (is_max ? " + " + f.num(dm) : "") + " = " + f.num(result);
            }
            case stage_id::row_max: {
                const stage_at ex = of(t, stage_id::exp), dex = of(a, stage_id::exp);
                std::vector<std::pair<float, float>> pairs;
                for (std::size_t c = 0; c < ex.cols; ++c) pairs.emplace_back(dex(h, i, c), ex(h, i, c));
                return d("m" + sub(i + 1)) + " = −Σⱼ " + d("exp[" + n1(i) + "][j]") + "·exp[" + n1(i) + "][j] = −(" + f.products(pairs) +
                       ") = " + f.num(result);
            }
            case stage_id::exp: {
                const float dw = of(a, stage_id::weights)(h, i, j), sum = of(t, stage_id::row_sum)(h, i, 0);
                const float ds = of(a, stage_id::row_sum)(h, i, 0);
                return d("exp" + at) + " = " + d("α" + at) + " ÷ s" + sub(i + 1) + " + " + d("s" + sub(i + 1)) + " = " + f.num(dw) + " ÷ " +
                       f.num(sum) + " + " + f.num(ds) + " = " + f.num(result);
            }
            case stage_id::row_sum: {
                const stage_at ex = of(t, stage_id::exp), dw = of(a, stage_id::weights);
                const float sum = of(t, stage_id::row_sum)(h, i, 0);
                std::vector<std::pair<float, float>> pairs;
                for (std::size_t c = 0; c < ex.cols; ++c) pairs.emplace_back(dw(h, i, c), ex(h, i, c));
                return d("s" + sub(i + 1)) + " = −Σⱼ " + d("α[" + n1(i) + "][j]") + "·exp[" + n1(i) + "][j] ÷ s" + sub(i + 1) + "² = −(" +
                       f.products(pairs) + ") ÷ " + f.num(sum) + "² = " + f.num(result);
            }
            case stage_id::weights: {
                const stage_at dc = of(a, stage_id::context), v = of(t, stage_id::v);
                std::vector<std::pair<float, float>> pairs;
                for (std::size_t c = 0; c < d_h; ++c) pairs.emplace_back(dc(h, i, c), v(h, j, c));
                return d("α" + at) + " = Σ_c " + d("c[" + n1(i) + "][c]") + "·v[" + n1(j) + "][c] = " + f.products(pairs) + " = " + f.num(result);
            }
            case stage_id::context:
                return d("c" + at) + " = " + d("concat[" + n1(i) + "][" + n1(h * d_h + j) + "]") + " (head " + n1(h) + ") = " + f.num(result);
            case stage_id::concat: {
                std::vector<std::pair<float, float>> pairs;
                const std::string formula = through("output", "W_o", *s.wo.w, of(a, stage_id::output), i, j, pairs, false);
                return d("concat" + at) + " = " + formula + " = " + f.products(pairs) + " = " + f.num(result);
            }
            case stage_id::online_max:
            case stage_id::online_rescale:
            case stage_id::online_sum:
            case stage_id::online_acc:
            case stage_id::online_output:
                return d(std::string(stage_name(id)) + at) + " = 0: the online softmax is another way to the same context; the loss reads the context";
            case stage_id::q_rot:
            case stage_id::k_rot: break;  // gradients refuse rotary positions (check_differentiable): never traced here
            case stage_id::output: break;  // always the last stage
        }
        return "";
    }
};

}  // namespace

std::string explain_grad_cell(const grad_result& g, const loss_spec& loss, stage_id id, std::size_t head, std::size_t i, std::size_t j,
                              bool detail) {
    const writer f{detail};
    return chain{g, loss, f}.explain(id, stage_info_of(id).per_head ? head : 0, i, j);
}

}  // namespace attn
