// The forward pass of a model you bring: GPT-2 (LayerNorm, learned positions, GELU MLP) and Llama / Qwen2
// (RMSNorm, rotary positions, grouped-query attention, SwiGLU MLP) over the op library, every intermediate
// reported through the tap under DESIGN.md's stage ids. A trace, a prompt and one generated token are the
// same call: n new tokens at positions cache.length …, their keys and values appended to the cache.
#include <cmath>

#include "attn/spec.hpp"
#include "ops/ops.hpp"

namespace attn::hf {
namespace {

using sizes = std::vector<std::size_t>;

using ops::emitter;

void add_into(float* y, const float* a, const float* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

/// One block's attention: q, k, v, (rotary), the cache, attention and the output projection; returns output.
/// Keys and values are made for all n rows (the cache keeps them); queries, attention and the output for the
/// rows from q_from on (0 but in the last layer of a pass that wants the next token alone).
std::vector<float> attention_block(const model& m, int l, const std::vector<float>& xn, std::size_t n, std::size_t q_from,
                                   kv_cache& cache, const emitter& emit) {
    const config& c = m.c;
    const std::string p = "l" + std::to_string(l) + ".";
    const std::size_t h = static_cast<std::size_t>(c.n_head), g = static_cast<std::size_t>(c.n_kv_head),
                      dh = static_cast<std::size_t>(c.d_head), d = static_cast<std::size_t>(c.d_model);
    const std::size_t pos0 = static_cast<std::size_t>(cache.length);
    const auto bias = [&](const char* name) { return m.w.count(p + name) ? &m.at(p + name) : nullptr; };
    const std::size_t nq = n - q_from;
    std::vector<float> q_rows(nq * h * dh), k_rows(n * g * dh), v_rows(n * g * dh);
    ops::linear(q_rows.data(), xn.data() + q_from * d, m.at(p + "wq"), bias("bq"), nq);
    ops::linear(k_rows.data(), xn.data(), m.at(p + "wk"), bias("bk"), n);
    ops::linear(v_rows.data(), xn.data(), m.at(p + "wv"), bias("bv"), n);
    std::vector<float> q(nq * h * dh), k(n * g * dh), v(n * g * dh);
    ops::split_heads(q.data(), q_rows.data(), nq, h, dh);
    ops::split_heads(k.data(), k_rows.data(), n, g, dh);
    ops::split_heads(v.data(), v_rows.data(), n, g, dh);
    const bool rotary = c.arch != architecture::gpt2;
    std::vector<float> q_rot, k_rot;
    if (rotary) {
        q_rot.resize(q.size());
        k_rot.resize(k.size());
        ops::rope(q_rot.data(), q.data(), h, nq, dh, pos0 + q_from, c.rope_theta);
        ops::rope(k_rot.data(), k.data(), g, n, dh, pos0, c.rope_theta);
    }
    const std::vector<float>& queries = rotary ? q_rot : q;
    // the cache, [position][g][dh]: this pass's keys and values appended
    std::vector<float>& kc = cache.k[static_cast<std::size_t>(l)];
    std::vector<float>& vc = cache.v[static_cast<std::size_t>(l)];
    {
        std::vector<float> rows(n * g * dh);
        ops::merge_heads(rows.data(), (rotary ? k_rot : k).data(), n, g, dh);
        kc.insert(kc.end(), rows.begin(), rows.end());
        ops::merge_heads(rows.data(), v.data(), n, g, dh);
        vc.insert(vc.end(), rows.begin(), rows.end());
    }
    std::vector<float> context(h * nq * dh);
    ops::attention_steps steps;
    ops::attention(context.data(), queries.data(), kc.data(), vc.data(), h, g, nq, pos0 + q_from, dh, emit ? &steps : nullptr);
    // reported in the pass's order once the pass has done with them, so that a trace takes them without a copy
    emit.spare("q", l, {h, n, dh}, q);
    emit.spare("k", l, {g, n, dh}, k);
    emit.spare("v", l, {g, n, dh}, v);
    if (rotary) {
        emit.spare("q_rot", l, {h, n, dh}, q_rot);
        emit.spare("k_rot", l, {g, n, dh}, k_rot);
    }
    if (emit && pos0 > 0) {  // a step after the prompt: the cache it read, keys then values, head by head
        const std::size_t t = pos0 + n;
        std::vector<float> both(2 * g * t * dh);
        ops::split_heads(both.data(), kc.data(), t, g, dh);
        ops::split_heads(both.data() + g * t * dh, vc.data(), t, g, dh);
        emit.spare("kv_cache", l, {2, g, t, dh}, both);
    }
    const std::size_t t = pos0 + n;
    emit.steps(l, h, n, t, steps);
    std::vector<float> concat(nq * h * dh), out(nq * d);
    ops::merge_heads(concat.data(), context.data(), nq, h, dh);
    ops::linear(out.data(), concat.data(), m.at(p + "wo"), bias("bo"), nq);
    emit.spare("context", l, {h, n, dh}, context);
    emit.spare("concat", l, {n, h * dh}, concat);
    emit("output", l, {n, d}, out.data());
    return out;
}

/// One block's MLP on the normed stream: GPT-2's GELU, or Llama's SwiGLU.
std::vector<float> mlp_block(const model& m, int l, const float* xn, std::size_t n, const emitter& emit) {
    const config& c = m.c;
    const std::string p = "l" + std::to_string(l) + ".";
    const std::size_t d = static_cast<std::size_t>(c.d_model), f = static_cast<std::size_t>(c.d_mlp);
    std::vector<float> hidden(n * f), out(n * d);
    // each stage reported in the pass's order once the pass has done with it (a trace then takes it without a copy)
    if (c.arch == architecture::gpt2) {
        ops::linear(hidden.data(), xn, m.at(p + "up"), &m.at(p + "up.b"), n);
        emit("mlp_pre", l, {n, f}, hidden.data());
        ops::gelu_tanh(hidden.data(), hidden.size());
        ops::linear(out.data(), hidden.data(), m.at(p + "down"), &m.at(p + "down.b"), n);
    } else {
        std::vector<float> gate(n * f), up(n * f);
        ops::linear(gate.data(), xn, m.at(p + "gate"), nullptr, n);
        ops::linear(up.data(), xn, m.at(p + "up"), nullptr, n);
        ops::silu_mul(hidden.data(), gate.data(), up.data(), hidden.size());
        ops::linear(out.data(), hidden.data(), m.at(p + "down"), nullptr, n);
        emit.spare("mlp_gate", l, {n, f}, gate);
        emit.spare("mlp_up", l, {n, f}, up);
    }
    emit.spare("mlp_act", l, {n, f}, hidden);
    emit("mlp_out", l, {n, d}, out.data());
    return out;
}

void norm(const model& m, const std::string& name, float* y, const float* x, std::size_t n) {
    const std::size_t d = static_cast<std::size_t>(m.c.d_model);
    if (m.c.arch == architecture::gpt2) ops::layer_norm(y, x, m.at(name + ".w"), m.at(name + ".b"), n, d, m.c.eps);
    else ops::rms_norm(y, x, m.at(name + ".w"), n, d, m.c.eps);
}

}  // namespace

std::vector<float> forward(const model& m, const std::vector<int>& ids, kv_cache& cache, const tap& t) {
    const config& c = m.c;
    const std::size_t n = ids.size(), d = static_cast<std::size_t>(c.d_model), vocab = static_cast<std::size_t>(c.n_vocab);
    if (n == 0) throw spec_error("there is no token to run: give at least one.");
    if (cache.length + static_cast<long long>(n) > c.n_ctx)
        throw spec_error("the model reads at most " + std::to_string(c.n_ctx) + " tokens, and this would be " +
                         std::to_string(cache.length + static_cast<long long>(n)) + ".");
    for (const int id : ids)
        if (id < 0 || static_cast<std::size_t>(id) >= vocab)
            throw spec_error("the token id " + std::to_string(id) + " is not a row of the model's embedding (0 … " + std::to_string(vocab - 1) + ").");
    cache.k.resize(static_cast<std::size_t>(c.n_layer));
    cache.v.resize(static_cast<std::size_t>(c.n_layer));
    const emitter emit{&t};
    const std::size_t pos0 = static_cast<std::size_t>(cache.length);
    // the stream's start: the tokens' embeddings (GPT-2: plus their positions' rows)
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i) m.at("embed").row(static_cast<std::size_t>(ids[i]), x.data() + i * d);
    emit("embed", -1, {n, d}, x.data());
    if (c.arch == architecture::gpt2) {
        std::vector<float> pe(n * d);
        for (std::size_t i = 0; i < n; ++i) m.at("pos").row(pos0 + i, pe.data() + i * d);
        emit("pe", -1, {n, d}, pe.data());
        add_into(x.data(), x.data(), pe.data(), n * d);
        emit("x", -1, {n, d}, x.data());
    }
    const bool gpt2 = c.arch == architecture::gpt2;
    std::vector<float> xn(n * d), mid(n * d);
    for (int l = 0; l < c.n_layer; ++l) {
        const std::string p = "l" + std::to_string(l) + ".";
        // a pass for the next token alone reads the last row of the last layer: that layer's other rows give the
        // cache their keys and values, and nothing after them is computed
        const std::size_t from = !emit && l == c.n_layer - 1 ? n - 1 : 0, rows = n - from;
        norm(m, p + "ln1", xn.data(), x.data(), n);
        emit(gpt2 ? "ln_1" : "rms_1", l, {n, d}, xn.data());
        const std::vector<float> attended = attention_block(m, l, xn, n, from, cache, emit);
        add_into(mid.data() + from * d, x.data() + from * d, attended.data(), rows * d);
        emit("resid_mid", l, {n, d}, mid.data());
        norm(m, p + "ln2", xn.data() + from * d, mid.data() + from * d, rows);
        emit(gpt2 ? "ln_2" : "rms_2", l, {n, d}, xn.data());
        const std::vector<float> mlp = mlp_block(m, l, xn.data() + from * d, rows, emit);
        add_into(x.data() + from * d, mid.data() + from * d, mlp.data(), rows * d);
        emit("resid_post", l, {n, d}, x.data());
    }
    cache.length += static_cast<int>(n);
    // the final norm, and the logits of every row when traced (only the last one's otherwise)
    const std::size_t first = emit ? 0 : n - 1, rows = n - first;
    norm(m, "norm_f", xn.data() + first * d, x.data() + first * d, rows);
    emit(gpt2 ? "ln_f" : "norm_f", -1, {n, d}, xn.data());
    const weight& head = c.tied ? m.at("embed") : m.at("lm_head");
    std::vector<float> logits(rows * vocab);
    ops::linear(logits.data(), xn.data() + first * d, head, nullptr, rows);
    std::vector<float> last(logits.end() - static_cast<std::ptrdiff_t>(vocab), logits.end());
    if (emit) {
        std::vector<float> probs(logits.size());
        ops::softmax_rows(probs.data(), logits.data(), n, vocab);
        emit.spare("logits", -1, {n, vocab}, logits);
        emit.spare("probs", -1, {n, vocab}, probs);
    }
    return last;
}

}  // namespace attn::hf
