// Bad specs are refused with one sentence naming the field; good ones round-trip.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "attn/json.hpp"
#include "attn/trace.hpp"
#include "check.hpp"

namespace {

using attn_test::refusal;

struct bad_case {
    const char* what;
    const char* spec;
    const char* names;  // a piece the sentence must contain
};

const bad_case bad_cases[] = {
    {"not JSON", R"({"x": [[1, 2]],)", "not valid JSON"},
    {"NaN is not JSON", R"({"x": [[NaN]]})", "not valid JSON"},
    {"not an object", R"([[1, 2]])", "JSON object"},
    {"no x", R"({"score": "dot"})", "\"x\""},
    {"empty x", R"({"x": []})", "x is empty"},
    {"empty row", R"({"x": [[]]})", "row 1 of x is empty"},
    {"x not rows", R"({"x": [1, 2]})", "row 1 of x must be an array"},
    {"ragged rows", R"({"x": [[1, 2, 3, 4], [1, 2, 3]]})", "row 2 of x has 3 values but row 1 has 4"},
    {"string in x", R"({"x": [[1, "2"]]})", "x[0][1] (row 1, column 2) is string"},
    {"float overflow", R"({"x": [[1, 1e39]]})", "x[0][1] (row 1, column 2) is 1e+39, outside the float range"},
    {"double overflow", R"({"x": [[1, 1e999]]})", "number overflow parsing '1e999'"},
    {"memory width", R"({"x": [[1, 2]], "memory": [[1, 2, 3]]})", "memory rows have 3 values but x rows have 2"},
    {"heads zero", R"({"x": [[1, 2]], "heads": 0})", "heads is 0; at least 1."},
    {"heads negative", R"({"x": [[1, 2]], "heads": -2})", "heads is -2"},
    {"heads fraction", R"({"x": [[1, 2]], "heads": 1.5})", "heads is 1.5 but must be a whole number"},
    {"heads divide", R"({"x": [[1, 2, 3]], "heads": 2})", "d_model 3 is not divisible"},
    {"unknown score", R"({"x": [[1, 2]], "score": "cosine"})", "score \"cosine\" is unknown"},
    {"unknown mask", R"({"x": [[1, 2]], "mask": "future"})", "mask \"future\" is unknown"},
    {"window zero", R"({"x": [[1, 2]], "mask": {"window": 0}})", "mask.window is 0"},
    {"mask matrix shape", R"({"x": [[1, 2], [3, 4]], "mask": {"matrix": [[1, 0]]}})", "mask.matrix is 1 × 2 but must be 2 × 2"},
    {"mask matrix value", R"({"x": [[1, 2]], "mask": {"matrix": [[0.5]]}})", "mask.matrix[0][0] (row 1, column 1) is 0.5 but must be 0 (masked) or 1 (kept)."},
    {"unknown positional", R"({"x": [[1, 2]], "positional": "spiral"})", "positional \"spiral\" is unknown"},
    {"rotary odd head", R"({"x": [[1, 2, 3]], "positional": "rotary"})", "d_head is 3: rotary positions turn pairs of columns (i, i + d_head/2), so d_head must be even."},
    {"rotary base", R"({"x": [[1, 2]], "positional": {"rotary": 0.5}})", "positional.rotary is 0.5 but the rotary base θ must be a finite number over 1"},
    {"rotary base string", R"({"x": [[1, 2]], "positional": {"rotary": "big"}})", "positional.rotary is string"},
    {"kv_heads over heads", R"({"x": [[1, 2]], "kv_heads": 2})", "kv_heads is 2 but must be between 1 and heads (1)."},
    {"kv_heads divide", R"({"x": [[1, 2, 3, 4, 5, 6]], "heads": 3, "kv_heads": 2})", "heads 3 is not divisible by it"},
    {"kv_heads without wk", R"({"x": [[1, 2, 3, 4]], "heads": 2, "kv_heads": 1})", "weights.wk and weights.wv are needed (d_model × d_kv, d_kv = 2)"},
    {"kv_heads wk shape", R"({"x": [[1, 2, 3, 4]], "heads": 2, "kv_heads": 1, "weights": {"wk": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], "wv": [[1,0],[0,1],[0,0],[0,0]]}})", "weights.wk is 4 × 4 but must be 4 × 2"},
    {"learned too short", R"({"x": [[1, 2], [3, 4]], "positional": {"learned": [[0, 0]]}})", "positional.learned has 1 rows but needs at least 2"},
    {"wq shape", R"({"x": [[1, 2]], "weights": {"wq": [[1, 0, 0], [0, 1, 0]]}})", "weights.wq is 2 × 3 but must be 2 × 2"},
    {"bias length", R"({"x": [[1, 2]], "weights": {"bk": [1]}})", "weights.bk has 1 values but must have 2"},
    {"empty bias", R"({"x": [[1, 2]], "weights": {"bq": []}})", "weights.bq has 0 values but must have 2 (d_model is 2)."},
    {"empty bias alone", R"({"x": [[1, 2]], "weights": {"bo": []}})", "weights.bo is given without weights.wo"},
    {"empty matrix", R"({"x": [[1, 2]], "weights": {"wk": []}})", "weights.wk is empty"},
    {"empty mask matrix", R"({"x": [[1, 2]], "mask": {"matrix": []}})", "mask.matrix is empty"},
    {"bo without wo", R"({"x": [[1, 2]], "weights": {"bo": [1, 2]}})", "weights.bo is given without weights.wo"},
    {"unknown weight", R"({"x": [[1, 2]], "weights": {"wz": [[1]]}})", "unknown field \"wz\""},
    {"unknown field", R"({"x": [[1, 2]], "head": 2})", "unknown field \"head\""},
    {"additive missing", R"({"x": [[1, 2]], "score": "additive"})", "additive.w1 is missing"},
    {"additive shape", R"({"x": [[1, 2]], "score": "additive", "additive": {"w1": [[1], [1]], "w2": [[1]], "v": [1]}})", "additive.w2 is 1 × 1 but must be 2 × 1"},
    {"bilinear missing", R"({"x": [[1, 2]], "score": "bilinear"})", "bilinear.w is missing"},
    {"bilinear shape", R"({"x": [[1, 2]], "heads": 2, "score": "bilinear", "bilinear": {"w": [[1, 0], [0, 1]]}})", "bilinear.w is 2 × 2 but must be 1 × 1"},
    {"token count", R"({"x": [[1, 2]], "tokens": {"query": ["a", "b"]}})", "tokens.query has 2 labels but x has 1 rows"},
    {"token type", R"({"x": [[1, 2]], "tokens": {"query": [3]}})", "tokens.query[0] (label 1) is number but must be a string"},
    {"mask_value string", R"({"x": [[1, 2]], "mask_value": "-inf"})", "mask_value is string"},
    {"overflow inside", R"({"x": [[3e38, 3e38]]})", "overflowed the float range"},
};

}  // namespace

TEST_CASE("spec.errors: every bad spec is refused with one sentence naming the field") {
    for (const bad_case& c : bad_cases) {
        const std::string sentence = refusal(c.spec);
        INFO(c.what << ": " << c.spec << " -> \"" << sentence << "\"");
        CHECK(sentence.find(c.names) != std::string::npos);
        CHECK(sentence.find('\n') == std::string::npos);
        CHECK(!sentence.empty());
        CHECK(sentence.back() == '.');
    }
}

TEST_CASE("spec.limits: a trace over the memory limit is refused before it is computed") {
    attn::spec s;
    s.x = attn::matrix::from_shape({4096, 8});
    s.x.fill(0.5f);
    s.heads = 8;  // 5 stages × 8 heads × 4096² floats = 2.5 GiB
    try {
        attn::validate(s);
        FAIL("validate accepted a 2.5 GiB trace");
    } catch (const attn::spec_error& e) {
        CHECK(std::string(e.what()).find("over the limit of 64 MiB") != std::string::npos);
    }
    s.x = attn::matrix::from_shape({attn::max_positions + 1, 2});
    s.x.fill(1.0f);
    s.heads = 1;
    CHECK_THROWS_WITH_AS(attn::validate(s), "x has 4097 rows, over the limit of 4096 positions.", attn::spec_error);
    CHECK(attn::trace_bytes(4096, 4096, 8, 8) > attn::default_budget.trace_bytes);
    CHECK(attn::trace_bytes(1024, 1024, 64, 2) < attn::default_budget.trace_bytes);
}

TEST_CASE("spec.validate: NaN from C++ callers is refused too") {
    attn::spec s;
    s.x = {{1.0f, std::nanf("")}};
    CHECK_THROWS_WITH_AS(attn::validate(s), "x[0][1] (row 1, column 2) is not a finite number.", attn::spec_error);
}

TEST_CASE("spec.normalised: defaults written out, numbers as written, and it parses back to the same trace") {
    const std::string text = R"({"x": [[0.1, 0.2], [0.3, 0.4]], "tokens": {"query": ["a", "<b>"]}})";
    const attn::json norm = attn::spec_to_json(attn::parse_spec(text));
    CHECK(norm["score"] == "scaled_dot");
    CHECK(norm["heads"] == 1);
    CHECK(norm["mask"] == "none");
    CHECK(norm["mask_value"] == -1e9);
    CHECK(norm["positional"] == "none");
    CHECK(norm["x"][0][0].dump() == "0.1");
    CHECK(norm["tokens"]["query"][1] == "<b>");
    const attn::trace a = attn::compute_trace(attn::parse_spec(text));
    const attn::trace b = attn::compute_trace(attn::spec_from_json(norm));
    attn_test::check_close(a.weights, b.weights, 0.0, "weights after a round trip");
}

TEST_CASE("spec.errors: the library keeps working after a refusal") {
    CHECK_THROWS_AS(attn::parse_spec(R"({"x": [[1, 2], [3]]})"), attn::spec_error);
    const attn::trace t = attn::compute_trace(attn::parse_spec(R"({"x": [[1, 0], [0, 1]]})"));
    CHECK(t.weights(0, 0, 0) > t.weights(0, 0, 1));
}

TEST_CASE("json.shortest_decimal: round-trips every float, as short as printf's shortest") {
    CHECK(attn::shortest_decimal(0.1f) == 0.1);
    CHECK(attn::shortest_decimal(0.5064804f) == 0.5064804);
    CHECK(attn::shortest_decimal(-1e9f) == -1e9);
    CHECK(attn::shortest_decimal(1e-30f) == 1e-30);  // outside the fast path
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> mant(-10.0f, 10.0f);
    std::uniform_int_distribution<int> exp(-12, 12);
    for (int i = 0; i < 20000; ++i) {
        const float f = mant(rng) * std::pow(10.0f, static_cast<float>(exp(rng)));
        const double d = attn::shortest_decimal(f);
        REQUIRE_MESSAGE(static_cast<float>(d) == f, "shortest_decimal(" << f << ") = " << d << " does not read back");
        char buf[32];
        int printf_digits = 9;
        for (int p = 1; p <= 9; ++p) {
            std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(f));
            if (std::strtof(buf, nullptr) == f) { printf_digits = p; break; }
        }
        std::snprintf(buf, sizeof buf, "%.*g", printf_digits, d);
        CHECK_MESSAGE(std::strtod(buf, nullptr) == d, f << ": " << d << " has more than " << printf_digits << " digits");
    }
}
