// Gradients against central finite differences of an independent forward pass written here in
// double precision: for every parameter of random specs (every score function, heads, masks with an
// empty row, positional encodings, cross-attention, W_o with biases; both losses), and for every
// stage, whose value the reference can replace (dL/d(stage) is what changing that stage alone does).
//
// [SECTION] the independent double-precision forward pass
// [SECTION] finite differences, random specs, their parameters
// [SECTION] the tests
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "check.hpp"

// [SECTION] the independent double-precision forward pass

namespace {

using attn::stage_id;

/// One value to nudge: a stage's element (by flat index in the trace's layout) or none.
struct nudge {
    stage_id at = stage_id::output;
    std::size_t index = 0;
    double by = 0;
    bool active = false;
};

/// The reference forward pass, in double, straight from the contract (docs/spec.md), applying the
/// nudge where its stage is computed. Returns the loss.
double reference_loss(const attn::spec& s, const attn::loss_spec& l, const nudge& n = {}) {
    using vec = std::vector<double>;
    const auto bump = [&](stage_id id, vec& v) {
        if (n.active && n.at == id) v[n.index] += n.by;
    };
    const std::size_t nq = s.n_q(), nk = s.n_k(), d = s.d_model(), H = std::size_t(s.heads), dh = d / H;
    // positional encoding
    const std::size_t npe = std::max(nq, nk);
    vec pe(npe * d, 0.0);
    const bool has_pe = s.positional != attn::positional_kind::none;
    for (std::size_t p = 0; p < npe && has_pe; ++p)
        for (std::size_t c = 0; c < d; ++c)
            pe[p * d + c] = s.positional == attn::positional_kind::learned
                                ? s.learned(p, c)
                                : (c % 2 == 0 ? std::sin(p / std::pow(10000.0, double(c) / d)) : std::cos(p / std::pow(10000.0, double(c - 1) / d)));
    if (has_pe) bump(stage_id::pe, pe);
    const auto inputs = [&](const attn::matrix& m, std::size_t rows, stage_id id) {
        vec out(rows * d);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t c = 0; c < d; ++c) out[i * d + c] = m(i, c) + (has_pe ? pe[i * d + c] : 0.0);
        bump(id, out);
        return out;
    };
    const vec x = inputs(s.x, nq, stage_id::x);
    const vec mem = s.memory ? inputs(*s.memory, nk, stage_id::memory) : x;
    const auto project = [&](const vec& in, std::size_t rows, const attn::projection& p) {
        vec out(rows * d);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t c = 0; c < d; ++c) {
                double v = 0;
                if (p.w) for (std::size_t k = 0; k < d; ++k) v += in[i * d + k] * (*p.w)(k, c);
                else v = in[i * d + c];
                out[i * d + c] = v + (p.b ? (*p.b)(c) : 0.0);
            }
        return out;
    };
    const auto split = [&](const vec& m, std::size_t rows, stage_id id) {  // (rows, d) -> (h, rows, dh)
        vec out(H * rows * dh);
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t i = 0; i < rows; ++i)
                for (std::size_t c = 0; c < dh; ++c) out[(h * rows + i) * dh + c] = m[i * d + h * dh + c];
        bump(id, out);
        return out;
    };
    const vec q = split(project(x, nq, s.wq), nq, stage_id::q), k = split(project(mem, nk, s.wk), nk, stage_id::k),
              v = split(project(mem, nk, s.wv), nk, stage_id::v);
    // scores
    vec e(H * nq * nk);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < nq; ++i)
            for (std::size_t j = 0; j < nk; ++j) {
                const double* qi = &q[(h * nq + i) * dh];
                const double* kj = &k[(h * nk + j) * dh];
                double val = 0;
                if (s.score == attn::score_kind::additive) {
                    const std::size_t da = s.additive.v->size();
                    for (std::size_t a = 0; a < da; ++a) {
                        double u = 0;
                        for (std::size_t c = 0; c < dh; ++c) u += qi[c] * (*s.additive.w1)(c, a) + kj[c] * (*s.additive.w2)(c, a);
                        val += (*s.additive.v)(a) * std::tanh(u);
                    }
                } else if (s.score == attn::score_kind::bilinear) {
                    for (std::size_t a = 0; a < dh; ++a)
                        for (std::size_t b = 0; b < dh; ++b) val += qi[a] * (*s.bilinear)(a, b) * kj[b];
                } else {
                    for (std::size_t c = 0; c < dh; ++c) val += qi[c] * kj[c];
                }
                e[(h * nq + i) * nk + j] = val;
            }
    bump(stage_id::scores, e);
    if (s.score == attn::score_kind::scaled_dot) {
        for (double& val : e) val /= std::sqrt(double(dh));
        bump(stage_id::scaled, e);
    }
    const auto keep = attn::mask_keep(s);
    const auto empty = attn::rows_without_keys(keep);
    const bool masked = s.mask != attn::mask_kind::none;
    const auto visible = [&](std::size_t i, std::size_t j) {
        return !masked || keep(i, j) || std::find(empty.begin(), empty.end(), i) != empty.end();
    };
    if (masked) {
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t i = 0; i < nq; ++i)
                for (std::size_t j = 0; j < nk; ++j)
                    if (!keep(i, j)) e[(h * nq + i) * nk + j] = s.mask_value;
        bump(stage_id::masked, e);
    }
    // softmax sub-steps, each a node the nudge can reach; hidden keys count for nothing
    vec m(H * nq), ex(H * nq * nk, 0.0), sum(H * nq), w(H * nq * nk);
    for (std::size_t r = 0; r < H * nq; ++r) {
        m[r] = -INFINITY;
        for (std::size_t j = 0; j < nk; ++j)
            if (visible(r % nq, j)) m[r] = std::max(m[r], e[r * nk + j]);
    }
    bump(stage_id::row_max, m);
    for (std::size_t r = 0; r < H * nq; ++r)
        for (std::size_t j = 0; j < nk; ++j)
            if (visible(r % nq, j)) ex[r * nk + j] = std::exp(e[r * nk + j] - m[r]);
    bump(stage_id::exp, ex);
    for (std::size_t r = 0; r < H * nq; ++r) {
        sum[r] = 0;
        for (std::size_t j = 0; j < nk; ++j) sum[r] += ex[r * nk + j];
    }
    bump(stage_id::row_sum, sum);
    for (std::size_t r = 0; r < H * nq; ++r)
        for (std::size_t j = 0; j < nk; ++j) w[r * nk + j] = ex[r * nk + j] / sum[r];
    bump(stage_id::weights, w);
    vec ctx(H * nq * dh, 0.0);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < nq; ++i)
            for (std::size_t c = 0; c < dh; ++c)
                for (std::size_t j = 0; j < nk; ++j) ctx[(h * nq + i) * dh + c] += w[(h * nq + i) * nk + j] * v[(h * nk + j) * dh + c];
    bump(stage_id::context, ctx);
    vec y(nq * d);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < nq; ++i)
            for (std::size_t c = 0; c < dh; ++c) y[i * d + h * dh + c] = ctx[(h * nq + i) * dh + c];
    bump(stage_id::concat, y);
    if (s.wo.w) {
        y = project(y, nq, s.wo);
        bump(stage_id::output, y);
    }
    // the loss
    double L = 0;
    if (l.loss == attn::loss_spec::kind::mse) {
        for (std::size_t i = 0; i < nq * d; ++i) L += (y[i] - l.target(i / d, i % d)) * (y[i] - l.target(i / d, i % d));
        return L / double(nq * d);
    }
    for (std::size_t i = 0; i < nq; ++i) {
        double top = -INFINITY, z = 0;
        for (std::size_t c = 0; c < d; ++c) top = std::max(top, y[i * d + c]);
        for (std::size_t c = 0; c < d; ++c) z += std::exp(y[i * d + c] - top);
        L += std::log(z) - (y[i * d + l.labels[i]] - top);
    }
    return L / double(nq);
}

// [SECTION] finite differences, random specs, their parameters

/// Central difference of the reference loss in one value: a parameter (set) or a stage element (nudge).
double central(const std::function<double(double)>& loss_at, double h = 1e-5) { return (loss_at(h) - loss_at(-h)) / (2 * h); }

void check_grad(float analytic, double fd, const std::string& what) {
    INFO(what << ": analytic " << analytic << ", finite difference " << fd);
    CHECK(std::fabs(analytic - fd) <= 2e-4 + 2e-3 * std::fabs(fd));
}

attn::matrix random_matrix(std::size_t r, std::size_t c, std::mt19937& rng, float scale = 1.0f) {
    std::uniform_real_distribution<float> u(-scale, scale);
    attn::matrix m = attn::matrix::from_shape({r, c});
    for (float& f : m) f = u(rng);
    return m;
}
attn::vector random_vector(std::size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    attn::vector v = attn::vector::from_shape({n});
    for (float& f : v) f = u(rng);
    return v;
}

/// Every parameter of s as (name, the float to nudge).
std::vector<std::pair<std::string, float*>> parameters(attn::spec& s) {
    std::vector<std::pair<std::string, float*>> out;
    const auto all = [&](const std::string& name, auto& t) {
        for (std::size_t i = 0; i < t.size(); ++i) out.emplace_back(name + "[" + std::to_string(i) + "]", t.data() + i);
    };
    all("x", s.x);
    if (s.memory) all("memory", *s.memory);
    for (auto [name, p] : {std::pair{"q", &s.wq}, {"k", &s.wk}, {"v", &s.wv}, {"o", &s.wo}}) {
        if (p->w) all(std::string("w") + name, *p->w);
        if (p->b) all(std::string("b") + name, *p->b);
    }
    if (s.additive.w1) all("additive.w1", *s.additive.w1), all("additive.w2", *s.additive.w2), all("additive.v", *s.additive.v);
    if (s.bilinear) all("bilinear", *s.bilinear);
    if (s.positional == attn::positional_kind::learned) all("learned", s.learned);
    return out;
}

/// The analytic gradient of each parameter, in the order parameters() lists them.
std::vector<float> analytic(const attn::param_grads& g, const attn::spec& s) {
    std::vector<float> out;
    const auto all = [&](const auto& t) { out.insert(out.end(), t.begin(), t.end()); };
    all(g.x);
    if (s.memory) all(*g.memory);
    for (auto [p, gp] : {std::pair{&s.wq, &g.wq}, {&s.wk, &g.wk}, {&s.wv, &g.wv}, {&s.wo, &g.wo}}) {
        if (p->w) all(*gp->w);
        if (p->b) all(*gp->b);
    }
    if (s.additive.w1) all(*g.additive.w1), all(*g.additive.w2), all(*g.additive.v);
    if (s.bilinear) all(*g.bilinear);
    if (s.positional == attn::positional_kind::learned) all(*g.learned);
    return out;
}

}  // namespace

// [SECTION] the tests

TEST_CASE("grad: every parameter and every stage against central differences of an independent double forward pass") {
    std::mt19937 rng(3);
    int specs = 0, values = 0;
    const attn::score_kind scores[] = {attn::score_kind::dot, attn::score_kind::scaled_dot, attn::score_kind::additive,
                                       attn::score_kind::bilinear};
    for (int round = 0; round < 24; ++round) {
        attn::spec s;
        const std::size_t heads = 1 + round % 2, d = 2 * heads, nq = 2 + round % 3, nk = round % 4 == 3 ? nq + 1 : nq;
        s.heads = int(heads);
        s.x = random_matrix(nq, d, rng);
        if (nk != nq) s.memory = random_matrix(nk, d, rng);
        s.score = scores[round % 4];
        s.wq.w = random_matrix(d, d, rng), s.wk.w = random_matrix(d, d, rng), s.wv.w = random_matrix(d, d, rng);
        if (round % 3 == 0) s.wq.b = random_vector(d, rng), s.wv.b = random_vector(d, rng);
        if (round % 2 == 0) s.wo.w = random_matrix(d, d, rng), s.wo.b = random_vector(d, rng);
        const std::size_t dh = d / heads;
        if (s.score == attn::score_kind::additive) {
            s.additive.w1 = random_matrix(dh, 3, rng), s.additive.w2 = random_matrix(dh, 3, rng), s.additive.v = random_vector(3, rng);
        }
        if (s.score == attn::score_kind::bilinear) s.bilinear = random_matrix(dh, dh, rng);
        switch (round % 5) {
            case 1: s.mask = attn::mask_kind::causal; break;
            case 2: s.mask = attn::mask_kind::window, s.window = 1; break;
            case 3:  // a matrix mask with an empty first row (uniform softmax, as seed 000's code gives)
                s.mask = attn::mask_kind::matrix;
                s.mask_matrix = attn::matrix::from_shape({nq, nk});
                for (std::size_t i = 0; i < nq; ++i)
                    for (std::size_t j = 0; j < nk; ++j) s.mask_matrix(i, j) = i == 0 ? 0.0f : float((i + j) % 2 == 0 || j == 0);
                break;
            default: break;
        }
        if (round % 6 == 1) s.positional = attn::positional_kind::sinusoidal;
        if (round % 6 == 4) s.positional = attn::positional_kind::learned, s.learned = random_matrix(std::max(nq, nk) + 1, d, rng, 0.3f);
        attn::loss_spec l;
        if (round % 3 == 2) {
            l.loss = attn::loss_spec::kind::cross_entropy;
            for (std::size_t i = 0; i < nq; ++i) l.labels.push_back((i + round) % d);
        } else {
            l.target = random_matrix(nq, d, rng);
        }
        INFO("round " << round << ": " << attn::spec_to_json(s).dump());
        const attn::grad_result g = attn::compute_grad(s, l);
        CHECK(g.loss == doctest::Approx(reference_loss(s, l)).epsilon(1e-4));
        // parameters: nudge the spec itself
        attn::spec nudged = s;
        const auto params = parameters(nudged);
        const std::vector<float> got = analytic(g.grads, s);
        REQUIRE(got.size() == params.size());
        for (std::size_t p = 0; p < params.size(); ++p) {
            float* value = params[p].second;
            const float was = *value;
            // nudged in double would need a double spec: a float step large enough to be exact
            const double fd = central([&](double hh) { *value = was + float(hh); const double L = reference_loss(nudged, l); *value = was; return L; }, 1.0 / 1024);
            check_grad(got[p], fd, params[p].first);
            ++values;
        }
        // stages: nudge the stage's value where the reference computes it
        for (const attn::stage_view& a : g.adjoint.stages()) {
            if (std::string(attn::stage_name(a.id)).rfind("online_", 0) == 0) continue;
            for (std::size_t i = 0; i < a.size; ++i) {
                const double fd = central([&](double hh) { return reference_loss(s, l, {a.id, i, hh, true}); });
                check_grad(a.data[i], fd, std::string("stage ") + attn::stage_name(a.id) + "[" + std::to_string(i) + "]");
                ++values;
            }
        }
        ++specs;
    }
    CHECK(specs == 24);
    const std::string said = std::to_string(values) + " gradients checked";
    MESSAGE(said);
}

TEST_CASE("grad: masked scores get zero gradient; the online-softmax stages do not feed the loss") {
    const auto [s, l] = attn::parse_grad_spec(R"({"x": [[1, 0], [0, 1], [1, 1]], "mask": "causal", "online_softmax": {"block": 2},
        "target": [[0, 1], [1, 0], [0.5, 0.5]]})");
    const attn::grad_result g = attn::compute_grad(s, l);
    const auto scores = *g.adjoint.stage(stage_id::scores), masked = *g.adjoint.stage(stage_id::masked);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = i + 1; j < 3; ++j) {
            CHECK(scores.data[i * 3 + j] == 0.0f);
            CHECK(masked.data[i * 3 + j] == 0.0f);
        }
    CHECK(scores.data[3] != 0.0f);  // row 2 sees keys 1 and 2
    for (stage_id id : {stage_id::online_max, stage_id::online_acc, stage_id::online_output}) {
        const auto v = *g.adjoint.stage(id);
        for (std::size_t i = 0; i < v.size; ++i) CHECK(v.data[i] == 0.0f);
    }
}

TEST_CASE("grad: the SIMD kernels and the scalar twins give the same gradients") {
    const auto [s, l] = attn::parse_grad_spec(R"({"x": [[1, 0.5, -1, 2], [0, 1, 0.25, 1], [1, 1, 0, -0.5]], "heads": 2,
        "weights": {"wq": [[1,0,0,1],[0,1,1,0],[1,1,0,0],[0,0,1,1]], "wo": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]},
        "loss": "cross_entropy", "labels": [0, 3, 1]})");
    const attn::grad_result a = attn::compute_grad(s, l, attn::simd_kernels()), b = attn::compute_grad(s, l, attn::scalar_kernels());
    attn_test::check_close(*a.grads.wq.w, *b.grads.wq.w, 1e-6, "wq simd vs scalar");
    attn_test::check_close(a.grads.x, b.grads.x, 1e-6, "x simd vs scalar");
}

TEST_CASE("grad: an upstream gradient gives every stage the later loss's own gradient") {
    // mse on the output, once as the loss and once sent back as its gradient dL/dy: the same backward pass
    const char* body = R"("x": [[1, 0.5, -1, 2], [0, 1, 0.25, 1], [1, 1, 0, -0.5]], "heads": 2, "mask": "causal",
        "weights": {"wq": [[1,0,0,1],[0,1,1,0],[1,1,0,0],[0,0,1,1]], "wk": [[0.5,0,0,1],[0,1,0.5,0],[1,0,0,0],[0,0,1,1]],
                    "wo": [[1,0,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]]})";
    const auto [s, mse] = attn::parse_grad_spec(std::string("{") + body + R"(, "target": [[1,0,0,0],[0,1,0,0],[0,0,1,0]]})");
    const attn::grad_result a = attn::compute_grad(s, mse);
    const attn::stage_view dy = *a.adjoint.stage(attn::stage_id::output);
    const attn::stage_view y = *a.trace.stage(attn::stage_id::output);
    attn::json upstream = attn::json::array();
    double linear = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        upstream.push_back(attn::json::array());
        for (std::size_t c = 0; c < 4; ++c) {
            upstream[i].push_back(dy.data[i * 4 + c]);
            linear += double(dy.data[i * 4 + c]) * y.data[i * 4 + c];
        }
    }
    const auto [s2, up] = attn::parse_grad_spec(std::string("{") + body + R"(, "loss": "upstream", "upstream": )" + upstream.dump() + "}");
    CHECK(up.loss == attn::loss_spec::kind::upstream);
    const attn::grad_result b = attn::compute_grad(s2, up);
    CHECK(b.loss == doctest::Approx(linear).epsilon(1e-6));  // the linear stand-in Σ upstream ⊙ y
    for (const attn::stage_view& v : a.adjoint.stages()) {
        const attn::stage_view w = *b.adjoint.stage(v.id);
        for (std::size_t k = 0; k < v.size; ++k) CHECK(w.data[k] == v.data[k]);
    }
    attn_test::check_close(*b.grads.wq.w, *a.grads.wq.w, 0, "wq");
    attn_test::check_close(b.grads.x, a.grads.x, 0, "x");
    CHECK(attn::explain_grad_cell(b, up, attn::stage_id::output, 0, 1, 2) ==
          "∂L/∂output[2][3] = upstream[2][3] = " + attn::format_cell(dy.data[1 * 4 + 2]));
}

TEST_CASE("grad: refusals name the field") {
    using attn::parse_grad_spec;
    const auto refusal = [](const char* text) {
        try {
            parse_grad_spec(text);
        } catch (const attn::spec_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal(R"({"x": [[1, 0]]})") == "the loss is \"mse\" but the spec has no \"target\": give the n_q × d_out values the last stage should take.");
    CHECK(refusal(R"({"x": [[1, 0]], "target": [[1]]})") == "target is 1 × 1 but the last stage is 1 × 2 (n_q × d_out).");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "hinge", "target": [[1, 0]]})") ==
          "loss \"hinge\" is unknown: use \"mse\" (with target), \"cross_entropy\" (with labels) or \"upstream\" (with upstream).");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "upstream"})") ==
          "the loss is \"upstream\" but the spec has no \"upstream\": give dL/dy, the n_q × d_out gradient that a later loss sends back.");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "upstream", "upstream": [[1, 0], [0, 1]]})") == "upstream is 2 × 2 but the last stage is 1 × 2 (n_q × d_out).");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "upstream", "upstream": [[1, 0]], "target": [[1, 0]]})") ==
          "target is for the \"mse\" loss: remove it, or set loss to \"mse\".");
    CHECK(refusal(R"({"x": [[1, 0]], "target": [[1, 0]], "upstream": [[1, 0]]})") ==
          "upstream is for the \"upstream\" loss: remove it, or set loss to \"upstream\".");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "upstream", "upstream": [[1, 1e39]]})").find("upstream") != std::string::npos);
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "cross_entropy", "labels": [2]})") == "labels[0] (entry 1) is 2; at most 1.");
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "cross_entropy"})").find("no \"labels\"") != std::string::npos);
    CHECK(refusal(R"({"x": [[1, 0]], "target": [[1, 0]], "labels": [0]})").find("cross_entropy") != std::string::npos);
    CHECK(refusal(R"({"x": [[1, 0]], "target": [[1, 0]], "train": 1})").find("unknown field \"train\"") != std::string::npos);
}
