// The model's parameter table, its bounds and what a call costs, its initialisation, its vocabulary and
// UTF-8 text (docs/model.md, docs/limits.md).
//
// [SECTION] the parameter table · the bounds table · what a call costs · overflow · a model · UTF-8 · random
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_set>

#include "attn/lm.hpp"
#include "attn/lm_train.hpp"
#include "attn/text.hpp"
#include "kernels/simd4.hpp"

namespace attn::lm {

// ---- [SECTION] the parameter table ----

std::string layer_tensor_name(int layer, std::string_view rest) {
    return "h." + std::to_string(layer) + "." + std::string(rest);
}

std::vector<param> parameter_table(const config& c, std::size_t vocab) {
    const std::size_t d = static_cast<std::size_t>(c.d_model), dm = static_cast<std::size_t>(c.d_mlp);
    std::vector<param> t;
    auto add = [&](std::string name, std::vector<std::size_t> shape, bool decay) {
        std::size_t size = 1;
        for (std::size_t s : shape) size *= s;
        const std::size_t offset = t.empty() ? 0 : t.back().offset + t.back().size;
        t.push_back({std::move(name), std::move(shape), offset, size, decay});
    };
    add("wte", {vocab, d}, true);
    if (c.learned_positions) add("wpe", {static_cast<std::size_t>(c.n_ctx), d}, true);
    for (int l = 0; l < c.n_layer; ++l) {
        auto name = [l](std::string rest) { return layer_tensor_name(l, rest); };
        add(name("ln_1.weight"), {d}, false);
        add(name("ln_1.bias"), {d}, false);
        for (const char* w : {"q", "k", "v", "o"}) {
            add(name(std::string("attn.w") + w), {d, d}, true);
            add(name(std::string("attn.b") + w), {d}, false);
        }
        if (dm > 0) {
            add(name("ln_2.weight"), {d}, false);
            add(name("ln_2.bias"), {d}, false);
            add(name("mlp.w1"), {d, dm}, true);
            add(name("mlp.b1"), {dm}, false);
            add(name("mlp.w2"), {dm, d}, true);
            add(name("mlp.b2"), {d}, false);
        }
    }
    add("ln_f.weight", {d}, false);
    add("ln_f.bias", {d}, false);
    return t;
}

// ---- [SECTION] the bounds table ----

const std::vector<lm_bound>& lm_bounds() {
    constexpr double MiB = 1 << 20;
    static const std::vector<lm_bound> bounds{
        // a config, a weight file's or a fresh model's alike
        {"n_layer", 1, 12, "nanoGPT's small GPT-2 has 12; the shipped models have 2"},
        {"n_head", 1, 16, "a divisor of d_model; the shipped models have 4"},
        {"d_model", 1, 512, "the shipped models have 64"},
        {"d_mlp", 0, 2048, "4 · d_model at the largest d_model; 0: attention-only"},
        {"n_ctx", 2, 512, "the characters one call reads; the shipped models read 64"},
        {"vocab", 8, 4096, "a fresh model's vocabulary: <unk> and the corpus's most frequent characters"},
        {"file_vocab", 2, 65536, "a weight file's vocabulary: every CJK ideograph of the basic block and extension A fits"},
        {"weights", 1, 1e8, "400 MB of float32; the 12 × 16 × 512 model with 4096 characters has 4·10^7"},
        {"file_bytes", 8, 512 * MiB, "the largest model, 10^8 float32 weights and a 16 MiB header, is 416 MiB"},
        {"header_bytes", 2, 16 * MiB, "a header names about 200 tensors; its vocabulary and probe are the bulk"},
        {"header_nesting", 1, 32, "as the spec reader's: a header nests 3 levels"},
        {"header_values", 1, 65536, "a header of 12 layers has about 1600 values"},
        // texts and corpora
        {"probe", 2, 8192, "the head scores read 16 windows of n_ctx characters, at most 16 · 512"},
        {"corpus_files", 1, 32, "the shipped models name 3 and 7 files"},
        {"corpus_bytes", 1, 8 * MiB, "a corpus, a training text, an evaluated text: Debian's fortunes-zh is 2.4 MB"},
        // the arguments of a call
        {"n", 1, max_generate, "characters generated in one call"},
        {"steps", 1, max_train_steps, "a training run's steps"},
        {"batch", 1, 512, "windows a training step"},
        {"warmup", 0, max_train_steps, "steps of the learning rate's warm-up"},
        {"temperature", 1e-3, 100, "0 is greedy; below 10^-3 sampling is greedy in all but name (z/T cannot overflow: the largest logit is subtracted first)"},
        {"top_p", 1e-3, 1, "1 keeps every character; top-p keeps the fewest likeliest whose probability reaches p (at least one)"},
        {"seed", 0, 9007199254740991.0, "2^53 − 1: a JavaScript number holds it exactly"},
        // the budget of one call, estimated before its work starts (the cost functions below)
        {"work", 0, 4294967296.0, "2^32 multiply-adds (an exp counted as one): about a second natively, a few in wasm"},
        {"train_work", 0, 68719476736.0, "2^36 for the steps of one trainer call: a step must fit `work`, a call of steps this"},
        {"eval_work", 0, 68719476736.0, "2^36 for attn lm eval, which measures a whole held-out split: zh's is 4.2·10^10"},
        {"memory", 0, 256 * MiB, "what one call holds at its peak: wasm's heap never shrinks after it"},
        {"output", 0, 64 * MiB, "JSON one call writes, as attn explain's limit (16 bytes a number)"},
    };
    return bounds;
}

const lm_bound& lm_bound_of(std::string_view name) {
    for (const lm_bound& b : lm_bounds())
        if (name == b.name) return b;
    throw std::logic_error("no bound named " + std::string(name));
}

namespace {

/// A bound or a value as a sentence says it: whole numbers without a point, others the shortest decimal that reads back.
std::string number_text(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e16) return std::to_string(static_cast<long long>(v));
    char buf[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

/// 23.6 billion, 512 million; 310 MiB, 1.25 GiB: how a cost is said.
std::string short_number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.3g", v);
    return buf;
}
std::string amount(double v) {
    return v >= 1e9 ? short_number(v / 1e9) + " billion" : v >= 1e6 ? short_number(v / 1e6) + " million" : short_number(v);
}
std::string bytes_text(double v) {
    return v >= 1024.0 * 1048576 ? short_number(v / (1024.0 * 1048576)) + " GiB"
         : v >= 1048576 ? short_number(v / 1048576) + " MiB" : short_number(v / 1024) + " KiB";
}

}  // namespace

void check_bound(std::string_view name, double v, std::string_view what) {
    const lm_bound& b = lm_bound_of(name);
    if (!(v >= b.lo && v <= b.hi))
        throw spec_error(std::string(what.empty() ? name : what) + " is " + number_text(v) + " but must be from " + number_text(b.lo) +
                         " to " + number_text(b.hi) + ".");
}

void check_temperature(double t) {
    const lm_bound& b = lm_bound_of("temperature");
    if (!(t == 0 || (t >= b.lo && t <= b.hi)))
        throw spec_error("temperature is " + number_text(t) + " but must be 0 (greedy) or from " + number_text(b.lo) + " to " +
                         number_text(b.hi) + ".");
}

// ---- [SECTION] what a call costs ----
//
// Estimated from the config and the vocabulary alone, before the work (and, in the CLI, before the weights
// are read): multiply-adds of the matrix products and the attention (an exp counted as one), the floats the
// call holds at its peak (the forward pass's activations, the trace's stages, the cache), and 16 bytes of JSON a
// number written (a float's shortest decimal and its comma are at most 15). Upper bounds: every query is
// counted against all n keys, though the causal mask halves them.

namespace {

constexpr double float_bytes = 4, json_number_bytes = 16, explain_line_bytes = 400;

struct dims {
    double L, h, d, dm, T, V, params;
};
dims dims_of(const config& c, std::size_t vocab) {
    const double L = c.n_layer, d = c.d_model, dm = c.d_mlp, T = c.n_ctx, V = static_cast<double>(vocab);
    const double per_layer = 2 * d + 4 * d * d + 4 * d + (dm > 0 ? 2 * d + 2 * d * dm + dm + d : 0);
    return {L, double(c.n_head), d, dm, T, V, V * d + (c.learned_positions ? T * d : 0) + L * per_layer + 2 * d};
}
dims dims_of(const model& m) { return dims_of(m.config, m.vocab.size()); }

/// One position through every layer, attending to `keys` positions, and (with_logits) its logits and their softmax.
double row_work(const dims& s, double keys, bool with_logits = true) {
    return s.L * (4 * s.d * s.d + keys * (2 * s.d + s.h) + 2 * s.d * s.dm) + (with_logits ? s.V * (s.d + 1) : 0);
}
/// The batched forward pass's activations (forward.cpp, kept for training: per layer in, ln_1, q, k, v, ctx, mid, ln_2, o, the
/// attention weights B·h·T², the MLP's pre and act; then the stream, ln_f, the logits and wteᵀ).
double forward_floats(const dims& s, double B, double T) {
    const double BT = B * T;
    return s.L * (9 * BT * s.d + 4 * BT + 2 * BT * s.dm + B * s.h * T * T) + 3 * BT * s.d + 3 * BT + BT * s.V + s.d * s.V;
}
/// What the backward pass adds to them, but the gradient itself: its temporaries and a transposed weight.
double backward_floats(const dims& s, double BT) {
    return 10 * BT * s.d + 2 * BT * s.dm + std::max(s.d * s.d, s.d * s.dm) + s.V;
}
/// The stages a trace of n characters keeps (trace.cpp), then what its peak adds: a layer's working buffers.
double trace_floats(const dims& s, double n) {
    return 4 * n * s.d + s.L * (11 * n * s.d + 2 * n * s.dm + 5 * s.h * n * n + 2 * s.h * n) + 2 * n * s.V;
}
double layer_trace_floats(const dims& s, double n) { return 10 * n * s.d + 5 * s.h * n * n + 2 * s.h * n + 4 * s.d * s.d; }

}  // namespace

bool within_budget(const cost& c, std::string_view work_bound) {
    return c.work <= lm_bound_of(work_bound).hi && c.memory <= lm_bound_of("memory").hi && c.output <= lm_bound_of("output").hi;
}

cost trace_cost(const model& m, std::size_t chars) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars), kept = trace_floats(s, n);
    return {n * row_work(s, n), float_bytes * (kept + layer_trace_floats(s, n)), json_number_bytes * (kept + 2 * n)};
}

cost next_cost(const model& m, std::size_t chars) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars);
    return {n * row_work(s, n), float_bytes * forward_floats(s, 1, n), 0};
}

cost step_cost(const model& m, std::size_t chars) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars), kept = s.L * (2 * n * s.d + s.h * n) + 2 * s.V;
    return {n * row_work(s, n), float_bytes * (2 * s.L * s.T * s.d + s.T * s.d + s.d * s.V + kept + 8 * s.d + s.dm + s.V),
            json_number_bytes * kept};
}

cost generate_cost(const model& m, std::size_t prompt, std::size_t n) {
    const dims s = dims_of(m);
    const std::size_t ctx = static_cast<std::size_t>(m.config.n_ctx);
    double work = 0;
    std::size_t held = 0;  // what the cache holds: trace.cpp's generate, step by step, its rebuilds too
    auto push = [&](bool with_logits) { work += row_work(s, static_cast<double>(++held), with_logits); };
    for (std::size_t i = 0; i < prompt; ++i) push(i + 1 == prompt);
    for (std::size_t step = 0; step < n; ++step) {
        work += 2 * s.V;  // the sampling softmax
        if (step + 1 == n) break;
        if (held == ctx) {
            held = 0;
            for (std::size_t i = 0; i + 1 < ctx / 2; ++i) push(false);
        }
        push(true);
    }
    return {work, float_bytes * (2 * s.L * s.T * s.d + s.T * s.d + s.d * s.V + 3 * s.V + 8 * s.d + s.dm) + 8 * static_cast<double>(n),
            4 * static_cast<double>(n)};
}

cost heads_cost(const model& m, std::size_t probe) {
    const dims s = dims_of(m);
    const std::size_t T = static_cast<std::size_t>(m.config.n_ctx);
    double work = 0, floats = 0;
    for (std::size_t start = 0, windows = 0; start + 1 < probe && windows < 16; start += T, ++windows) {  // heads.cpp's windows
        const double len = static_cast<double>(std::min(T, probe - start));
        work += len * row_work(s, len);
        floats = std::max(floats, forward_floats(s, 1, len));
    }
    const double twice = 2.0 * static_cast<double>(T / 2);  // the induction batches: 16 strings and 16 passages, each twice
    work += 2 * 16 * twice * row_work(s, twice);
    floats = std::max(floats, forward_floats(s, 16, twice));
    return {work, float_bytes * (floats + 2 * static_cast<double>(probe) + 8 * s.L * s.h), 0};
}

cost grad_cost(const model& m, std::size_t rows) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(rows);
    return {3 * n * row_work(s, n), float_bytes * (forward_floats(s, 1, n) + backward_floats(s, n) + s.params), json_number_bytes * s.params};
}

cost layer_grad_cost(const model& m, std::size_t chars) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars);
    const cost grad = grad_cost(m, chars > 1 ? chars - 1 : 1);
    cost c = trace_cost(m, chars);
    c.work += grad.work;
    c.memory += grad.memory + float_bytes * s.L * n * s.d;  // the gradient at each layer's attention output
    c.output = json_number_bytes * (4 * s.d * s.d + 4 * s.d + 2 * n * s.d);  // the spec: x, the weights, upstream
    return c;
}

cost eval_cost(const model& m, std::size_t chars) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars), B = std::clamp(std::floor(n / s.T), 1.0, 32.0);
    return {n * row_work(s, s.T), float_bytes * (forward_floats(s, B, s.T) + 2 * B * s.T + 3 * n), 0};
}

cost train_step_cost(const model& m, std::size_t batch, std::size_t parts) {
    const dims s = dims_of(m);
    const double BT = static_cast<double>(batch) * s.T;  // every part at once (natively each on its own thread)
    return {3 * BT * row_work(s, s.T),
            float_bytes * (forward_floats(s, static_cast<double>(batch), s.T) + backward_floats(s, BT) +
                           s.params * (3 + static_cast<double>(parts)) + 4 * BT),
            0};
}

cost explain_cost(const model& m, std::size_t chars, std::size_t cells) {
    const dims s = dims_of(m);
    const double n = static_cast<double>(chars);
    cost c = trace_cost(m, chars);
    c.work += n * (4 * s.d * s.d + n * (2 * s.d + s.h)) + static_cast<double>(cells) * s.d;  // a layer's attention traced again
    c.memory += float_bytes * layer_trace_floats(s, n);
    c.output = explain_line_bytes * static_cast<double>(cells);
    return c;
}

cost fresh_cost(const config& c, std::size_t V, std::size_t bytes) {
    const dims s = dims_of(c, V);
    const double b = static_cast<double>(bytes);
    // the corpus decoded (4 bytes a character), split into training and held-out texts, the training text
    // written back and answered as JSON text; the weights
    return {16 * b + s.params, float_bytes * s.params + 24 * b, 0};
}

void check_cost(const cost& c, std::string_view what, std::string_view hint, std::string_view work_bound) {
    const lm_bound& work = lm_bound_of(work_bound);
    const double memory = lm_bound_of("memory").hi, output = lm_bound_of("output").hi;
    const std::string tail = hint.empty() ? "." : ": " + std::string(hint) + ".";
    if (c.work > work.hi)
        throw spec_error(std::string(what) + " would take about " + amount(c.work) + " multiply-adds, over the limit of " + amount(work.hi) +
                         " a call" + tail);
    if (c.memory > memory)
        throw spec_error(std::string(what) + " would need about " + bytes_text(c.memory) + " of memory, over the limit of " +
                         bytes_text(memory) + " a call" + tail);
    if (c.output > output)
        throw spec_error(std::string(what) + " would answer with about " + bytes_text(c.output) + " of JSON, over the limit of " +
                         bytes_text(output) + tail);
}

std::size_t most_that_fit(std::size_t most, const std::function<cost(std::size_t)>& cost_of, std::string_view work_bound) {
    if (most == 0 || !within_budget(cost_of(1), work_bound)) return 0;
    std::size_t lo = 1, hi = most;  // cost_of(lo) fits; the costs grow with the size
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (within_budget(cost_of(mid), work_bound)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

void check_text_cost(const model& m, std::size_t n, std::string_view what, cost (*cost_of)(const model&, std::size_t)) {
    const std::size_t ctx = static_cast<std::size_t>(m.config.n_ctx);
    if (n > ctx)
        throw spec_error("the text has " + std::to_string(n) + " characters but the model reads at most " + std::to_string(ctx) +
                         " at once (its context, n_ctx).");
    const cost c = cost_of(m, n);
    if (within_budget(c)) return;
    const std::size_t most = most_that_fit(n - 1, [&](std::size_t k) { return cost_of(m, k); });
    check_cost(c, std::string(what) + " on " + std::to_string(n) + " characters",
               most ? "give it at most " + std::to_string(most) + " characters" : "this model is too large for it");
}

// ---- [SECTION] overflow ----

void check_finite(const float* values, std::size_t count, std::string_view what) {
    // four lanes at a time (x − x is 0 but for inf and NaN): a trace checks every stage, logits and probs included
    if (!simd::all_finite(values, count))
        throw spec_error("the model's " + std::string(what) + " overflowed the float range: its weights are too large for float32.");
}

void check_finite(double value, std::string_view what) {
    if (!std::isfinite(value))
        throw spec_error("the model's " + std::string(what) + " overflowed the float range: its weights are too large for float32.");
}

// ---- [SECTION] a model ----

void validate_config(const config& c) {
    for (const auto& [field, v] : {std::pair{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp}, {"n_ctx", c.n_ctx}})
        check_bound(field, v, std::string("config.") + field);
    if (c.d_model % c.n_head != 0)
        throw spec_error("config.d_model (" + std::to_string(c.d_model) + ") must be a multiple of config.n_head (" +
                         std::to_string(c.n_head) + ").");
    if (!(c.ln_eps > 0.0f && c.ln_eps < 1.0f)) throw spec_error("config.ln_eps must be a number between 0 and 1.");
}

const param& model::slot(std::string_view name) const {
    for (const param& p : table)
        if (p.name == name) return p;
    throw spec_error("the model has no tensor \"" + user_text(name) + "\".");
}
const float* model::tensor(std::string_view name) const { return weights.data() + slot(name).offset; }
float* model::tensor(std::string_view name) { return weights.data() + slot(name).offset; }

void index_vocab(model& m) {
    if (m.vocab.size() < 2) throw spec_error("the vocabulary needs \"<unk>\" and at least one character.");
    if (m.vocab[0] != "<unk>") throw spec_error("vocabulary entry 0 must be \"<unk>\".");
    m.ids.clear();
    for (std::size_t i = 1; i < m.vocab.size(); ++i) {
        const std::u32string c = decode_utf8(m.vocab[i], "a vocabulary entry");
        if (c.size() != 1)
            throw spec_error("vocabulary entry " + std::to_string(i) + " (\"" + user_text(m.vocab[i]) +
                             "\") is not exactly one character.");
        if (!m.ids.emplace(c[0], static_cast<int>(i)).second)
            throw spec_error("vocabulary entry " + std::to_string(i) + " (\"" + user_text(m.vocab[i]) +
                             "\") is there twice.");
    }
}

model make_model(const config& c, std::vector<std::string> vocab, std::uint64_t seed) {
    validate_config(c);
    model m;
    m.config = c;
    m.vocab = std::move(vocab);
    index_vocab(m);
    m.table = parameter_table(c, m.vocab.size());
    m.weights.assign(m.table.back().offset + m.table.back().size, 0.0f);
    rng r(seed);
    const double residual_std = 0.02 / std::sqrt(2.0 * c.n_layer);
    for (const param& p : m.table) {
        float* w = m.weights.data() + p.offset;
        const bool ln_weight = p.name.size() > 7 && p.name.compare(p.name.size() - 7, 7, ".weight") == 0;
        if (ln_weight) std::fill(w, w + p.size, 1.0f);
        else if (p.shape.size() == 2) {
            const bool residual = p.name.find("attn.wo") != std::string::npos || p.name.find("mlp.w2") != std::string::npos;
            const double std_dev = residual ? residual_std : 0.02;
            for (std::size_t i = 0; i < p.size; ++i) w[i] = static_cast<float>(r.normal() * std_dev);
        }
    }
    return m;
}

// ---- [SECTION] UTF-8 ----

namespace {

/// Calls on_char with each code point of valid UTF-8 text, or refuses the text naming `what` and the byte.
template <class F>
void walk_utf8(std::string_view s, const char* what, F on_char) {
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char b = static_cast<unsigned char>(s[i]);
        int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + static_cast<std::size_t>(len) > s.size())
            throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) + ").");
        char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < len; ++k) {
            const unsigned char cb = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((cb >> 6) != 2) throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) + ").");
            c = (c << 6) | (cb & 0x3F);
        }
        const char32_t min_of[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < min_of[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            throw spec_error(std::string(what) + " is not valid UTF-8 (byte " + std::to_string(i) +
                             ": an overlong form, a surrogate or past U+10FFFF).");
        on_char(c);
        i += static_cast<std::size_t>(len);
    }
}

}  // namespace

std::u32string decode_utf8(std::string_view s, const char* what) {
    std::u32string out;
    out.reserve(s.size());
    walk_utf8(s, what, [&](char32_t c) { out.push_back(c); });
    return out;
}

std::size_t count_chars(std::string_view s, const char* what) {
    std::size_t n = 0;
    walk_utf8(s, what, [&](char32_t) { ++n; });
    return n;
}

std::string encode_utf8(char32_t c) {
    std::string s;
    if (c < 0x80) s += static_cast<char>(c);
    else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

tokens tokenize(const model& m, std::string_view utf8, std::size_t max_chars) {
    const std::u32string text = decode_utf8(utf8, "the text");
    if (text.empty()) throw spec_error("the text is empty: give the model at least one character.");
    if (text.size() > max_chars)
        throw spec_error("the text has " + std::to_string(text.size()) + " characters but the model reads at most " +
                         std::to_string(max_chars) + " at once (its context, n_ctx).");
    tokens t;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto it = m.ids.find(text[i]);
        t.ids.push_back(it == m.ids.end() ? 0 : it->second);
        if (it == m.ids.end()) t.unknown.push_back(i);
        t.chars.push_back(encode_utf8(text[i]));
    }
    return t;
}

std::vector<int> to_ids(const model& m, const std::u32string& text) {
    std::vector<int> ids(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto it = m.ids.find(text[i]);
        ids[i] = it == m.ids.end() ? 0 : it->second;
    }
    return ids;
}

// ---- [SECTION] the portable random stream ----

std::uint64_t rng::next() {  // splitmix64 (Steele, Lea and Flood): the same stream on every platform
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
double rng::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
std::size_t rng::below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
double rng::normal() {  // Box–Muller, one value a call: simple and the same everywhere
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace attn::lm
