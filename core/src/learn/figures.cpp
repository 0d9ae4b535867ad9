// The guided path's figures (attn/figures.hpp, docs/figures.md): requests read and refused by name, then
// the arithmetic in double, numbered passes as in compute_trace.
//
// [SECTION] the generator
// [SECTION] reading requests
// [SECTION] rnn-limits
// [SECTION] why-sqrt-dk
// [SECTION] cnn-rnn-attention
// [SECTION] by name
#include "attn/figures.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>
#include <string_view>

#include "attn/kernels.hpp"
#include "attn/limits.hpp"
#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "io/json_read.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace attn {

using namespace json_read;

// [SECTION] the generator

std::uint64_t figure_random::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double figure_random::uniform() { return double(next() >> 11) * 0x1p-53; }

double figure_random::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u1 = uniform();
    const double u2 = uniform();
    if (u1 == 0) u1 = 0x1p-53;  // ln 0: the smallest uniform above it instead
    const double r = std::sqrt(-2 * std::log(u1)), angle = 6.283185307179586476925286766559 * u2;  // 2π
    spare_ = r * std::sin(angle);
    has_spare_ = true;
    return r * std::cos(angle);
}

namespace {

/// A matrix of normals × scale, row-major, from the stream.
dmatrix normals(figure_random& random, std::size_t rows, std::size_t cols, double scale) {
    dmatrix m(rows, cols);
    for (double& v : m.data) v = random.normal() * scale;
    return m;
}

// [SECTION] reading requests

/// The request as an object with only the known fields; the name is "the rnn-limits request".
void check_request(const json& j, const std::string& name, const std::set<std::string>& known) {
    require_object(j, "the " + name + " request");
    refuse_unknown(j, "the " + name + " request", known);
}

std::size_t whole(const json& j, const char* field, std::size_t lo, std::size_t hi) {
    return std::size_t(read_whole(j, field, static_cast<long long>(lo), static_cast<long long>(hi)));
}

std::uint64_t read_seed(const json& j) {
    return std::uint64_t(read_whole(j, "seed", 0, std::numeric_limits<int>::max()));
}

/// Refuses with the sentence its parts make: one call where a chain of std::string + was 1.7 KB of wasm.
[[noreturn]] void refuse(std::initializer_list<std::string_view> parts) {
    std::string sentence;
    for (std::string_view part : parts) sentence += part;
    fail(sentence);
}

std::string num(std::uint64_t v) { return std::to_string(v); }

/// A list of whole numbers, each from lo to hi, 1 to max_entries of them.
std::vector<std::size_t> whole_list(const json& j, const std::string& field, std::size_t lo, std::size_t hi, std::size_t max_entries) {
    if (!j.is_array() || j.empty())
        refuse({field, " must be an array of 1 to ", num(max_entries), " whole numbers, each from ", num(lo), " to ", num(hi), "."});
    if (j.size() > max_entries)
        refuse({field, " has ", num(j.size()), " entries; at most ", num(max_entries), "."});
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(std::size_t(read_whole(j[i], entry_at(field, i), static_cast<long long>(lo), static_cast<long long>(hi))));
    return out;
}

/// "2^22 (4194304)" for a power of two.
std::string limit_text(std::uint64_t limit) {
    int e = 0;
    while ((std::uint64_t{1} << e) < limit) ++e;
    std::string text = "2^";
    return text.append(std::to_string(e)).append(" (").append(std::to_string(limit)).append(")");
}

// [SECTION] rnn-limits

double frobenius(const dmatrix& m) {
    double sum = 0;
    for (double v : m.data) sum += v * v;
    return std::sqrt(sum);
}

}  // namespace

rnn_weights rnn_draw_weights(std::size_t d, std::size_t hidden, std::uint64_t seed, double gain) {
    figure_random random(seed);
    rnn_weights w;
    w.w_x = normals(random, d, hidden, gain / std::sqrt(double(d)));
    w.w_h = normals(random, hidden, hidden, gain / std::sqrt(double(hidden)));
    w.b.assign(hidden, 0.0);
    return w;
}

namespace {

/// Every state h_t (n, hidden) of h_t = tanh(x_t·W_x + h_{t−1}·W_h + b), h_{−1} = 0.
dmatrix rnn_states(const dmatrix& x, const rnn_weights& w) {
    const std::size_t n = x.rows, d = x.cols, H = w.w_h.rows;
    dmatrix h(n, H);
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t k = 0; k < H; ++k) {
            double a = w.b[k];
            for (std::size_t c = 0; c < d; ++c) a += x(t, c) * w.w_x(c, k);
            if (t > 0)
                for (std::size_t m = 0; m < H; ++m) a += h(t - 1, m) * w.w_h(m, k);
            h(t, k) = std::tanh(a);
        }
    return h;
}

}  // namespace

std::vector<double> rnn_last_state(const dmatrix& x, const rnn_weights& w) {
    const dmatrix h = rnn_states(x, w);
    return std::vector<double>(h.data.end() - std::ptrdiff_t(h.cols), h.data.end());
}

std::vector<dmatrix> rnn_jacobians(const dmatrix& x, const rnn_weights& w) {
    const std::size_t n = x.rows, d = x.cols, H = w.w_h.rows;
    // pass 1: the forward states h (n, H)
    const dmatrix h = rnn_states(x, w);
    // pass 2: back through time. G = ∂h_{n−1}/∂h_t (H, H), from I at t = n − 1; D = G·diag(1 − h_t²) = ∂h_{n−1}/∂a_t;
    // then ∂h_{n−1}/∂x_t = D·W_xᵀ (H, d) and G for t − 1 = D·W_hᵀ
    std::vector<dmatrix> out(n);
    dmatrix g(H, H), dd(H, H);
    for (std::size_t i = 0; i < H; ++i) g(i, i) = 1;
    for (std::size_t t = n; t-- > 0;) {
        for (std::size_t i = 0; i < H; ++i)
            for (std::size_t k = 0; k < H; ++k) dd(i, k) = g(i, k) * (1 - h(t, k) * h(t, k));
        dmatrix j(H, d);
        for (std::size_t i = 0; i < H; ++i)
            for (std::size_t k = 0; k < H; ++k)
                for (std::size_t c = 0; c < d; ++c) j(i, c) += dd(i, k) * w.w_x(c, k);
        out[t] = std::move(j);
        if (t == 0) break;
        for (std::size_t i = 0; i < H; ++i)
            for (std::size_t m = 0; m < H; ++m) {
                double sum = 0;
                for (std::size_t k = 0; k < H; ++k) sum += dd(i, k) * w.w_h(m, k);
                g(i, m) = sum;
            }
    }
    return out;
}

namespace {

/// The last query row's softmax weights α (n) over s_k = x_{n−1}·x_k/√d, and c_{n−1} = Σ_k α_k x_k (d).
void attention_last(const dmatrix& x, std::vector<double>& alpha, std::vector<double>& c) {
    const std::size_t n = x.rows, d = x.cols, q = n - 1;
    const double scale = 1 / std::sqrt(double(d));
    // pass 1: the scores and their max
    alpha.assign(n, 0.0);
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < n; ++k) {
        double s = 0;
        for (std::size_t b = 0; b < d; ++b) s += x(q, b) * x(k, b);
        alpha[k] = s * scale;
        top = std::max(top, alpha[k]);
    }
    // pass 2: the stable softmax
    double sum = 0;
    for (double& a : alpha) sum += (a = std::exp(a - top));
    for (double& a : alpha) a /= sum;
    // pass 3: the weighted sum
    c.assign(d, 0.0);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t b = 0; b < d; ++b) c[b] += alpha[k] * x(k, b);
}

}  // namespace

std::vector<double> attention_last_row(const dmatrix& x) {
    std::vector<double> alpha, c;
    attention_last(x, alpha, c);
    return c;
}

std::vector<dmatrix> attention_jacobians(const dmatrix& x) {
    const std::size_t n = x.rows, d = x.cols, q = n - 1;
    const double scale = 1 / std::sqrt(double(d));
    std::vector<double> alpha, c;
    attention_last(x, alpha, c);
    // u_k = α_k (x_k − c) (n, d): Σ_j x_j ∂α_j/∂s_k, the softmax's Jacobian diag(α) − ααᵀ applied to the values
    dmatrix u(n, d);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t a = 0; a < d; ++a) u(k, a) = alpha[k] * (x(k, a) - c[a]);
    // ∂s_k/∂x_t = (δ_kt x_q + δ_qt x_k)/√d: key t moves its own score; the query row moves every score
    std::vector<dmatrix> out(n);
    for (std::size_t t = 0; t < n; ++t) {
        dmatrix j(d, d);
        for (std::size_t a = 0; a < d; ++a)
            for (std::size_t b = 0; b < d; ++b) j(a, b) = (a == b ? alpha[t] : 0.0) + u(t, a) * x(q, b) * scale;
        if (t == q)
            for (std::size_t k = 0; k < n; ++k)
                for (std::size_t a = 0; a < d; ++a)
                    for (std::size_t b = 0; b < d; ++b) j(a, b) += u(k, a) * x(k, b) * scale;
        out[t] = std::move(j);
    }
    return out;
}

rnn_limits_request rnn_limits_request_from_json(const json& j) {
    check_request(j, "rnn-limits", {"x", "hidden", "seed", "gain"});
    rnn_limits_request r;
    if (!j.contains("x"))
        refuse({"the rnn-limits request needs \"x\": the sentence's word vectors, 2 to ", num(max_figure_rnn_positions), " rows of 1 to ",
                num(max_figure_rnn_width), " numbers."});
    const matrix checked = read_matrix(j["x"], "x");  // every refusal of a matrix, as a spec's x
    const std::size_t n = checked.shape(0), d = checked.shape(1);
    if (n < 2 || n > max_figure_rnn_positions)
        refuse({"x has ", num(n), n == 1 ? " row" : " rows", " but rnn-limits needs 2 to ", num(max_figure_rnn_positions), " (one a word)."});
    if (d > max_figure_rnn_width)
        refuse({"x has rows of ", num(d), " numbers; rnn-limits takes at most ", num(max_figure_rnn_width), "."});
    r.x = dmatrix(n, d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < d; ++c) r.x(i, c) = j["x"][i][c].get<double>();  // the numbers as written, not as floats
    if (j.contains("hidden")) r.hidden = whole(j["hidden"], "hidden", 1, max_figure_rnn_width);
    if (j.contains("seed")) r.seed = read_seed(j["seed"]);
    if (j.contains("gain")) {
        const json& g = j["gain"];
        if (!g.is_number() || !std::isfinite(g.get<double>()) || !(g.get<double>() > 0) || g.get<double>() > max_figure_gain)
            refuse({"gain is ", user_text(g.dump()), " but must be a number above 0 and at most ", num(std::uint64_t(max_figure_gain)), "."});
        r.gain = g.get<double>();
    }
    return r;
}

json rnn_limits(const rnn_limits_request& r) {
    const std::size_t n = r.x.rows, d = r.x.cols;
    // pass 1: the RNN's Jacobians, back through time
    const std::vector<dmatrix> rnn = rnn_jacobians(r.x, rnn_draw_weights(d, r.hidden, r.seed, r.gain));
    // pass 2: self-attention's, one step
    const std::vector<dmatrix> attention = attention_jacobians(r.x);
    // pass 3: their sizes by distance from the last word
    std::vector<double> influence_rnn, influence_attention;
    std::vector<std::size_t> distance;
    for (std::size_t t = 0; t < n; ++t) {
        influence_rnn.push_back(frobenius(rnn[t]));
        influence_attention.push_back(frobenius(attention[t]));
        distance.push_back(n - 1 - t);
    }
    // written field by field: an initializer list of nine pairs was 2 KB of wasm in the learn part
    json out = json::object(), steps = json::object();
    out["influence_rnn"] = influence_rnn;
    out["influence_attention"] = influence_attention;
    out["distance"] = distance;
    steps["rnn"] = n;
    steps["attention"] = 1;
    out["steps"] = std::move(steps);
    out["n"] = n;
    out["d"] = d;
    out["hidden"] = r.hidden;
    out["seed"] = r.seed;
    out["gain"] = r.gain;
    return out;
}

// [SECTION] why-sqrt-dk

softmax_facts softmax_row_facts(const std::vector<double>& scores) {
    const std::size_t n = scores.size();
    const std::size_t top = std::size_t(std::max_element(scores.begin(), scores.end()) - scores.begin());
    std::vector<double> alpha(n);
    double sum = 0;
    for (std::size_t k = 0; k < n; ++k) sum += (alpha[k] = std::exp(scores[k] - scores[top]));
    for (double& a : alpha) a /= sum;
    // ‖diag(α) − ααᵀ‖_F² = Σ_j α_j²(1 − α_j)² + Σ_j α_j² Σ_{k≠j} α_k². Near a one-hot row 1 − α_top and Σ_{k≠top} α_k²
    // would cancel if taken as differences: both are summed from the other weights instead
    double others = 0, others_sq = 0;
    for (std::size_t k = 0; k < n; ++k)
        if (k != top) others += alpha[k], others_sq += alpha[k] * alpha[k];
    const double at = alpha[top], at_sq = at * at;
    double sq = at_sq * others * others + at_sq * others_sq;  // the top row's diagonal and off-diagonal entries
    for (std::size_t k = 0; k < n; ++k)
        if (k != top) {
            const double a_sq = alpha[k] * alpha[k];
            sq += a_sq * (1 - alpha[k]) * (1 - alpha[k]) + a_sq * (at_sq + (others_sq - a_sq));
        }
    return {at, std::sqrt(sq)};
}

why_sqrt_dk_request why_sqrt_dk_request_from_json(const json& j) {
    check_request(j, "why-sqrt-dk", {"d_k", "n_keys", "trials", "seed"});
    why_sqrt_dk_request r;
    if (j.contains("d_k")) r.d_k = whole_list(j["d_k"], "d_k", 1, max_figure_d_k, max_figure_d_k_entries);
    if (j.contains("n_keys")) r.n_keys = whole(j["n_keys"], "n_keys", 2, max_figure_keys);
    if (j.contains("trials")) r.trials = whole(j["trials"], "trials", 1, max_figure_trials);
    if (j.contains("seed")) r.seed = read_seed(j["seed"]);
    std::uint64_t width = 0;
    for (std::size_t d_k : r.d_k) width += d_k;
    const std::uint64_t draws = std::uint64_t(r.trials) * (r.n_keys + 1) * width;
    if (draws > max_figure_normals)
        refuse({"the why-sqrt-dk request draws trials × (n_keys + 1) × the sum of d_k = ", num(draws), " normals, over the limit of ",
                limit_text(max_figure_normals), ": ask for fewer trials, fewer keys or smaller d_k."});
    return r;
}

json why_sqrt_dk(const why_sqrt_dk_request& r) {
    figure_random random(r.seed);
    struct means {
        std::vector<double> max_weight, grad_norm, score_std;
    } unscaled, scaled;
    const auto means_json = [](const means& m) {
        json out = json::object();
        out["max_weight"] = m.max_weight;
        out["grad_norm"] = m.grad_norm;
        out["score_std"] = m.score_std;
        return out;
    };
    std::vector<double> q, s(r.n_keys), s_scaled(r.n_keys);
    for (std::size_t d_k : r.d_k) {
        const double scale = 1 / std::sqrt(double(d_k)), trials = double(r.trials);
        double sums[2][3] = {};  // [unscaled, scaled][max_weight, grad_norm, score_std]
        for (std::size_t trial = 0; trial < r.trials; ++trial) {
            // pass 1: q (d_k) then each key k_j (d_k), drawn; s_j = q·k_j as it is drawn
            q.resize(d_k);
            for (double& v : q) v = random.normal();
            for (std::size_t j = 0; j < r.n_keys; ++j) {
                double dot = 0;
                for (std::size_t c = 0; c < d_k; ++c) dot += q[c] * random.normal();
                s[j] = dot;
                s_scaled[j] = dot * scale;
            }
            // pass 2: the softmax of each, and the scores' spread
            for (int which = 0; which < 2; ++which) {
                const std::vector<double>& scores = which ? s_scaled : s;
                const softmax_facts f = softmax_row_facts(scores);
                double mean = 0, var = 0;
                for (double v : scores) mean += v;
                mean /= double(scores.size());
                for (double v : scores) var += (v - mean) * (v - mean);
                sums[which][0] += f.max_weight;
                sums[which][1] += f.grad_norm;
                sums[which][2] += std::sqrt(var / double(scores.size()));
            }
        }
        // pass 3: the means over trials
        for (int which = 0; which < 2; ++which) {
            means& m = which ? scaled : unscaled;
            m.max_weight.push_back(sums[which][0] / trials);
            m.grad_norm.push_back(sums[which][1] / trials);
            m.score_std.push_back(sums[which][2] / trials);
        }
    }
    json out = json::object();
    out["d_k"] = r.d_k;
    out["unscaled"] = means_json(unscaled);
    out["scaled"] = means_json(scaled);
    out["n_keys"] = r.n_keys;
    out["trials"] = r.trials;
    out["seed"] = r.seed;
    return out;
}

// [SECTION] cnn-rnn-attention

cnn_rnn_attention_request cnn_rnn_attention_request_from_json(const json& j) {
    check_request(j, "cnn-rnn-attention", {"n", "d", "kernel"});
    cnn_rnn_attention_request r;
    if (j.contains("n")) r.n = whole_list(j["n"], "n", 2, max_figure_table_n, max_figure_table_entries);
    if (j.contains("d")) r.d = whole(j["d"], "d", 1, max_figure_table_d);
    if (j.contains("kernel")) {
        r.kernel = whole(j["kernel"], "kernel", 3, max_figure_kernel);
        if (r.kernel % 2 == 0)
            refuse({"kernel is ", num(r.kernel), " but must be odd (3, 5, 7 or 9): a window centred on its word."});
    }
    std::uint64_t work = 0;
    for (std::size_t n : r.n) {
        const std::uint64_t n64 = n, d = r.d;
        work += n64 * 2 * d * d + n64 * r.kernel * d * d + n64 * n64 * (2 * d + 16);  // an exp as 16 multiply-adds
    }
    if (work > max_figure_multiply_adds)
        refuse({"the cnn-rnn-attention request measures about ", num(work),
                " multiply-adds (one layer of each kind, summed over n, an exp counted as 16), over the limit of ",
                limit_text(max_figure_multiply_adds), ": ask for fewer or smaller n, or a smaller d."});
    return r;
}

namespace {

using fmatrix = std::vector<float>;  // row-major float buffers: the layers timed as the core's kernels run

fmatrix float_normals(figure_random& random, std::size_t count, double scale) {
    fmatrix m(count);
    for (float& v : m) v = float(random.normal() * scale);
    return m;
}

/// One tanh RNN layer over x (n, d), hidden = d: pass 1 x·W_x for every position at once, pass 2 the
/// recurrence, one position after another (the n sequential steps).
void rnn_layer(float* h, float* xw, const float* x, const float* w_x, const float* w_h, std::size_t n, std::size_t d) {
    simd::matmul(xw, x, w_x, n, d, d);
    std::vector<float> carried(d);
    for (std::size_t t = 0; t < n; ++t) {
        float* row = h + t * d;
        if (t > 0) simd::matmul(carried.data(), h + (t - 1) * d, w_h, 1, d, d);
        for (std::size_t k = 0; k < d; ++k) row[k] = std::tanh(xw[t * d + k] + (t > 0 ? carried[k] : 0.0f));
    }
}

/// One conv1d layer (d → d channels, zero padding, same length): out_t = Σ_o x_{t+o−r}·W_o, r = kernel/2.
void conv_layer(float* out, float* part, const float* x, const float* w, std::size_t n, std::size_t d, std::size_t kernel) {
    std::fill(out, out + n * d, 0.0f);
    const std::ptrdiff_t r = std::ptrdiff_t(kernel / 2), rows = std::ptrdiff_t(n);
    for (std::size_t o = 0; o < kernel; ++o) {
        const std::ptrdiff_t shift = std::ptrdiff_t(o) - r;  // out row t reads x row t + shift
        const std::ptrdiff_t from = std::max<std::ptrdiff_t>(0, shift), to = std::min(rows, rows + shift);
        if (to <= from) continue;
        simd::matmul(part, x + from * std::ptrdiff_t(d), w + o * d * d, std::size_t(to - from), d, d);
        float* into = out + (from - shift) * std::ptrdiff_t(d);
        for (std::size_t k = 0; k < std::size_t(to - from) * d; ++k) into[k] += part[k];
    }
}

/// The seeded data and the buffers of one n: x (n, d), W_x and W_h (d, d), the convolution's W (kernel, d, d);
/// out, tmp (n, d); scores, exp (n, n); row_max, row_sum (n).
struct layer_data {
    std::size_t n, d, kernel;
    fmatrix x, w_x, w_h, w_conv, out, tmp, scores, exp, row_max, row_sum;
};

enum class layer { rnn, cnn, attention };

void run_layer(layer kind, layer_data& b) {
    if (kind == layer::rnn) rnn_layer(b.out.data(), b.tmp.data(), b.x.data(), b.w_x.data(), b.w_h.data(), b.n, b.d);
    else if (kind == layer::cnn) conv_layer(b.out.data(), b.tmp.data(), b.x.data(), b.w_conv.data(), b.n, b.d, b.kernel);
    else
        attention_forward(b.out.data(), b.scores.data(), b.exp.data(), b.scores.data(), b.row_max.data(), b.row_sum.data(), b.x.data(),
                          b.x.data(), b.x.data(), b.n, b.d, simd_kernels());
}

/// Microseconds on a monotonic clock: std::chrono::steady_clock, or in WebAssembly the clock it reads there
/// (emscripten_get_now, performance.now()) without libc++'s system_error and its error strings (3 KB of the learn part).
double now_microseconds() {
#ifdef __EMSCRIPTEN__
    return emscripten_get_now() * 1000;
#else
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

/// The best of 3 runs of one layer, in microseconds per call: a run repeats the layer until 200 µs have passed,
/// so a clock that ticks coarsely (a browser's, 5 to 100 µs) still measures small n.
double best_microseconds(layer kind, layer_data& b) {
    double best = std::numeric_limits<double>::infinity();
    for (int run = 0; run < 3; ++run) {
        const double start = now_microseconds();
        double elapsed = 0;
        std::size_t calls = 0;
        do {
            run_layer(kind, b);
            ++calls;
            elapsed = now_microseconds() - start;
        } while (elapsed < 200 && calls < (std::size_t{1} << 20));
        best = std::min(best, elapsed / double(calls));
    }
    static volatile float sink = 0;  // the layer's result is read, so no run can be left out
    sink = sink + b.out.back();
    return best;
}

/// {"rnn": rnn, "cnn": cnn, "attention": attention}
template <class T>
json per_kind(T rnn, T cnn, T attention) {
    json out = json::object();
    out["rnn"] = rnn;
    out["cnn"] = cnn;
    out["attention"] = attention;
    return out;
}

}  // namespace

json cnn_rnn_attention(const cnn_rnn_attention_request& r) {
    using u64 = std::uint64_t;
    const u64 d = r.d, kernel = r.kernel;
    json rows = json::array();
    figure_random random(1);
    for (std::size_t n_size : r.n) {
        const u64 n = n_size;
        // pass 1: what each needs, counted. A plain conv stack widens its reach by kernel − 1 a layer
        const u64 layers = (n - 1 + kernel - 2) / (kernel - 1);
        json row = json::object();
        row["n"] = n;
        row["path_length"] = per_kind<u64>(n - 1, layers, 1);
        row["sequential_steps"] = per_kind<u64>(n, layers, 1);
        row["multiply_adds"] = per_kind<u64>(n * (d * d + d * d), n * kernel * d * d, 2 * n * n * d);
        row["memory_floats"] = per_kind<u64>(d, n * d, n * n);
        // pass 2: seeded data
        const double scale = 1 / std::sqrt(double(d));
        layer_data b{n_size, r.d, r.kernel, float_normals(random, n * d, 1), float_normals(random, d * d, scale),
                     float_normals(random, d * d, scale), float_normals(random, kernel * d * d, 1 / std::sqrt(double(kernel * d))),
                     fmatrix(n * d), fmatrix(n * d), fmatrix(n * n), fmatrix(n * n), fmatrix(n), fmatrix(n)};
        // pass 3: one layer of each, timed
        row["microseconds"] = per_kind<double>(best_microseconds(layer::rnn, b), best_microseconds(layer::cnn, b),
                                               best_microseconds(layer::attention, b));
        rows.push_back(std::move(row));
    }
    json out = json::object();
    out["n"] = r.n;
    out["d"] = r.d;
    out["kernel"] = r.kernel;
    out["rows"] = std::move(rows);
    return out;
}

// [SECTION] by name

const std::vector<std::string>& figure_ids() {
    static const std::vector<std::string> ids{"rnn-limits", "why-sqrt-dk", "cnn-rnn-attention"};
    return ids;
}

// not inlined into the wasm export (compiled -O3): this file is compiled for size there (core/CMakeLists.txt)
[[gnu::noinline]] json figure_json(std::string_view name, std::string_view request_text) {
    const bool blank = request_text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    const auto request = [&] { return blank ? json::object() : parse_spec_json(request_text); };
    if (name == "rnn-limits") return rnn_limits(rnn_limits_request_from_json(request()));
    if (name == "why-sqrt-dk") return why_sqrt_dk(why_sqrt_dk_request_from_json(request()));
    if (name == "cnn-rnn-attention") return cnn_rnn_attention(cnn_rnn_attention_request_from_json(request()));
    refuse({"\"", user_text(name), "\" is not a figure: rnn-limits, why-sqrt-dk or cnn-rnn-attention."});
}

}  // namespace attn
