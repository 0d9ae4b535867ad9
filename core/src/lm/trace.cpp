// What people ask of a trained model: every stage of a text (the attention stages through the sequence
// core's own compute_trace), the next character, a generated continuation (with a key/value cache) and
// the bits per character of a text.
//
// [SECTION] a text's stages · the next character · the key/value cache and generation · bits per character
#include <algorithm>
#include <cmath>
#include <numeric>

#include "attn/kernels.hpp"
#include "attn/lm.hpp"
#include "attn/lm_train.hpp"
#include "attn/positional.hpp"
#include "attn/trace.hpp"
#include "kernels.hpp"

namespace attn::lm {
namespace {

using std::size_t;

matrix as_matrix(const float* data, size_t rows, size_t cols) {
    matrix out = matrix::from_shape({rows, cols});
    std::copy(data, data + rows * cols, out.data());
    return out;
}
vector as_vector(const float* data, size_t n) {
    vector out = vector::from_shape({n});
    std::copy(data, data + n, out.data());
    return out;
}

std::vector<float> positions(const model& m, size_t n) {
    const size_t d = static_cast<size_t>(m.config.d_model);
    if (m.config.learned_positions) return std::vector<float>(m.tensor("wpe"), m.tensor("wpe") + n * d);
    const matrix pe = sinusoidal_encoding(n, d);
    return std::vector<float>(pe.begin(), pe.end());
}

void softmax_in_place(float* z, size_t n) {
    const float mx = *std::max_element(z, z + n);
    double sum = 0.0;  // each exp once, in float; their sum in double
    for (size_t j = 0; j < n; ++j) sum += (z[j] = std::exp(z[j] - mx));
    const float inv = static_cast<float>(1.0 / sum);
    for (size_t j = 0; j < n; ++j) z[j] *= inv;
}

}  // namespace

const stage* model_trace::find(std::string_view id, std::optional<int> layer) const {
    for (const stage& s : stages)
        if (s.id == id && s.layer == layer) return &s;
    return nullptr;
}

spec layer_spec(const model& m, int l, const float* ln_1, size_t n) {
    const size_t d = static_cast<size_t>(m.config.d_model);
    spec s;
    s.x = as_matrix(ln_1, n, d);
    s.heads = m.config.n_head;
    s.score = score_kind::scaled_dot;
    s.mask = mask_kind::causal;
    for (auto [proj, w, b] : {std::tuple{&s.wq, "attn.wq", "attn.bq"}, std::tuple{&s.wk, "attn.wk", "attn.bk"},
                              std::tuple{&s.wv, "attn.wv", "attn.bv"}, std::tuple{&s.wo, "attn.wo", "attn.bo"}}) {
        proj->w = as_matrix(m.tensor(l, w), d, d);
        proj->b = as_vector(m.tensor(l, b), d);
    }
    return s;
}

spec layer_spec_of(const model& m, const model_trace& t, int l) {
    if (l < 0 || l >= m.config.n_layer)
        throw spec_error("layer is " + std::to_string(l) + " but the model has layers 0 to " + std::to_string(m.config.n_layer - 1) + ".");
    spec s = layer_spec(m, l, t.find("ln_1", l)->data.data(), t.tokens.ids.size());
    s.query_tokens = t.tokens.chars;
    return s;
}

// ---- [SECTION] a text's stages ----

model_trace trace(const model& m, std::string_view text) {
    const config& c = m.config;
    model_trace out;
    out.tokens = tokenize(m, text, static_cast<size_t>(c.n_ctx));
    const size_t n = out.tokens.ids.size(), d = static_cast<size_t>(c.d_model), dm = static_cast<size_t>(c.d_mlp),
                 V = m.vocab.size();
    check_text_cost(m, n, "a trace", trace_cost);
    // each of the model's own stages is checked as it is made (the attention's are, by the sequence core): a
    // later layer's input is never a number that overflowed
    auto add = [&](std::string id, std::optional<int> layer, std::vector<size_t> shape, std::vector<float> data) {
        check_finite(data.data(), data.size(), "stage " + id);
        out.stages.push_back({std::move(id), layer, std::move(shape), std::move(data)});
    };
    std::vector<float> embed(n * d);
    for (size_t i = 0; i < n; ++i)
        std::copy_n(m.tensor("wte") + static_cast<size_t>(out.tokens.ids[i]) * d, d, embed.begin() + static_cast<std::ptrdiff_t>(i * d));
    std::vector<float> pe = positions(m, n), x(n * d);
    for (size_t i = 0; i < n * d; ++i) x[i] = embed[i] + pe[i];
    add("embed", std::nullopt, {n, d}, embed);
    add("pe", std::nullopt, {n, d}, pe);
    add("x", std::nullopt, {n, d}, x);
    for (int l = 0; l < c.n_layer; ++l) {
        std::vector<float> a(n * d);
        kern::layernorm(a.data(), nullptr, nullptr, x.data(), m.tensor(l, "ln_1.weight"),
                        m.tensor(l, "ln_1.bias"), n, d, c.ln_eps);
        add("ln_1", l, {n, d}, a);
        // the layer's attention is a sequence spec, traced by the sequence core stage by stage
        const attn::trace t = compute_trace(layer_spec(m, l, a.data(), n));
        for (const stage_view& v : t.stages()) {
            if (v.id == stage_id::x) continue;  // the sequence trace's input is ln_1, already shown
            add(stage_name(v.id), l, v.shape, std::vector<float>(v.data, v.data + v.size));
        }
        const stage_view o = *t.stage(stage_id::output);
        std::vector<float> mid(n * d);
        for (size_t i = 0; i < n * d; ++i) mid[i] = x[i] + o.data[i];
        add("resid_mid", l, {n, d}, mid);
        x = mid;
        if (dm > 0) {
            std::vector<float> ln2(n * d), pre(n * dm), act(n * dm), mo(n * d);
            mlp_forward(m, l, mid.data(), n, ln2.data(), nullptr, nullptr, pre.data(), act.data(), mo.data());
            for (size_t i = 0; i < n * d; ++i) x[i] = mid[i] + mo[i];
            add("ln_2", l, {n, d}, std::move(ln2));
            add("mlp_pre", l, {n, dm}, std::move(pre));
            add("mlp_act", l, {n, dm}, std::move(act));
            add("mlp_out", l, {n, d}, std::move(mo));
        }
        add("resid_post", l, {n, d}, x);
    }
    std::vector<float> lnf(n * d), logits(n * V);
    kern::layernorm(lnf.data(), nullptr, nullptr, x.data(), m.tensor("ln_f.weight"), m.tensor("ln_f.bias"), n, d, c.ln_eps);
    const kernel_set& k = simd_kernels();
    k.matmul_bt(logits.data(), lnf.data(), m.tensor("wte"), n, d, V);  // tied: logits = ln_f · wteᵀ, no transposed copy
    // the sequence core's vector softmax (exp in f32x4; the scalar loop was a fifth of a zh trace), its
    // exponentials written where the probabilities then go
    std::vector<float> probs(n * V), row_max(n), row_sum(n);
    k.softmax_rows(probs.data(), probs.data(), row_max.data(), row_sum.data(), logits.data(), n, V);
    add("ln_f", std::nullopt, {n, d}, std::move(lnf));
    add("logits", std::nullopt, {n, V}, std::move(logits));
    add("probs", std::nullopt, {n, V}, std::move(probs));
    return out;
}

// ---- [SECTION] the next character ----

namespace {

/// Refuses a k outside 1 … V − 1 (the vocabulary's characters but <unk>).
void check_k(const model& m, int k) {
    const int V = static_cast<int>(m.vocab.size());
    if (k < 1 || k > V - 1)
        throw spec_error("k is " + std::to_string(k) + " but must be from 1 to " + std::to_string(V - 1) + " (the vocabulary's characters).");
}

/// The k likeliest characters but <unk> (ids 1 … V − 1) by p(id), ties to the lower id.
template <class P>
std::vector<candidate> likeliest(const model& m, int k, P p) {
    check_k(m, k);
    const int V = static_cast<int>(m.vocab.size());
    std::vector<int> order(static_cast<size_t>(V - 1));
    std::iota(order.begin(), order.end(), 1);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) { return p(a) > p(b) || (p(a) == p(b) && a < b); });
    std::vector<candidate> out;
    for (int i = 0; i < k; ++i) out.push_back({m.vocab[static_cast<size_t>(order[static_cast<size_t>(i)])], p(order[static_cast<size_t>(i)])});
    return out;
}

}  // namespace

std::vector<candidate> next(const model& m, std::string_view text, int k) {
    check_k(m, k);  // before any work
    const int V = static_cast<int>(m.vocab.size());
    const tokens t = tokenize(m, text, static_cast<size_t>(m.config.n_ctx));
    check_text_cost(m, t.ids.size(), "next", next_cost);
    std::vector<float> logits;
    const int n = static_cast<int>(t.ids.size());
    forward_logits(m, t.ids, 1, n, logits, nullptr);
    float* last = logits.data() + static_cast<size_t>(n - 1) * static_cast<size_t>(V);
    check_finite(last, static_cast<size_t>(V), "logits");
    // <unk> is never proposed (it stands for every character the model does not know), nor a control character
    const std::vector<bool> ok = proposable(m);
    for (int j = 0; j < V; ++j)
        if (!ok[static_cast<size_t>(j)]) last[j] = -INFINITY;
    softmax_in_place(last, static_cast<size_t>(V));
    return likeliest(m, k, [&](int id) { return last[id]; });
}

std::vector<candidate> next_of_trace(const model& m, const model_trace& t, int k) {
    check_k(m, k);
    const size_t V = m.vocab.size();
    // as next(): the last row's softmax without <unk> (from the logits: renormalising probs divided by
    // 1 − p(<unk>), which is 0 when <unk> takes all of it)
    const float* z = t.find("logits", std::nullopt)->data.data() + (t.tokens.ids.size() - 1) * V;
    std::vector<float> p(z, z + V);
    const std::vector<bool> ok = proposable(m);
    for (size_t j = 0; j < V; ++j)
        if (!ok[j]) p[j] = -INFINITY;
    softmax_in_place(p.data(), V);
    return likeliest(m, k, [&](int id) { return p[static_cast<size_t>(id)]; });
}

std::vector<candidate> likeliest_of(const model& m, const std::vector<float>& p, int k) {
    return likeliest(m, k, [&](int id) { return p[static_cast<size_t>(id)]; });
}

std::vector<bool> proposable(const model& m) {
    std::vector<bool> ok(m.vocab.size(), true);
    ok[0] = false;
    for (size_t j = 1; j < m.vocab.size(); ++j) {
        const std::string& ch = m.vocab[j];
        const unsigned char b0 = static_cast<unsigned char>(ch[0]);
        // C0 controls but \n and \t, DEL, and the C1 controls (U+0080 … U+009F: UTF-8 C2 80 … C2 9F)
        const bool c0 = ch.size() == 1 && ((b0 < 0x20 && b0 != '\n' && b0 != '\t') || b0 == 0x7f);
        const bool c1 = ch.size() == 2 && b0 == 0xC2 && static_cast<unsigned char>(ch[1]) < 0xA0;
        ok[j] = !(c0 || c1);
    }
    return ok;
}

// ---- [SECTION] sampling: temperature, top-k, top-p ----

void check_sampling(const model& m, const generate_options& o) {
    check_temperature(o.temperature);
    const double V = static_cast<double>(m.vocab.size());
    if (!(o.top_k >= 0 && o.top_k <= V - 1))
        throw spec_error("top_k is " + std::to_string(o.top_k) + " but must be from 0 (every character) to " +
                         std::to_string(static_cast<long long>(V - 1)) + " (the vocabulary's characters).");
    check_bound("top_p", o.top_p);
}

// Passes: 1. mask what is never proposed; 2. temperature (one-hot at 0); 3. top-k; 4. top-p; 5. the draw,
// walking ids in order.
sampling sample_logits(const float* logits, const std::vector<bool>& ok, const generate_options& o, double u) {
    const size_t V = ok.size();
    sampling s;
    // pass 1 and 2: the temperature's distribution over what may be proposed
    std::vector<float> z(logits, logits + V);
    for (size_t j = 0; j < V; ++j)
        if (!ok[j]) z[j] = -INFINITY;
    const size_t best = static_cast<size_t>(std::max_element(z.begin(), z.end()) - z.begin());
    if (o.temperature == 0) {
        s.temperature.assign(V, 0.0f);
        s.temperature[best] = 1.0f;
    } else {
        // the largest logit subtracted before ÷ T: every exponent is ≤ 0, so no temperature overflows z/T
        const double top = z[best];
        for (float& v : z) v = static_cast<float>((v - top) / o.temperature);
        softmax_in_place(z.data(), V);
        s.temperature = z;
    }
    // the ids by falling probability, ties to the lower id (as next() ranks them)
    std::vector<size_t> order(V);
    std::iota(order.begin(), order.end(), size_t{0});
    const std::vector<float>& pt = s.temperature;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pt[a] > pt[b]; });
    const auto keep = [&](const std::vector<float>& from, size_t count) {
        std::vector<float> out(V, 0.0f);
        double sum = 0;
        for (size_t r = 0; r < count; ++r) sum += from[order[r]];
        for (size_t r = 0; r < count; ++r) out[order[r]] = static_cast<float>(from[order[r]] / sum);
        return out;
    };
    // pass 3: the k likeliest
    s.top_k = o.top_k > 0 ? keep(pt, static_cast<size_t>(o.top_k)) : pt;
    // pass 4: the fewest likeliest whose probability reaches p (at least one)
    if (o.top_p < 1) {
        size_t count = 0;
        double acc = 0;
        while (count < V && (count == 0 || acc < o.top_p) && s.top_k[order[count]] > 0) acc += s.top_k[order[count++]];
        s.top_p = keep(s.top_k, count);
    } else {
        s.top_p = s.top_k;
    }
    // pass 5: the draw, walking the ids in order; a u past the last sum (rounding) takes the last id kept
    double acc = 0.0;
    s.pick = -1;
    for (size_t j = 0; j < V; ++j) {
        if (s.top_p[j] <= 0) continue;
        acc += s.top_p[j];
        s.pick = static_cast<int>(j);
        if (u < acc) break;
    }
    if (s.pick < 0) s.pick = static_cast<int>(best);
    return s;
}

namespace {

sampling sample_row(const model& m, const float* logits, const generate_options& o, double u) {
    return sample_logits(logits, proposable(m), o, u);
}

}  // namespace

sampling sample_of_trace(const model& m, const model_trace& t, const generate_options& o) {
    check_sampling(m, o);
    const size_t V = m.vocab.size();
    const float* z = t.find("logits", std::nullopt)->data.data() + (t.tokens.ids.size() - 1) * V;
    rng r(o.seed);
    const double u = o.temperature == 0 ? 0.0 : r.uniform();  // generate's first draw with this seed
    return sample_row(m, z, o, u);
}

sampling sample_next(const model& m, std::string_view text, const generate_options& o) {
    check_sampling(m, o);
    const tokens t = tokenize(m, text, static_cast<size_t>(m.config.n_ctx));
    check_text_cost(m, t.ids.size(), "next", next_cost);
    std::vector<float> logits;
    const int n = static_cast<int>(t.ids.size());
    forward_logits(m, t.ids, 1, n, logits, nullptr);
    const size_t V = m.vocab.size();
    const float* last = logits.data() + static_cast<size_t>(n - 1) * V;
    check_finite(last, V, "logits");
    rng r(o.seed);
    const double u = o.temperature == 0 ? 0.0 : r.uniform();
    return sample_row(m, last, o, u);
}

// ---- [SECTION] the key/value cache and generation ----

namespace {

/// The key/value cache of generation: each layer's k and v rows of the characters so far, so one more
/// character costs one row of attention per head.
class kv_cache {
public:
    explicit kv_cache(const model& m) : m_(m), c_(m.config), d_(static_cast<size_t>(c_.d_model)) {
        k_.assign(static_cast<size_t>(c_.n_layer), std::vector<float>(static_cast<size_t>(c_.n_ctx) * d_));
        v_ = k_;
        pe_ = positions(m, static_cast<size_t>(c_.n_ctx));
        wte_t_.resize(d_ * m.vocab.size());
        kern::transpose(wte_t_.data(), m.tensor("wte"), m.vocab.size(), d_);
    }
    size_t size() const { return n_; }
    void clear() { n_ = 0; }
    /// Appends one character at the next position; returns its logits (V), or nothing when with_logits is false
    /// (a row only the later rows read: a prompt's or a rebuilt cache's, where the unembedding is most of a
    /// row's work). With record, the step's own stages: per layer the cache after it (kv_cache: 2 × h × n × d_h,
    /// keys then values) and the new row of attention weights (h × 1 × n); then the new row's logits and probs (1 × V).
    std::vector<float> push(int id, std::vector<stage>* record = nullptr, bool with_logits = true) {
        const size_t d = d_, h = static_cast<size_t>(c_.n_head), dh = d / h, dm = static_cast<size_t>(c_.d_mlp), pos = n_;
        std::vector<float> x(d), a(d), q(d), ctx(d), o(d), scores(pos + 1);
        for (size_t i = 0; i < d; ++i) x[i] = m_.tensor("wte")[static_cast<size_t>(id) * d + i] + pe_[pos * d + i];
        for (int l = 0; l < c_.n_layer; ++l) {
            const size_t L = static_cast<size_t>(l);
            kern::layernorm(a.data(), nullptr, nullptr, x.data(), m_.tensor(l, "ln_1.weight"),
                            m_.tensor(l, "ln_1.bias"), 1, d, c_.ln_eps);
            kern::linear(q.data(), a.data(), m_.tensor(l, "attn.wq"), m_.tensor(l, "attn.bq"), 1, d, d);
            kern::linear(k_[L].data() + pos * d, a.data(), m_.tensor(l, "attn.wk"), m_.tensor(l, "attn.bk"), 1, d, d);
            kern::linear(v_[L].data() + pos * d, a.data(), m_.tensor(l, "attn.wv"), m_.tensor(l, "attn.bv"), 1, d, d);
            const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
            std::fill(ctx.begin(), ctx.end(), 0.0f);
            for (size_t hd = 0; hd < h; ++hd) {
                for (size_t j = 0; j <= pos; ++j) {
                    float s = 0.0f;
                    for (size_t cc = 0; cc < dh; ++cc) s += q[hd * dh + cc] * k_[L][j * d + hd * dh + cc];
                    scores[j] = s * scale;
                }
                softmax_in_place(scores.data(), pos + 1);
                if (record) {
                    if (hd == 0) record->push_back({"weights", l, {h, 1, pos + 1}, {}});
                    record->back().data.insert(record->back().data.end(), scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(pos + 1));
                }
                for (size_t j = 0; j <= pos; ++j)
                    for (size_t cc = 0; cc < dh; ++cc) ctx[hd * dh + cc] += scores[j] * v_[L][j * d + hd * dh + cc];
            }
            if (record) {  // the cache as it stands after this row: what the next character will attend to
                stage cache{"kv_cache", l, {2, h, pos + 1, dh}, {}};
                for (const std::vector<float>* kv : {&k_[L], &v_[L]})
                    for (size_t hd = 0; hd < h; ++hd)
                        for (size_t j = 0; j <= pos; ++j)
                            cache.data.insert(cache.data.end(), kv->begin() + static_cast<std::ptrdiff_t>(j * d + hd * dh),
                                              kv->begin() + static_cast<std::ptrdiff_t>(j * d + hd * dh + dh));
                record->insert(record->end() - 1, std::move(cache));
            }
            kern::linear(o.data(), ctx.data(), m_.tensor(l, "attn.wo"), m_.tensor(l, "attn.bo"), 1, d, d);
            for (size_t i = 0; i < d; ++i) x[i] += o[i];
            if (dm > 0) {
                std::vector<float> ln2(d), pre(dm), act(dm);
                mlp_forward(m_, l, x.data(), 1, ln2.data(), nullptr, nullptr, pre.data(), act.data(), o.data());
                for (size_t i = 0; i < d; ++i) x[i] += o[i];
            }
        }
        ++n_;
        if (!with_logits) {
            check_finite(x.data(), d, "logits");  // the residual stream: what overflowed here would reach the next logits
            return {};
        }
        kern::layernorm(a.data(), nullptr, nullptr, x.data(), m_.tensor("ln_f.weight"), m_.tensor("ln_f.bias"), 1, d, c_.ln_eps);
        std::vector<float> logits(m_.vocab.size());
        kern::linear(logits.data(), a.data(), wte_t_.data(), nullptr, 1, d, m_.vocab.size());
        check_finite(logits.data(), logits.size(), "logits");  // a number that overflowed on the way makes them NaN
        if (record) {
            record->push_back({"logits", std::nullopt, {1, m_.vocab.size()}, logits});
            std::vector<float> p = logits;
            softmax_in_place(p.data(), p.size());
            record->push_back({"probs", std::nullopt, {1, m_.vocab.size()}, std::move(p)});
        }
        return logits;
    }
private:
    const model& m_;
    const config& c_;
    size_t d_, n_ = 0;
    std::vector<std::vector<float>> k_, v_;
    std::vector<float> pe_, wte_t_;
};

}  // namespace

model_trace step_trace(const model& m, std::string_view text) {
    model_trace out;
    out.tokens = tokenize(m, text, static_cast<size_t>(m.config.n_ctx));
    check_text_cost(m, out.tokens.ids.size(), "a generation step", step_cost);
    kv_cache cache(m);
    for (size_t i = 0; i + 1 < out.tokens.ids.size(); ++i) cache.push(out.tokens.ids[i], nullptr, false);
    cache.push(out.tokens.ids.back(), &out.stages);
    for (const stage& s : out.stages) check_finite(s.data.data(), s.data.size(), "stage " + s.id);
    return out;
}

void check_generate(const model& m, size_t prompt, const generate_options& o) {
    check_bound("n", o.n);
    check_sampling(m, o);
    const size_t n = static_cast<size_t>(o.n);
    if (const cost c = generate_cost(m, prompt, n); !within_budget(c)) {
        const size_t most = most_that_fit(n - 1, [&](size_t k) { return generate_cost(m, prompt, k); });
        check_cost(c, "generating " + std::to_string(n) + " characters",
                   most ? "generate at most " + std::to_string(most) + " at once" : "this model is too large for it");
    }
}

std::string generate(const model& m, std::string_view prompt, const generate_options& o) {
    check_bound("n", o.n);
    check_sampling(m, o);
    const tokens t = tokenize(m, prompt, static_cast<size_t>(m.config.n_ctx));
    check_generate(m, t.ids.size(), o);
    std::vector<int> ids = t.ids;
    kv_cache cache(m);
    std::vector<float> logits;
    for (size_t i = 0; i < ids.size(); ++i) logits = cache.push(ids[i], nullptr, i + 1 == ids.size());
    rng r(o.seed);
    std::string out;
    const size_t ctx = static_cast<size_t>(m.config.n_ctx);
    for (int step = 0; step < o.n; ++step) {
        // the same draw as sample_next's (never <unk> or a control character); greedy takes no number from the seed
        const int pick = sample_row(m, logits.data(), o, o.temperature == 0 ? 0.0 : r.uniform()).pick;
        out += m.vocab[static_cast<size_t>(pick)];
        ids.push_back(pick);
        if (step + 1 == o.n) break;
        if (cache.size() == ctx) {  // the context is full: start again from its last half
            cache.clear();
            for (size_t i = ids.size() - ctx / 2; i + 1 < ids.size(); ++i) cache.push(ids[i], nullptr, false);
        }
        logits = cache.push(pick);
    }
    return out;
}

// ---- [SECTION] bits per character ----

eval_result evaluate(const model& m, const std::vector<int>& ids) {
    const size_t T = static_cast<size_t>(m.config.n_ctx);
    if (ids.size() < 2) throw spec_error("the text to evaluate needs at least 2 characters to predict one.");
    if (const cost c = eval_cost(m, ids.size()); !within_budget(c, "eval_work")) {
        const size_t most = most_that_fit(ids.size(), [&](size_t k) { return eval_cost(m, k); }, "eval_work");
        check_cost(c, "evaluating " + std::to_string(ids.size()) + " characters",
                   most > 1 ? "evaluate at most " + std::to_string(most) + " at once" : "this model is too large for it", "eval_work");
    }
    double nats = 0.0;
    size_t predicted = 0;
    for (size_t start = 0; start + 1 < ids.size();) {
        // up to 32 whole windows of T + 1 characters in one batch, then what is left as one shorter window
        const size_t whole = std::min<size_t>(32, (ids.size() - 1 - start) / T);
        const size_t B = std::max<size_t>(whole, 1), len = whole ? T : ids.size() - 1 - start;
        std::vector<int> in(B * len), target(B * len);
        for (size_t b = 0; b < B; ++b)
            for (size_t t = 0; t < len; ++t) {
                in[b * len + t] = ids[start + b * len + t];
                target[b * len + t] = ids[start + b * len + t + 1];
            }
        // the training loss without its gradient: the mean over these B·len characters, in nats
        const double loss = loss_and_grad(m, in, target, static_cast<int>(B), static_cast<int>(len), nullptr);
        check_finite(loss, "loss");
        nats += loss * static_cast<double>(B * len);
        predicted += B * len;
        start += B * len;
    }
    return {nats / static_cast<double>(predicted) / std::log(2.0), predicted};
}

}  // namespace attn::lm
