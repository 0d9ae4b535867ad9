// What people ask of a trained model, each a mode of the one forward pass (forward.cpp): every stage of a
// text (the pass with a tap), the next character, a generated continuation (with a key/value cache) and the
// bits per character of a text. A layer's attention as a sequence spec, for the playground's stepper.
//
// [SECTION] a text's stages · the next character · the key/value cache and generation · bits per character
#include <algorithm>
#include <cmath>
#include <numeric>

#include "attn/lm.hpp"
#include "attn/lm_train.hpp"
#include "forward.hpp"

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

/// A stage the pass reported, kept in a model trace once checked: its numbers taken when the pass spares them.
void keep_stage(model_trace& out, const tapped_stage& v) {
    size_t size = 1;
    for (const size_t k : v.shape) size *= k;
    check_finite(v.data, size, std::string("stage ") + v.id);
    std::vector<float> data;
    if (v.spare) data.swap(*v.spare);
    else data.assign(v.data, v.data + size);
    out.stages.push_back({v.id, v.layer < 0 ? std::nullopt : std::optional<int>(v.layer), v.shape, std::move(data)});
}

/// The logits of a text's last character: one pass over it, the unembedding of its last row alone.
std::vector<float> last_logits(const model& m, const std::vector<int>& ids) {
    pass last;
    last.logits = logit_rows::last;
    std::vector<float> z = forward(m, ids, 1, static_cast<int>(ids.size()), last);
    check_finite(z.data(), z.size(), "logits");
    return z;
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
    model_trace out;
    out.tokens = tokenize(m, text, static_cast<size_t>(m.config.n_ctx));
    check_text_cost(m, out.tokens.ids.size(), "a trace", trace_cost);
    // the one forward pass with a tap: each stage is checked as it is reported, so a later layer's input is
    // never a number that overflowed
    pass traced;
    const tap keep = [&](const tapped_stage& v) { keep_stage(out, v); };
    traced.report = &keep;
    forward(m, out.tokens.ids, 1, static_cast<int>(out.tokens.ids.size()), traced);
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
    std::vector<float> logits = last_logits(m, t.ids);
    float* last = logits.data();
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
    // the ids by falling probability, ties to the lower id (as next() ranks them): as far as top-k and top-p read
    // them (none when both keep every id; the k first for top-k alone), since a full sort a step was most of
    // generating's time
    const std::vector<float>& pt = s.temperature;
    const auto before = [&](size_t a, size_t b) { return pt[a] > pt[b] || (pt[a] == pt[b] && a < b); };
    std::vector<size_t> order;
    if (o.top_k > 0 || o.top_p < 1) {
        order.resize(V);
        std::iota(order.begin(), order.end(), size_t{0});
        if (o.top_p < 1) std::sort(order.begin(), order.end(), before);
        else std::partial_sort(order.begin(), order.begin() + std::min<std::ptrdiff_t>(o.top_k, static_cast<std::ptrdiff_t>(V)), order.end(), before);
    }
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
    const std::vector<float> logits = last_logits(m, t.ids);
    const float* last = logits.data();
    rng r(o.seed);
    const double u = o.temperature == 0 ? 0.0 : r.uniform();
    return sample_row(m, last, o, u);
}

// ---- [SECTION] the key/value cache and generation ----

namespace {

/// Generation's state: the one forward pass with a key/value cache, so one more character costs one row of
/// attention per head; wteᵀ made once.
class cached_model {
public:
    explicit cached_model(const model& m) : m_(m), wte_t_(unembedding(m)) {}
    size_t size() const { return static_cast<size_t>(cache_.length); }
    void clear() { cache_.length = 0; }
    /// Runs ids at the next positions; the logits of the last (V), or none when with_logits is false (rows only the
    /// later rows read: a prompt's or a rebuilt cache's). `report`, when given, sees every stage of the pass.
    std::vector<float> run(const std::vector<int>& ids, bool with_logits = true, const tap* report = nullptr) {
        pass cached;
        cached.cache = &cache_;
        cached.report = report;
        cached.unembedding = wte_t_.data();
        cached.logits = with_logits ? logit_rows::last : logit_rows::none;
        std::vector<float> z = forward(m_, ids, 1, static_cast<int>(ids.size()), cached);
        check_finite(z.data(), z.size(), "logits");  // a number that overflowed on the way makes them NaN
        return z;
    }
private:
    const model& m_;
    std::vector<float> wte_t_;
    kv_cache cache_;
};

}  // namespace

model_trace step_trace(const model& m, std::string_view text) {
    model_trace out;
    out.tokens = tokenize(m, text, static_cast<size_t>(m.config.n_ctx));
    check_text_cost(m, out.tokens.ids.size(), "a generation step", step_cost);
    cached_model cache(m);
    const std::vector<int>& ids = out.tokens.ids;
    if (ids.size() > 1) cache.run(std::vector<int>(ids.begin(), ids.end() - 1), false);
    // a step's own stages: per layer the cache it reads and its row of weights, then its logits and probs
    const tap keep = [&](const tapped_stage& v) {
        const std::string_view id = v.id;
        if (id == "kv_cache" || id == "weights" || id == "logits" || id == "probs") keep_stage(out, v);
    };
    cache.run({ids.back()}, true, &keep);
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
    cached_model cache(m);
    const std::vector<bool> ok = proposable(m);  // what may be drawn, once for every step
    std::vector<float> logits = cache.run(ids);
    rng r(o.seed);
    std::string out;
    const size_t ctx = static_cast<size_t>(m.config.n_ctx);
    for (int step = 0; step < o.n; ++step) {
        // the same draw as sample_next's (never <unk> or a control character); greedy takes no number from the seed
        const int pick = sample_logits(logits.data(), ok, o, o.temperature == 0 ? 0.0 : r.uniform()).pick;
        out += m.vocab[static_cast<size_t>(pick)];
        ids.push_back(pick);
        if (step + 1 == o.n) break;
        if (cache.size() == ctx) {  // the context is full: start again from its last half
            cache.clear();
            if (ctx / 2 > 1)  // a context of 2 or 3 starts again from the pick alone
                cache.run(std::vector<int>(ids.end() - static_cast<std::ptrdiff_t>(ctx / 2), ids.end() - 1), false);
        }
        logits = cache.run({pick});
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
