// compute_trace(): the whole forward pass, stage by stage, as the articles lay it out.
#include "attn/trace.hpp"

#include <algorithm>
#include <cmath>

#include <xtensor/xview.hpp>

#include "ops/ops.hpp"
#include "sequence/forward_pass.hpp"
#include "kernels/simd4.hpp"
#include "attn/mask.hpp"
#include "attn/multi_head.hpp"
#include "attn/online_softmax.hpp"
#include "attn/positional.hpp"
#include "attn/projection.hpp"
#include "attn/score.hpp"
#include "attn/softmax.hpp"
#include "attn/weighted_sum.hpp"

namespace attn {
namespace {

template <class T>
stage_view view_of(stage_id id, const T& t) {
    return {id, std::vector<std::size_t>(t.shape().begin(), t.shape().end()), t.data(), t.size()};
}

/// Each head's rows turned by their positions 0, 1, … (DESIGN.md's rotary convention, ops::rope).
tensor3 rotate(const tensor3& t, float theta) {
    tensor3 out(t.shape());
    ops::rope(out.data(), t.data(), t.shape(0), t.shape(1), t.shape(2), 0, theta);
    return out;
}

/// The key/value heads repeated for the query heads that share them: (kv_heads, n, d_h) → (heads, n, d_h).
tensor3 widen_heads(const tensor3& t, const spec& s) {
    const std::size_t heads = static_cast<std::size_t>(s.heads), n = t.shape(1), dh = t.shape(2);
    tensor3 out({heads, n, dh});
    for (std::size_t h = 0; h < heads; ++h)
        std::copy_n(t.data() + s.kv_head_of(h) * n * dh, n * dh, out.data() + h * n * dh);
    return out;
}

/// x + the first n rows of the positional table (n = x's rows).
matrix add_rows(const matrix& x, const matrix& pe) {
    return x + xt::view(pe, xt::range(0, x.shape(0)), xt::all());
}

}  // namespace

trace compute_trace(const spec& s, const kernel_set& kernels) {
    validate(s);
    trace t = forward_pass(s, kernels);
    // finite inputs can still overflow float in a product; refuse rather than draw inf or NaN.
    // The stages are raw views here: one vector pass each, no temporary.
    for (const stage_view& v : t.stages())
        if (!simd::all_finite(v.data, v.size))
            throw spec_error(std::string("stage ") + stage_name(v.id) +
                             " overflowed the float range: the inputs or weights are too large.");
    return t;
}

trace forward_pass(spec spec_in, const kernel_set& kernels) {
    trace t;
    t.spec = std::move(spec_in);
    const spec& s = t.spec;
    const std::size_t heads = static_cast<std::size_t>(s.heads);

    // pass 1: positional encoding, added to x and to memory (one table covers both)
    t.x = s.x;
    if (s.memory) t.memory = *s.memory;
    if (s.adds_positions()) {
        const std::size_t n = std::max(s.n_q(), s.n_k());
        t.pe = s.positional == positional_kind::sinusoidal ? sinusoidal_encoding(n, s.d_model())
                                                           : learned_encoding(s.learned, n);
        t.x = add_rows(s.x, *t.pe);
        if (t.memory) t.memory = add_rows(*t.memory, *t.pe);
    }

    // pass 2: Q = X·W_q + b_q; K and V from memory in cross-attention, from X otherwise
    const matrix& kv_in = t.memory ? *t.memory : t.x;
    t.q = split_heads(project(t.x, s.wq, kernels), heads);
    t.k = split_heads(project(kv_in, s.wk, kernels), s.kv_head_count());
    t.v = split_heads(project(kv_in, s.wv, kernels), s.kv_head_count());

    // pass 2b: rotary positions turn each head's queries and keys by their positions (ops::rope, the same
    // rotation as the model folders' Llama and Qwen2)
    if (s.positional == positional_kind::rotary) {
        t.q_rot = rotate(t.q, s.rope_theta);
        t.k_rot = rotate(t.k, s.rope_theta);
    }
    // every query head's keys and values: its shared key/value head's (a copy only when heads are shared)
    const tensor3& k_in = t.k_rot ? *t.k_rot : t.k;
    std::optional<tensor3> k_wide, v_wide;
    if (s.kv_head_count() < heads) k_wide = widen_heads(k_in, s), v_wide = widen_heads(t.v, s);
    const tensor3& keys = k_wide ? *k_wide : k_in;
    const tensor3& values = v_wide ? *v_wide : t.v;

    // pass 3: scores, scaling, mask
    t.scores = score(s, t.q_rot ? *t.q_rot : t.q, keys, kernels);
    if (s.score == score_kind::scaled_dot) t.scaled = scale(t.scores, s.d_head());
    const tensor3& before_mask = t.scaled ? *t.scaled : t.scores;
    if (s.mask != mask_kind::none) {
        t.mask = mask_keep(s);
        t.masked = apply_mask(before_mask, *t.mask, s.mask_value);
        t.empty_rows = rows_without_keys(*t.mask);
    }

    // pass 4: softmax in its visible sub-steps; a masked key never wins (see softmax_input)
    std::optional<tensor3> hidden;
    if (t.masked) hidden = softmax_input(*t.masked, *t.mask, t.empty_rows);
    const tensor3& softmax_in = hidden ? *hidden : before_mask;
    softmax_steps sm = softmax(softmax_in, kernels);
    t.row_max = std::move(sm.row_max);
    t.exp = std::move(sm.exp);
    t.row_sum = std::move(sm.row_sum);
    t.weights = std::move(sm.weights);

    // pass 5: weighted sum, merge heads, output projection
    t.context = weighted_sum(t.weights, values, kernels);
    if (s.online_block > 0) {  // the same α·V, a tile of keys at a time (the online-softmax example)
        online_steps o = online_softmax(softmax_in, values, std::size_t(s.online_block), s.mask_value);
        t.online_max = std::move(o.max);
        t.online_rescale = std::move(o.rescale);
        t.online_sum = std::move(o.sum);
        t.online_acc = std::move(o.acc);
        t.online_output = std::move(o.output);
    }
    t.concat = merge_heads(t.context);
    if (s.wo.w) t.output = project(t.concat, s.wo, kernels);
    return t;
}

std::vector<stage_view> trace::stages() const {
    std::vector<stage_view> out;
    if (pe) out.push_back(view_of(stage_id::pe, *pe));
    out.push_back(view_of(stage_id::x, x));
    if (memory) out.push_back(view_of(stage_id::memory, *memory));
    out.push_back(view_of(stage_id::q, q));
    out.push_back(view_of(stage_id::k, k));
    out.push_back(view_of(stage_id::v, v));
    if (q_rot) out.push_back(view_of(stage_id::q_rot, *q_rot));
    if (k_rot) out.push_back(view_of(stage_id::k_rot, *k_rot));
    out.push_back(view_of(stage_id::scores, scores));
    if (scaled) out.push_back(view_of(stage_id::scaled, *scaled));
    if (masked) out.push_back(view_of(stage_id::masked, *masked));
    out.push_back(view_of(stage_id::row_max, row_max));
    out.push_back(view_of(stage_id::exp, exp));
    out.push_back(view_of(stage_id::row_sum, row_sum));
    out.push_back(view_of(stage_id::weights, weights));
    out.push_back(view_of(stage_id::context, context));
    if (online_max) {
        out.push_back(view_of(stage_id::online_max, *online_max));
        out.push_back(view_of(stage_id::online_rescale, *online_rescale));
        out.push_back(view_of(stage_id::online_sum, *online_sum));
        out.push_back(view_of(stage_id::online_acc, *online_acc));
        out.push_back(view_of(stage_id::online_output, *online_output));
    }
    out.push_back(view_of(stage_id::concat, concat));
    if (output) out.push_back(view_of(stage_id::output, *output));
    return out;
}

std::size_t trace::bytes() const {
    std::size_t total = 0;
    for (const stage_view& v : stages()) total += v.size * sizeof(float);
    return total;
}

std::optional<stage_view> trace::stage(stage_id id) const {
    for (const stage_view& v : stages())
        if (v.id == id) return v;
    return std::nullopt;
}

}  // namespace attn
