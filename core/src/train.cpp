// The trainer: full-batch steps over the data set, gradients from compute_grad, and the update of
// PyTorch's Adam (m, v moments; bias-corrected; eps after the square root) or SGD.
#include "attn/train.hpp"

#include <cmath>

namespace attn {
namespace {

/// The flat values of a named parameter of s (nullptr when the spec does not have it), and their count.
std::pair<float*, std::size_t> values_of(spec& s, const std::string& name) {
    const auto of = [](auto& opt) -> std::pair<float*, std::size_t> {
        if (!opt) return {nullptr, 0};
        return {opt->data(), opt->size()};
    };
    if (name == "wq") return of(s.wq.w);
    if (name == "bq") return of(s.wq.b);
    if (name == "wk") return of(s.wk.w);
    if (name == "bk") return of(s.wk.b);
    if (name == "wv") return of(s.wv.w);
    if (name == "bv") return of(s.wv.b);
    if (name == "wo") return of(s.wo.w);
    if (name == "bo") return of(s.wo.b);
    if (name == "additive.w1") return of(s.additive.w1);
    if (name == "additive.w2") return of(s.additive.w2);
    if (name == "additive.v") return of(s.additive.v);
    if (name == "bilinear") return of(s.bilinear);
    if (name == "learned" && s.positional == positional_kind::learned) return {s.learned.data(), s.learned.size()};
    return {nullptr, 0};
}

/// The same parameter's gradient in g.
const float* gradient_of(const param_grads& g, const std::string& name) {
    const auto of = [](const auto& opt) -> const float* { return opt ? opt->data() : nullptr; };
    if (name == "wq") return of(g.wq.w);
    if (name == "bq") return of(g.wq.b);
    if (name == "wk") return of(g.wk.w);
    if (name == "bk") return of(g.wk.b);
    if (name == "wv") return of(g.wv.w);
    if (name == "bv") return of(g.wv.b);
    if (name == "wo") return of(g.wo.w);
    if (name == "bo") return of(g.wo.b);
    if (name == "additive.w1") return of(g.additive.w1);
    if (name == "additive.w2") return of(g.additive.w2);
    if (name == "additive.v") return of(g.additive.v);
    if (name == "bilinear") return of(g.bilinear);
    if (name == "learned") return of(g.learned);
    return nullptr;
}

/// The spec with one data item's inputs in place of its own.
spec with_inputs(const spec& s, const train_item& item) {
    spec out = s;
    out.x = item.x;
    out.memory = item.memory;
    out.query_tokens.clear(), out.key_tokens.clear();  // the spec's labels are for its own x
    if (out.mask == mask_kind::matrix) out.mask = mask_kind::none;  // its shape was the spec's own n_q × n_k
    return out;
}

}  // namespace

trainer::trainer(attn::spec s, train_spec t) : spec_(std::move(s)), train_(std::move(t)) { bind_slots(); }

void trainer::bind_slots() {
    slots_.clear();
    for (const std::string& name : train_.params) {
        const auto [values, size] = values_of(spec_, name);
        if (!values) throw spec_error("train.params names " + name + " but the spec has no " + name + ": give its starting values.");
        slots_.push_back({values, size, std::vector<float>(size, 0.0f), std::vector<float>(size, 0.0f)});
    }
}

float trainer::loss() const {
    double total = 0;
    for (const train_item& item : train_.data) total += compute_grad(with_inputs(spec_, item), item.loss).loss;
    return float(total / double(train_.data.size()));
}

float trainer::step() {
    const double n = double(train_.data.size());
    std::vector<std::vector<double>> sum(slots_.size());
    for (std::size_t p = 0; p < slots_.size(); ++p) sum[p].assign(slots_[p].size, 0.0);
    double total = 0;
    for (const train_item& item : train_.data) {
        const grad_result r = compute_grad(with_inputs(spec_, item), item.loss);
        total += r.loss;
        for (std::size_t p = 0; p < slots_.size(); ++p) {
            const float* g = gradient_of(r.grads, train_.params[p]);
            for (std::size_t i = 0; i < slots_[p].size; ++i) sum[p][i] += g[i];
        }
    }
    ++done_;
    const optimizer_spec& o = train_.optimizer;
    // the parameters may have been replaced since the last step (the lab edits them): look them up again
    for (std::size_t p = 0; p < slots_.size(); ++p) {
        slot& s = slots_[p];
        s.values = values_of(spec_, train_.params[p]).first;
        for (std::size_t i = 0; i < s.size; ++i) {
            const float g = float(sum[p][i] / n);
            if (o.method == optimizer_spec::kind::sgd) {
                s.values[i] -= o.lr * g;
                continue;
            }
            s.m[i] = o.beta1 * s.m[i] + (1.0f - o.beta1) * g;
            s.v[i] = o.beta2 * s.v[i] + (1.0f - o.beta2) * g * g;
            const float m_hat = s.m[i] / (1.0f - std::pow(o.beta1, float(done_)));
            const float v_hat = s.v[i] / (1.0f - std::pow(o.beta2, float(done_)));
            s.values[i] -= o.lr * m_hat / (std::sqrt(v_hat) + o.eps);
        }
    }
    return float(total / n);
}

}  // namespace attn
