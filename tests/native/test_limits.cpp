// The limits of attn/limits.hpp, the parse guard, refusals that quote users' text, and the
// masked-key rule, through the C++ API (the CLI and the npm module are fuzzed in tests/fuzz/).
#include <string>

#include <doctest/doctest.h>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

using attn_test::refusal;

std::string repeated(const std::string& item, std::size_t n, const char* sep = ",") {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += (i ? sep : "") + item;
    return out;
}

}  // namespace

TEST_CASE("limits.parse: refused while parsing, naming where") {
    CHECK(refusal("{\"x\":[[1]]," + repeated("\"a\":1", 1) + "}") ==
          "the spec has an unknown field \"a\" (known: additive, bilinear, heads, kv_heads, mask, mask_value, memory, online_softmax, positional, score, tokens, weights, x).");
    std::string many = "{\"x\":[[1]]";
    for (int i = 0; i < 70; ++i) many += ",\"k" + std::to_string(i) + "\":1";
    CHECK(refusal(many + "}") == "the spec has more than 64 fields.");
    CHECK(refusal("{\"x\":[" + repeated("[1]", 4097) + "]}") ==
          "x has more than 4096 entries, over the limit of 4096 (positions, rows or columns).");
    CHECK(refusal("{\"x\":" + std::string(40, '[') + std::string(40, ']') + "}") ==
          "x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0] nests arrays and objects more than 32 levels deep.");
    CHECK(refusal("{\"x\":[[1]],\"tokens\":{\"query\":[\"" + std::string(2000, 'a') + "\"]}}") ==
          "tokens.query[0] is a text of 2000 bytes, over the limit of 1024.");
    CHECK(refusal("{\"x\":[[1]],\"weights\":{\"wq\":[[1]],\"wq\":[[2]]}}") ==
          "weights has the field \"wq\" twice: give each field once.");
    CHECK(refusal(std::string(attn::max_spec_bytes + 1, ' ')) == "the spec text is longer than the limit of 16 MiB.");
}

TEST_CASE("limits.numbers: whole numbers read exactly, with the real limit") {
    CHECK(refusal(R"({"x":[[1]],"heads":2147483648})") == "heads is 2147483648; at most 64.");
    CHECK(refusal(R"({"x":[[1]],"heads":-5})") == "heads is -5; at least 1.");
    CHECK(refusal(R"({"x":[[1,2]],"heads":2.00000001})") == "heads is 2.00000001 but must be a whole number.");
    CHECK(refusal(R"({"x":[[1]],"mask":{"window":16777217}})") == "mask.window is 16777217; at most 4096.");
    CHECK(refusal(R"({"x":[[1]],"heads":1e300})") == "heads is 1e+300; at most 64.");
    CHECK(refusal(R"({"x":[[1,2]],"heads":2.0})") == "");
}

TEST_CASE("limits.ambiguous: mask entries, unused parameters, mask_value") {
    CHECK(refusal(R"({"x":[[1]],"mask":{"matrix":[[1e-46]]}})") ==
          "mask.matrix[0][0] (row 1, column 1) is 1e-46 but must be 0 (masked) or 1 (kept).");
    CHECK(refusal(R"({"x":[[1]],"score":"dot","additive":{}})") ==
          "additive is given but score is \"dot\": remove additive, or set score to \"additive\".");
    CHECK(refusal(R"({"x":[[1],[2]],"mask":"causal","mask_value":0})") == "mask_value must be negative (seed 000 uses -1e9).");
    attn::spec s;  // the same rule for C++ callers, who skip the JSON reader
    s.x = {{1.0f, 2.0f}};
    s.bilinear = attn::matrix{{1.0f, 0.0f}, {0.0f, 1.0f}};
    CHECK_THROWS_WITH_AS(attn::validate(s),
                         "bilinear is given but score is \"scaled_dot\": remove bilinear, or set score to \"bilinear\".",
                         attn::spec_error);
}

TEST_CASE("limits.budget: work and memory are checked before computing, per budget") {
    attn::spec s;
    s.x = attn::matrix::from_shape({1024, 1});
    s.x.fill(0.1f);
    CHECK(attn::trace_bytes(1024, 1024, 1, 1) == 4 * (10 * 1024 + 5 * 1024 * 1024 + 2 * 1024));
    CHECK_NOTHROW(attn::validate(s));
    CHECK_THROWS_WITH_AS(attn::validate(s, attn::interactive_budget),
                         doctest::Contains("over the playground's limit (the npm module and the attn CLI go further) of 16 MiB"),
                         attn::spec_error);
    s.x = attn::matrix::from_shape({180, 1});
    s.x.fill(0.1f);
    s.score = attn::score_kind::additive;
    s.additive = {attn::matrix::from_shape({1, 1024}), attn::matrix::from_shape({1, 1024}), attn::vector::from_shape({1024})};
    s.additive.w1->fill(0.1f), s.additive.w2->fill(0.1f), s.additive.v->fill(0.1f);
    CHECK(attn::tanh_calls(s) == 180ull * 180 * 1024);
    CHECK_NOTHROW(attn::validate(s));  // 33,177,600 < 2^25
    s.x = attn::matrix::from_shape({182, 1});
    s.x.fill(0.1f);
    CHECK_THROWS_WITH_AS(attn::validate(s), doctest::Contains("evaluate tanh 3.4e+07 times"), attn::spec_error);
    attn::spec wide;  // 1024 × 1024 with all four projections: 6.4e9 multiply-adds
    wide.x = attn::matrix::from_shape({1024, 1024});
    wide.x.fill(0.0f);
    for (attn::projection* p : {&wide.wq, &wide.wk, &wide.wv, &wide.wo}) p->w = attn::matrix::from_shape({1024, 1024}), p->w->fill(0.0f);
    CHECK(attn::multiply_adds(wide) > attn::default_budget.multiply_adds);
    CHECK_THROWS_WITH_AS(attn::validate(wide), doctest::Contains("multiply-adds, over the limit of 4.3e+09"), attn::spec_error);
}

TEST_CASE("limits.user_text: short, printable, valid UTF-8") {
    CHECK(attn::user_text("héllo 猫") == "héllo 猫");
    CHECK(attn::user_text(std::string(100, 'k')) == std::string(80, 'k') + "…");
    CHECK(attn::user_text(std::string(100, '\xe7')) == repeated("\xEF\xBF\xBD", 80, "") + "…");  // lone lead bytes
    CHECK(attn::user_text("a\nb\x01") == "a\\nb\\u0001");
    CHECK(attn::user_text("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a UTF-16 surrogate is not UTF-8
    CHECK(attn::user_text("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");              // a 4-byte character is
    const std::string sentence = refusal("{\"x\":[[1]], \xff\xfe}");
    CHECK(sentence.rfind("the spec is not valid JSON (parse error at line 1, column 13", 0) == 0);
    CHECK(sentence.find('\xff') == std::string::npos);
}

TEST_CASE("mask.never_wins: masked keys get weight 0 while the row keeps a key; an empty row is uniform and reported") {
    const attn::trace t = attn::compute_trace(
        attn::parse_spec(R"({"x":[[100000],[-100000],[3]],"score":"dot","mask":{"matrix":[[0,1,0],[1,1,1],[0,0,0]]}})"));
    const auto& w = t.weights;
    // row 1 keeps only key 2, whose score -1e10 is below mask_value -1e9: it still takes all the weight
    CHECK(w(0, 0, 0) == 0.0f);
    CHECK(w(0, 0, 1) == 1.0f);
    CHECK(w(0, 0, 2) == 0.0f);
    CHECK((*t.masked)(0, 0, 0) == -1e9f);      // the masked stage shows mask_value, as seed 000 writes it
    CHECK((*t.masked)(0, 0, 1) == -1e10f);
    CHECK(t.row_max(0, 0, 0) == -1e10f);       // the maximum over the kept keys
    CHECK(t.exp(0, 0, 0) == 0.0f);
    for (int j = 0; j < 3; ++j) CHECK(w(0, 2, j) == doctest::Approx(1.0 / 3));  // no key kept: uniform
    CHECK(t.empty_rows == std::vector<std::size_t>{2});
    const attn::json j = attn::trace_to_json(t);
    CHECK(j["empty_rows"] == attn::json::array({2}));
}
