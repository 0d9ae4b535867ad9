// Each stage does what the contract says: presence and order, shapes, masks, positional
// encoding, heads, score functions, and the SIMD pass equal to the scalar pass.
#include <cmath>
#include <set>
#include <string>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

std::string stage_list(const attn::trace& t) {
    std::string ids;
    for (const attn::stage_view& v : t.stages()) ids += std::string(ids.empty() ? "" : " ") + attn::stage_name(v.id);
    return ids;
}

attn::trace run(const std::string& text) { return attn::compute_trace(attn::parse_spec(text)); }

}  // namespace

TEST_CASE("trace.stages: present in the registry's order, absent when they do not apply") {
    CHECK(stage_list(run(R"({"x": [[1, 0], [0, 1]]})")) ==
          "x q k v scores scaled row_max exp row_sum weights context concat");
    CHECK(stage_list(run(R"({"x": [[1, 0], [0, 1]], "score": "dot", "mask": "causal"})")) ==
          "x q k v scores masked row_max exp row_sum weights context concat");
    CHECK(stage_list(run(R"({"x": [[1, 0]], "memory": [[1, 0], [0, 1]], "positional": "sinusoidal",
                             "weights": {"wo": [[1, 0], [0, 1]]}})")) ==
          "pe x memory q k v scores scaled row_max exp row_sum weights context concat output");
}

TEST_CASE("stages.registry: one row per stage, in the enum's order, with what every view reads") {
    const auto& registry = attn::stage_registry();
    for (std::size_t i = 0; i < registry.size(); ++i) {
        CHECK(static_cast<std::size_t>(registry[i].id) == i);  // stage_info_of indexes by the enum
        CHECK(attn::stage_from_name(registry[i].name) == registry[i].id);
        CHECK(std::string(registry[i].symbol).size() > 0);
    }
    // every stage's per-head flag and axes agree with the shapes a trace really has
    const attn::trace t = run(R"({"x": [[1, 0, 1, 0]], "memory": [[1, 1, 0, 0], [0, 1, 0, 1]], "heads": 2,
        "positional": "sinusoidal", "mask": "causal", "weights": {"wo": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]},
        "online_softmax": {"block": 1}})");
    // rotary positions take pe's place: a second trace has q_rot and k_rot, with fewer key/value heads
    const attn::trace rotated = run(R"({"x": [[1, 0, 1, 0], [0, 1, 1, 0]], "heads": 2, "kv_heads": 1, "positional": "rotary",
        "weights": {"wk": [[1, 0], [0, 1], [1, 0], [0, 1]], "wv": [[0, 1], [1, 0], [1, 1], [0, 0]]}})");
    std::set<attn::stage_id> seen;
    for (const attn::trace* each : {&t, &rotated})
        for (const attn::stage_view& v : each->stages()) {
            const attn::stage_info& info = attn::stage_info_of(v.id);
            INFO(std::string(info.name));
            seen.insert(v.id);
            CHECK(v.shape.size() == (info.per_head ? 3u : 2u));
            CHECK(attn::axis_labels(info.rows, info, each->spec).size() == v.shape[v.shape.size() - 2]);
            CHECK(attn::axis_labels(info.cols, info, each->spec).size() == v.shape.back());
            for (attn::stage_id operand : attn::stage_operands(v.id, each->spec)) CHECK(each->stage(operand).has_value());
        }
    CHECK(t.stages().size() == registry.size() - 2);
    CHECK(seen.size() == registry.size());
    CHECK(stage_list(rotated) == "x q k v q_rot k_rot scores scaled row_max exp row_sum weights context concat");
    CHECK(attn::stage_operands(attn::stage_id::scores, rotated.spec) == std::vector<attn::stage_id>{attn::stage_id::q_rot, attn::stage_id::k_rot});
    using labels = std::vector<std::string>;
    const attn::stage_info& pe = attn::stage_info_of(attn::stage_id::pe);
    CHECK(attn::axis_labels(pe.rows, pe, t.spec) == labels{"pos 0", "pos 1"});
    CHECK(attn::axis_labels(attn::axis_kind::query, pe, t.spec) == labels{"q1"});
    CHECK(attn::axis_labels(attn::axis_kind::key, pe, t.spec) == labels{"k1", "k2"});
    const attn::stage_info& row_max = attn::stage_info_of(attn::stage_id::row_max);
    CHECK(attn::axis_labels(row_max.cols, row_max, t.spec) == labels{"m"});
    using ids = std::vector<attn::stage_id>;
    CHECK(attn::stage_operands(attn::stage_id::row_max, t.spec) == ids{attn::stage_id::masked});
    CHECK(attn::stage_operands(attn::stage_id::k, t.spec) == ids{attn::stage_id::memory});
}

TEST_CASE("trace.shapes: heads × n × d_head, and n_q × n_k for the quadratic stages") {
    const attn::trace t = run(R"({"x": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
        "memory": [[1, 0, 0, 0], [0, 1, 0, 0]], "heads": 2, "mask": "causal"})");
    using shape = std::vector<std::size_t>;
    CHECK(t.stage(attn::stage_id::q)->shape == shape{2, 3, 2});
    CHECK(t.stage(attn::stage_id::k)->shape == shape{2, 2, 2});
    CHECK(t.stage(attn::stage_id::scores)->shape == shape{2, 3, 2});
    CHECK(t.stage(attn::stage_id::row_max)->shape == shape{2, 3, 1});
    CHECK(t.stage(attn::stage_id::context)->shape == shape{2, 3, 2});
    CHECK(t.stage(attn::stage_id::concat)->shape == shape{3, 4});
    CHECK(t.q(1, 2, 0) == 11.0f);  // head 2 takes columns 3 and 4
    CHECK(t.q(1, 2, 1) == 12.0f);
}

TEST_CASE("trace.scaled: divided by √d_head, not √d_model") {
    const attn::trace t = run(R"({"x": [[1, 1, 1, 1], [1, 1, 1, 1]], "heads": 2})");
    CHECK(t.scores(0, 0, 0) == 2.0f);
    CHECK((*t.scaled)(0, 0, 0) == doctest::Approx(2.0 / std::sqrt(2.0)));
}

TEST_CASE("mask.keep: causal, window and matrix") {
    attn::spec s = attn::parse_spec(R"({"x": [[1], [2], [3], [4]], "mask": {"window": 2}})");
    const auto keep = attn::mask_keep(s);
    const int window[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 1, 1}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) CHECK_MESSAGE(keep(i, j) == window[i][j], "window at " << i << "," << j);
    s.mask = attn::mask_kind::causal;
    const auto causal = attn::mask_keep(s);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) CHECK(causal(i, j) == (j <= i ? 1 : 0));
}

TEST_CASE("mask.apply: mask_value written, zero weight, fully masked rows uniform") {
    const attn::trace t = run(R"({"x": [[1, 0], [0, 1], [1, 1]], "mask": {"matrix": [[1, 0, 1], [0, 0, 0], [1, 1, 0]]},
                                  "mask_value": -1e9})");
    CHECK((*t.masked)(0, 0, 1) == -1e9f);
    CHECK((*t.masked)(0, 0, 0) == (*t.scaled)(0, 0, 0));
    CHECK(t.weights(0, 0, 1) == 0.0f);
    CHECK(t.weights(0, 2, 2) == 0.0f);
    for (int j = 0; j < 3; ++j) CHECK(t.weights(0, 1, j) == doctest::Approx(1.0 / 3));  // seed 000's behaviour
}

TEST_CASE("positional.sinusoidal: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)") {
    const std::size_t n = 50, d = 12;
    const attn::matrix pe = attn::sinusoidal_encoding(n, d);
    for (std::size_t pos = 0; pos < n; ++pos)
        for (std::size_t i = 0; 2 * i < d; ++i) {
            const double angle = pos / std::pow(10000.0, 2.0 * i / d);
            CHECK(pe(pos, 2 * i) == doctest::Approx(std::sin(angle)).epsilon(1e-6));
            CHECK(pe(pos, 2 * i + 1) == doctest::Approx(std::cos(angle)).epsilon(1e-6));
        }
    CHECK(pe(0, 0) == 0.0f);
    CHECK(pe(0, 1) == 1.0f);
    CHECK(pe(1, 0) == doctest::Approx(0.841471));
}

TEST_CASE("positional: added to x and to memory, row by row") {
    const attn::trace t = run(R"({"x": [[1, 1]], "memory": [[0, 0], [0, 0], [0, 0]],
                                  "positional": {"learned": [[0.5, -0.5], [1, 2], [3, 4], [9, 9]]}})");
    CHECK(t.pe->shape(0) == 3);
    CHECK(t.x(0, 0) == 1.5f);
    CHECK((*t.memory)(2, 1) == 4.0f);
}

TEST_CASE("positional.rotary: each head's pair (i, i + d_h/2) turned by position · θ^(−2i/d_h), queries and keys alike") {
    // d_head 4 (pairs (0, 2) and (1, 3)), θ 100: pair 0 turns by pos rad, pair 1 by pos/10 rad
    const attn::trace t = run(R"({"x": [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], "positional": {"rotary": 100}})");
    REQUIRE(t.q_rot);
    REQUIRE(t.k_rot);
    for (std::size_t pos = 0; pos < 3; ++pos) {
        const double a0 = double(pos), a1 = double(pos) / 10.0;
        const double want[4] = {1 * std::cos(a0) - 3 * std::sin(a0), 2 * std::cos(a1) - 4 * std::sin(a1),
                                3 * std::cos(a0) + 1 * std::sin(a0), 4 * std::cos(a1) + 2 * std::sin(a1)};
        for (std::size_t c = 0; c < 4; ++c) {
            CHECK((*t.q_rot)(0, pos, c) == doctest::Approx(want[c]).epsilon(1e-6));
            CHECK((*t.k_rot)(0, pos, c) == (*t.q_rot)(0, pos, c));  // no W: K = Q = X
        }
    }
    // the same rows at different positions: the score depends on the distance only (RoPE's point)
    CHECK(t.scores(0, 1, 0) == doctest::Approx(t.scores(0, 2, 1)).epsilon(1e-5));
    CHECK(t.scores(0, 0, 0) == doctest::Approx(t.scores(0, 2, 2)).epsilon(1e-5));
}

TEST_CASE("kv_heads: a shared key/value head equals full heads whose W_k and W_v repeat its columns") {
    // 4 query heads of d_head 1, 2 key/value heads: query heads 0 and 1 read kv head 0, 2 and 3 read kv head 1
    const char* shared = R"({"x": [[1, 0, 2, 1], [0, 1, 1, 3], [2, 1, 0, 1]], "heads": 4, "kv_heads": 2, "mask": "causal",
        "weights": {"wq": [[1,0,0,1],[0,1,1,0],[1,1,0,0],[0,0,1,1]],
        "wk": [[1, 0], [0, 1], [1, 1], [0, 2]], "wv": [[2, 0], [1, 1], [0, 1], [1, 0]], "bk": [0.5, -0.5]}})";
    const char* full = R"({"x": [[1, 0, 2, 1], [0, 1, 1, 3], [2, 1, 0, 1]], "heads": 4, "mask": "causal",
        "weights": {"wq": [[1,0,0,1],[0,1,1,0],[1,1,0,0],[0,0,1,1]],
        "wk": [[1, 1, 0, 0], [0, 0, 1, 1], [1, 1, 1, 1], [0, 0, 2, 2]], "wv": [[2, 2, 0, 0], [1, 1, 1, 1], [0, 0, 1, 1], [1, 1, 0, 0]],
        "bk": [0.5, 0.5, -0.5, -0.5]}})";
    const attn::trace ts = run(shared), tf = run(full);
    CHECK(ts.k.shape(0) == 2);
    CHECK(tf.k.shape(0) == 4);
    attn_test::check_close(ts.weights, tf.weights, 1e-6, "weights");
    attn_test::check_close(ts.concat, tf.concat, 1e-6, "concat");
    // with rotary positions (pairs of columns: d_head 2): 2 query heads sharing one key/value head
    const attn::trace rs = run(R"({"x": [[1, 0, 2, 1], [0, 1, 1, 3], [2, 1, 0, 1]], "heads": 2, "kv_heads": 1,
        "positional": "rotary", "weights": {"wk": [[1, 0], [0, 1], [1, 1], [0, 2]], "wv": [[2, 0], [1, 1], [0, 1], [1, 0]]}})");
    const attn::trace rf = run(R"({"x": [[1, 0, 2, 1], [0, 1, 1, 3], [2, 1, 0, 1]], "heads": 2,
        "positional": "rotary", "weights": {"wk": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 2, 0, 2]],
        "wv": [[2, 0, 2, 0], [1, 1, 1, 1], [0, 1, 0, 1], [1, 0, 1, 0]]}})");
    CHECK(rs.k_rot->shape(0) == 1);
    attn_test::check_close(rs.scores, rf.scores, 1e-5, "rotary scores");
    attn_test::check_close(rs.concat, rf.concat, 1e-5, "rotary concat");
}

TEST_CASE("multi_head: split then merge is the identity") {
    attn::matrix m = attn::matrix::from_shape({3, 6});
    for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i);
    const attn::tensor3 t = attn::split_heads(m, 3);
    CHECK(t(2, 1, 0) == m(1, 4));
    const attn::matrix back = attn::merge_heads(t);
    attn_test::check_close(back, m, 0.0, "merge(split(m))");
}

TEST_CASE("score.additive and score.bilinear against hand arithmetic") {
    const attn::trace add = run(R"({"x": [[1, 0]], "memory": [[0, 1], [1, 1]], "score": "additive",
        "additive": {"w1": [[1], [0]], "w2": [[0], [2]], "v": [3]}})");
    CHECK(add.scores(0, 0, 0) == doctest::Approx(3 * std::tanh(1.0 + 2.0)));
    CHECK(add.scores(0, 0, 1) == doctest::Approx(3 * std::tanh(1.0 + 2.0)));
    const attn::trace bil = run(R"({"x": [[1, 2]], "memory": [[3, 4]], "score": "bilinear",
        "bilinear": {"w": [[1, 2], [3, 4]]}})");
    // [1 2]·[[1 2][3 4]] = [7 10]; ·[3 4] = 61
    CHECK(bil.scores(0, 0, 0) == 61.0f);
    CHECK(!bil.scaled);
}

TEST_CASE("projection: identity when absent, bias alone is added, output needs wo") {
    const attn::trace t = run(R"({"x": [[1, 2]], "weights": {"bq": [10, 20], "wv": [[0, 1], [1, 0]], "bv": [1, 1],
                                  "wo": [[2, 0], [0, 2]], "bo": [0, 1]}})");
    CHECK(t.q(0, 0, 0) == 11.0f);
    CHECK(t.k(0, 0, 1) == 2.0f);
    CHECK(t.v(0, 0, 0) == 3.0f);  // 1·0 + 2·1 + 1
    CHECK(t.v(0, 0, 1) == 2.0f);
    CHECK((*t.output)(0, 1) == 2 * 2.0f + 1);
}

TEST_CASE("trace: the SIMD pass equals the scalar pass on every stage") {
    const attn::spec s = attn::parse_spec(R"({"x": [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
        [1, -1, 0.5, -0.5, 0.25, -0.25, 0, 0.3, 0.7, 0.1], [0.9, 0.1, 0.2, 0.8, 0.4, 0.6, 0.3, 0.5, 0.7, 0.2]],
        "heads": 2, "positional": "sinusoidal", "mask": "causal",
        "weights": {"wo": [[1,0,0,0,0,0,0,0,0,0.5],[0,1,0,0,0,0,0,0,0,0],[0,0,1,0,0,0,0,0,0,0],[0,0,0,1,0,0,0,0,0,0],
                          [0,0,0,0,1,0,0,0,0,0],[0,0,0,0,0,1,0,0,0,0],[0,0,0,0,0,0,1,0,0,0],[0,0,0,0,0,0,0,1,0,0],
                          [0,0,0,0,0,0,0,0,1,0],[0.5,0,0,0,0,0,0,0,0,1]]}})");
    const attn::trace fast = attn::compute_trace(s, attn::simd_kernels());
    const attn::trace slow = attn::compute_trace(s, attn::scalar_kernels());
    const auto a = fast.stages(), b = slow.stages();
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        attn_test::check_close(a[i].data, b[i].data, a[i].size, 1e-5, attn::stage_name(a[i].id));
}

TEST_CASE("trace.json: stage fields, bilingual titles, flat data") {
    const attn::json j = attn::trace_to_json(run(R"({"x": [[1, 0], [0, 1]], "mask": "causal"})"));
    REQUIRE(j["stages"].size() == 13);
    const attn::json& masked = j["stages"][6];
    CHECK(masked["id"] == "masked");
    CHECK(masked["title"] == "Masked");
    CHECK(masked["title_zh"] == "掩码");
    CHECK(masked["formula"].get<std::string>().find("mask_value") != std::string::npos);
    CHECK(masked["shape"] == attn::json::array({1, 2, 2}));
    CHECK(masked["data"][1] == -1e9);
    CHECK(!masked["explain"]["zh"].get<std::string>().empty());
    CHECK(j["spec"]["mask"] == "causal");
    CHECK(j["mask"]["shape"] == attn::json::array({2, 2}));
    CHECK(j["mask"]["data"] == attn::json::array({1, 0, 1, 1}));
}
