// The guided path's figures (attn/figures.hpp): the generator's draws pinned, both Jacobians of rnn-limits
// against central finite differences, softmax's Jacobian norm against the explicit matrix, why-sqrt-dk's
// trend, the cnn-rnn-attention table's counts, and the refusals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "attn/figures.hpp"
#include "attn/spec.hpp"
#include "check.hpp"

namespace {

using attn::dmatrix;
using attn::json;

/// The sentence figure_json throws for a request, or "" when it is answered.
std::string figure_refusal(const std::string& name, const std::string& text) {
    try {
        attn::figure_json(name, text);
    } catch (const attn::spec_error& e) {
        return e.what();
    }
    return "";
}

/// x (n, d) of normals from the figures' own generator (any seeded numbers would do).
dmatrix random_x(std::size_t n, std::size_t d, std::uint64_t seed, double scale) {
    attn::figure_random random(seed);
    dmatrix x(n, d);
    for (double& v : x.data) v = random.normal() * scale;
    return x;
}

/// Every ∂f/∂x_t[b] by central differences (h = 1e-5) against the analytic Jacobians (rows: f's entries),
/// failing with the first entry off by more than tol·(1 + |value|) and the largest difference.
template <class F>
void check_jacobians(const std::vector<dmatrix>& analytic, const dmatrix& x, F&& f, double tol, const std::string& what) {
    const double h = 1e-5;
    double worst = 0;
    int misses = 0;
    for (std::size_t t = 0; t < x.rows; ++t)
        for (std::size_t b = 0; b < x.cols; ++b) {
            dmatrix up = x, down = x;
            up(t, b) += h;
            down(t, b) -= h;
            const std::vector<double> fu = f(up), fd = f(down);
            REQUIRE(fu.size() == analytic[t].rows);
            for (std::size_t a = 0; a < fu.size(); ++a) {
                const double numeric = (fu[a] - fd[a]) / (2 * h), exact = analytic[t](a, b);
                const double diff = std::fabs(numeric - exact);
                worst = std::max(worst, diff);
                if (!(diff <= tol * (1 + std::fabs(exact))) && misses++ == 0)
                    FAIL_CHECK(what << ": d f[" << a << "]/d x[" << t << "][" << b << "] is " << exact << " but finite differences give "
                                    << numeric);
            }
        }
    CHECK_MESSAGE(misses == 0, what << ": " << misses << " entries differ; the largest difference is " << worst);
}

std::vector<double> numbers(const json& j) { return j.get<std::vector<double>>(); }

}  // namespace

TEST_CASE("figures.generator: splitmix64 and Box-Muller draws, pinned") {
    // splitmix64's published sequence for seed 1234567
    attn::figure_random a(1234567);
    CHECK(a.next() == 6457827717110365317ull);
    CHECK(a.next() == 3203168211198807973ull);
    CHECK(a.next() == 9817491932198370423ull);
    // seed 1: the draws, the first uniform, and the first four normals (z0, z1 of two pairs), as Python computes them
    attn::figure_random b(1);
    CHECK(b.next() == 10451216379200822465ull);
    CHECK(b.next() == 13757245211066428519ull);
    CHECK(attn::figure_random(1).uniform() == double(10451216379200822465ull >> 11) * 0x1p-53);
    attn::figure_random c(1);
    const double pinned[] = {-0.028249746095854702, -1.0656176484143263, -0.22791952286763514, 0.08309416847150106};
    for (double z : pinned) CHECK(c.normal() == doctest::Approx(z).epsilon(1e-14));
}

TEST_CASE("figures.rnn_limits: ∂h_{n−1}/∂x_t (back through time) = central finite differences") {
    for (const auto& [n, d, hidden, gain] : std::vector<std::tuple<std::size_t, std::size_t, std::size_t, double>>{
             {6, 3, 5, 0.9}, {9, 4, 7, 1.7}, {2, 1, 1, 0.5}, {12, 2, 8, 3.0}}) {
        const dmatrix x = random_x(n, d, 40 + n, 0.8);
        const attn::rnn_weights w = attn::rnn_draw_weights(d, hidden, 7, gain);
        check_jacobians(attn::rnn_jacobians(x, w), x, [&](const dmatrix& v) { return attn::rnn_last_state(v, w); }, 1e-7,
                        "rnn n=" + std::to_string(n) + " gain=" + std::to_string(gain));
    }
}

TEST_CASE("figures.rnn_limits: ∂c_{n−1}/∂x_t of self-attention (softmax's Jacobian) = central finite differences") {
    for (const auto& [n, d, scale] : std::vector<std::tuple<std::size_t, std::size_t, double>>{{5, 3, 1.0}, {8, 4, 2.0}, {2, 1, 1.5}, {16, 6, 0.7}}) {
        const dmatrix x = random_x(n, d, 90 + n, scale);
        check_jacobians(attn::attention_jacobians(x), x, [](const dmatrix& v) { return attn::attention_last_row(v); }, 1e-7,
                        "attention n=" + std::to_string(n));
    }
}

TEST_CASE("figures.rnn_limits: the request's answer") {
    json x = json::array();
    const dmatrix values = random_x(24, 4, 3, 1.0);
    for (std::size_t i = 0; i < 24; ++i) {
        json row = json::array();
        for (std::size_t c = 0; c < 4; ++c) row.push_back(values(i, c));
        x.push_back(row);
    }
    const json out = attn::figure_json("rnn-limits", json{{"x", x}, {"hidden", 16}, {"seed", 3}}.dump());
    const std::vector<double> rnn = numbers(out["influence_rnn"]), attention = numbers(out["influence_attention"]);
    REQUIRE(rnn.size() == 24);
    REQUIRE(attention.size() == 24);
    CHECK(out["distance"][0] == 23);
    CHECK(out["distance"][23] == 0);
    CHECK(out["steps"] == json{{"rnn", 24}, {"attention", 1}});
    CHECK(out["hidden"] == 16);
    CHECK(out["seed"] == 3);
    CHECK(out["gain"] == 0.9);
    // gain 0.9: the first word's pull on the last state has all but vanished; attention reaches it in one step
    CHECK(rnn[0] < 1e-3 * rnn[23]);
    CHECK(attention[0] > 1e-3 * attention[23]);
    // the same weights as rnn_draw_weights, the same norms as the Jacobians
    const auto jac = attn::rnn_jacobians(values, attn::rnn_draw_weights(4, 16, 3, 0.9));
    double sq = 0;
    for (double v : jac[5].data) sq += v * v;
    CHECK(rnn[5] == doctest::Approx(std::sqrt(sq)).epsilon(1e-12));
}

TEST_CASE("figures.why_sqrt_dk: softmax's Jacobian norm = the explicit ‖diag(α) − ααᵀ‖_F, even when α is nearly one-hot") {
    attn::figure_random random(5);
    for (double spread : {0.1, 1.0, 5.0, 20.0, 60.0}) {
        std::vector<double> s(11);
        for (double& v : s) v = random.normal() * spread;
        std::vector<double> alpha(s.size());
        double top = s[0], sum = 0;
        for (double v : s) top = std::max(top, v);
        for (std::size_t k = 0; k < s.size(); ++k) sum += (alpha[k] = std::exp(s[k] - top));
        for (double& a : alpha) a /= sum;
        double sq = 0, max_weight = 0;
        for (std::size_t j = 0; j < s.size(); ++j) {
            max_weight = std::max(max_weight, alpha[j]);
            for (std::size_t k = 0; k < s.size(); ++k) {
                const double e = (j == k ? alpha[j] : 0.0) - alpha[j] * alpha[k];
                sq += e * e;
            }
        }
        const attn::softmax_facts f = attn::softmax_row_facts(s);
        CHECK(f.max_weight == doctest::Approx(max_weight).epsilon(1e-14));
        // the explicit matrix's entries are exact to about 1e-16 each
        CHECK(std::fabs(f.grad_norm - std::sqrt(sq)) <= 1e-15 + 1e-12 * std::sqrt(sq));
    }
    // two equal scores: α = (½, ½), J = [[¼, −¼], [−¼, ¼]], ‖J‖_F = ½
    CHECK(attn::softmax_row_facts({3.0, 3.0}).grad_norm == doctest::Approx(0.5).epsilon(1e-15));
}

TEST_CASE("figures.why_sqrt_dk: unscaled, the largest weight goes to 1 and the gradient to 0 as d_k grows; scaled, both stay") {
    const json out = attn::figure_json("why-sqrt-dk", "");
    CHECK(out["d_k"] == json{4, 8, 16, 32, 64, 128, 256, 512});
    CHECK(out["n_keys"] == 16);
    CHECK(out["trials"] == 200);
    CHECK(out["seed"] == 1);
    const std::vector<double> max_u = numbers(out["unscaled"]["max_weight"]), grad_u = numbers(out["unscaled"]["grad_norm"]),
                              std_u = numbers(out["unscaled"]["score_std"]), max_s = numbers(out["scaled"]["max_weight"]),
                              grad_s = numbers(out["scaled"]["grad_norm"]), std_s = numbers(out["scaled"]["score_std"]);
    REQUIRE(max_u.size() == 8);
    MESSAGE("unscaled max " << max_u.back() << " grad " << grad_u.back() << "; scaled max " << max_s.back() << " grad " << grad_s.back());
    // at d_k = 512 (seed 1: unscaled 0.948 and 0.071; scaled 0.245 and 0.304; at d_k = 4 both ≈ 0.24-0.43 and 0.30-0.32)
    CHECK(max_u.back() > 0.9);
    CHECK(grad_u.back() < 0.1);
    CHECK(max_s.back() < 0.35);
    CHECK(grad_s.back() > 0.25);
    for (std::size_t i = 0; i + 1 < max_u.size(); ++i) {
        CHECK(max_u[i + 1] > max_u[i]);  // unscaled: ever more peaked
        CHECK(grad_u[i + 1] < grad_u[i]);
        CHECK(std_u[i + 1] > 1.3 * std_u[i]);  // about √2 a doubling: the spread grows as √d_k
    }
    for (std::size_t i = 0; i < max_s.size(); ++i) {  // scaled: the same at every d_k, within the trials' noise
        CHECK(std::fabs(max_s[i] - max_s.back()) < 0.06);
        CHECK(std::fabs(grad_s[i] - grad_s.back()) < 0.06);
        CHECK(std::fabs(std_s[i] - 0.93) < 0.1);  // the unit normals' spread, less a little: the mean of 16 is taken out
        CHECK(std_s[i] == doctest::Approx(std_u[i] / std::sqrt(double(out["d_k"][i].get<int>()))).epsilon(1e-12));
    }
    // the same seed, the same numbers; another seed, others
    CHECK(attn::figure_json("why-sqrt-dk", R"({"d_k": [16], "trials": 20, "seed": 9})") ==
          attn::figure_json("why-sqrt-dk", R"({"d_k": [16], "trials": 20, "seed": 9})"));
    CHECK(attn::figure_json("why-sqrt-dk", R"({"d_k": [16], "trials": 20, "seed": 9})") !=
          attn::figure_json("why-sqrt-dk", R"({"d_k": [16], "trials": 20, "seed": 10})"));
}

TEST_CASE("figures.cnn_rnn_attention: the counted rows exactly, the measured times finite and positive") {
    const json out = attn::figure_json("cnn-rnn-attention", R"({"n": [2, 8, 9, 100], "d": 16, "kernel": 5})");
    CHECK(out["n"] == json{2, 8, 9, 100});
    REQUIRE(out["rows"].size() == 4);
    const auto kinds = [](std::uint64_t rnn, std::uint64_t cnn, std::uint64_t attention) {
        return json{{"rnn", rnn}, {"cnn", cnn}, {"attention", attention}};
    };
    const std::uint64_t layers[] = {1, 2, 2, 25};  // ⌈(n − 1)/(kernel − 1)⌉: 1/4, 7/4, 8/4, 99/4
    for (std::size_t i = 0; i < 4; ++i) {
        const json& row = out["rows"][i];
        const std::uint64_t n = out["n"][i];
        CHECK(row["n"] == n);
        CHECK(row["path_length"] == kinds(n - 1, layers[i], 1));
        CHECK(row["sequential_steps"] == kinds(n, layers[i], 1));
        CHECK(row["multiply_adds"] == kinds(n * 2 * 16 * 16, n * 5 * 16 * 16, 2 * n * n * 16));
        CHECK(row["memory_floats"] == kinds(16, n * 16, n * n));
        for (const char* kind : {"rnn", "cnn", "attention"}) {
            const double us = row["microseconds"][kind];
            CHECK_MESSAGE(std::isfinite(us), kind);
            CHECK_MESSAGE(us > 0, kind);
        }
    }
    // the defaults: kernel 3 (⌈(n − 1)/2⌉ layers), d = 32
    const json defaults = attn::figure_json("cnn-rnn-attention", "{}");
    CHECK(defaults["n"] == json{8, 16, 32, 64, 128, 256});
    CHECK(defaults["rows"][5]["path_length"] == kinds(255, 128, 1));
    CHECK(defaults["rows"][5]["multiply_adds"] == kinds(256 * 2 * 32 * 32, 256 * 3 * 32 * 32, 2 * 256 * 256 * 32));
    CHECK(defaults["rows"][0]["memory_floats"] == kinds(32, 8 * 32, 64));
}

TEST_CASE("figures.refusals: one sentence naming the field") {
    const std::vector<std::tuple<std::string, std::string, std::string>> cases{
        {"rnn-limits", "{}", "the rnn-limits request needs \"x\": the sentence's word vectors, 2 to 64 rows of 1 to 64 numbers."},
        {"rnn-limits", R"({"x": [[1, 2]]})", "x has 1 row but rnn-limits needs 2 to 64 (one a word)."},
        {"rnn-limits", R"({"x": [[1, 2], [3]]})", "row 2 of x has 1 values but row 1 has 2: every row needs the same length."},
        {"rnn-limits", R"({"x": [[1], [2]], "hidden": 65})", "hidden is 65; at most 64."},
        {"rnn-limits", R"({"x": [[1], [2]], "gain": 0})", "gain is 0 but must be a number above 0 and at most 16."},
        {"rnn-limits", R"({"x": [[1], [2]], "seed": -1})", "seed is -1; at least 0."},
        {"rnn-limits", R"({"x": [[1], [2]], "hiden": 8})",
         "the rnn-limits request has an unknown field \"hiden\" (known: gain, hidden, seed, x)."},
        {"why-sqrt-dk", R"({"d_k": [4, 0]})", "d_k[1] (entry 2) is 0; at least 1."},
        {"why-sqrt-dk", R"({"d_k": [2048]})", "d_k[0] (entry 1) is 2048; at most 1024."},
        {"why-sqrt-dk", R"({"d_k": []})", "d_k must be an array of 1 to 16 whole numbers, each from 1 to 1024."},
        {"why-sqrt-dk", R"({"d_k": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]})", "d_k has 17 entries; at most 16."},
        {"why-sqrt-dk", R"({"n_keys": 1})", "n_keys is 1; at least 2."},
        {"why-sqrt-dk", R"({"trials": 1001})", "trials is 1001; at most 1000."},
        {"why-sqrt-dk", R"({"d_k": [1024], "n_keys": 256, "trials": 1000})",
         "the why-sqrt-dk request draws trials × (n_keys + 1) × the sum of d_k = 263168000 normals, over the limit of 2^22 (4194304): ask "
         "for fewer trials, fewer keys or smaller d_k."},
        {"why-sqrt-dk", "[1]", "the why-sqrt-dk request must be an object."},
        {"cnn-rnn-attention", R"({"kernel": 4})", "kernel is 4 but must be odd (3, 5, 7 or 9): a window centred on its word."},
        {"cnn-rnn-attention", R"({"kernel": 11})", "kernel is 11; at most 9."},
        {"cnn-rnn-attention", R"({"n": [1]})", "n[0] (entry 1) is 1; at least 2."},
        {"cnn-rnn-attention", R"({"d": 1.5})", "d is 1.5 but must be a whole number."},
        {"cnn-rnn-attention", R"({"n": [2048]})", "n[0] (entry 1) is 2048; at most 1024."},
        {"cnn-rnn-attention", R"({"n": [1024], "d": 256})",
         "the cnn-rnn-attention request measures about 889192448 multiply-adds (one layer of each kind, summed over n, an exp counted as "
         "16), over the limit of 2^26 (67108864): ask for fewer or smaller n, or a smaller d."},
        {"cnn-rnn", "{}", "\"cnn-rnn\" is not a figure: rnn-limits, why-sqrt-dk or cnn-rnn-attention."},
    };
    for (const auto& [name, text, sentence] : cases) CHECK_MESSAGE(figure_refusal(name, text) == sentence, name << " " << text);
    CHECK(figure_refusal("why-sqrt-dk", "{\"d_k\": [4],") != "");  // not JSON
    // the largest n where it fits, read but not measured (its n × n weights are 4 MiB)
    CHECK(attn::cnn_rnn_attention_request_from_json(json{{"n", {1024}}, {"d", 22}}).n == std::vector<std::size_t>{1024});
    CHECK(figure_refusal("cnn-rnn-attention", R"({"n": [1024], "d": 23})") != "");
}
