// The field table (attn/spec_fields.hpp): every row reaches its member, in a spec and in its gradients, and
// the reader, the writer, the trainer and attn grad all go through it.
#include <set>
#include <string>

#include "attn/grad.hpp"
#include "attn/json.hpp"
#include "attn/spec_fields.hpp"
#include "attn/train.hpp"
#include "check.hpp"

namespace {

/// The sentence a train spec's reading throws, or "".
std::string train_refusal(const attn::json& t) {
    try {
        attn::parse_train_spec(t.dump());
    } catch (const attn::spec_error& e) {
        return e.what();
    }
    return "";
}

/// A spec with every matrix and vector of one score family set to distinct values: d = 2, n_q = 2, n_k = 3.
attn::json full_spec(const char* score) {
    attn::json j = attn::json::parse(R"({
      "x": [[1, 2], [3, 4]], "memory": [[0.5, 1], [1.5, 2], [2.5, 3]],
      "weights": {"wq": [[1, 0.1], [0.2, 1]], "bq": [0.1, 0.2], "wk": [[1, 0.3], [0.4, 1]], "bk": [0.3, 0.4],
                  "wv": [[1, 0.5], [0.6, 1]], "bv": [0.5, 0.6], "wo": [[1, 0.7], [0.8, 1]], "bo": [0.7, 0.8]},
      "positional": {"learned": [[0.01, 0.02], [0.03, 0.04], [0.05, 0.06]]}
    })");
    j["score"] = score;
    if (std::string(score) == "additive")
        j["additive"] = attn::json::parse(R"({"w1": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], "w2": [[0.6, 0.5, 0.4], [0.3, 0.2, 0.1]], "v": [1, -1, 0.5]})");
    if (std::string(score) == "bilinear") j["bilinear"] = attn::json::parse(R"({"w": [[1, 0.25], [0.5, 1]]})");
    return j;
}

}  // namespace

TEST_CASE("spec fields: paths, params and grad names are unique, and each row reaches its own member") {
    std::set<std::string_view> paths, params, grads;
    for (const attn::tensor_field& f : attn::sequence_tensor_fields()) {
        CHECK(paths.insert(f.path).second);
        if (!f.param.empty()) CHECK(params.insert(f.param).second);
        if (!f.grad.empty()) CHECK(grads.insert(f.grad).second);
        CHECK((f.rank == 1 || f.rank == 2));
        CHECK(attn::tensor_field_at(f.path) == &f);
    }
    for (const char* score : {"additive", "bilinear"}) {
        attn::spec s = attn::spec_from_json(full_spec(score));
        const attn::json j = full_spec(score);
        std::set<const float*> seen;
        for (const attn::tensor_field& f : attn::sequence_tensor_fields()) {
            const attn::json* given = attn::json_at(j, f.path);
            const attn::float_span v = f.in_spec(s);
            INFO(f.path);
            if (!given) {
                CHECK(v.data == nullptr);
                continue;
            }
            // the row's floats are the JSON's, in order: the accessor names the field's own member
            const attn::json flat = f.rank == 1 ? *given : [&] { attn::json out = attn::json::array(); for (const auto& row : *given) for (const auto& x : row) out.push_back(x); return out; }();
            REQUIRE(v.size == flat.size());
            for (std::size_t k = 0; k < v.size; ++k) CHECK(v.data[k] == flat[k].get<float>());
            CHECK(seen.insert(v.data).second);  // no two rows share a member
        }
        // the writer writes every field through the same rows: the spec reads back to the same floats
        CHECK(attn::spec_to_json(attn::spec_from_json(attn::spec_to_json(s))) == attn::spec_to_json(s));
        for (const attn::tensor_field& f : attn::sequence_tensor_fields())
            if (attn::json_at(j, f.path)) CHECK(*attn::json_at(attn::spec_to_json(s), f.path) == *attn::json_at(j, f.path));
    }
}

TEST_CASE("spec fields: attn grad writes every gradient under the row's grad name; train.params takes the row's param") {
    attn::json j = full_spec("additive");
    j["target"] = attn::json::parse("[[0, 1], [1, 0]]");
    const auto [s, loss] = attn::parse_grad_spec(j.dump());
    attn::grad_result r = attn::compute_grad(s, loss);
    const attn::json out = attn::grad_to_json(r);
    for (const attn::tensor_field& f : attn::sequence_tensor_fields()) {
        INFO(f.path);
        if (f.grad.empty() || !f.in_grads) continue;
        const attn::float_span g = f.in_grads(r.grads);
        const attn::json* written = attn::json_at(out["grads"], f.grad);
        if (!g.size) {  // bilinear.w in an additive spec
            CHECK(written == nullptr);
            continue;
        }
        REQUIRE(written != nullptr);
        CHECK(written->size() == (f.rank == 1 ? g.size : g.size / g.cols));
    }
    // a parameter the table does not know is refused with the table's list
    attn::json t = full_spec("additive");
    t["loss"] = "mse";
    t["train"] = attn::json::parse(R"({"data": [{"x": [[1, 2], [3, 4]], "memory": [[0.5, 1], [1.5, 2], [2.5, 3]], "target": [[0, 1], [1, 0]]}],
                                       "params": ["wq", "nope"], "optimizer": {"sgd": {"lr": 0.1}}, "steps": 1})");
    const std::string sentence = train_refusal(t);
    CHECK(sentence.find("train.params[1] is \"nope\": use wq, bq, wk, bk, wv, bv, wo, bo, additive.w1, additive.w2, additive.v, bilinear or learned.") != std::string::npos);
    t["train"]["params"] = attn::json::array({"bilinear"});
    CHECK(train_refusal(t).find("bilinear") != std::string::npos);  // the spec has no bilinear matrix to train
}

TEST_CASE("spec fields: every row's shape words are the validator's rule, or the row has its own") {
    attn::spec s = attn::parse_spec(full_spec("additive").dump());
    for (const attn::tensor_field& f : attn::sequence_tensor_fields()) {
        INFO(f.path << ": \"" << f.shape << "\"");
        std::string why;
        const auto rule = attn::shape_rule_of(f, s, &why);
        // positional.learned's rows are at least max(n_q, n_k), checked by validate's own pass
        if (f.path == "positional.learned") {
            CHECK(!rule);
            continue;
        }
        REQUIRE(rule);  // a typo in the words would silently drop the check
        CHECK(!why.empty());
        const attn::float_span span = f.in_spec(s);
        if (!span.data) continue;  // bilinear.w in an additive spec
        CHECK(span.size == rule->rows * rule->cols);
    }
    // and the words name the sizes in the refusal
    attn::json bad = full_spec("additive");
    bad["additive"]["w2"] = attn::json::parse("[[1]]");
    CHECK_THROWS_WITH_AS(attn::parse_spec(bad.dump()), doctest::Contains("(d_head is 2 and d_a is"), attn::spec_error);
    bad = full_spec("additive");
    bad["weights"] = attn::json::parse(R"({"bo": [0, 0]})");
    CHECK_THROWS_WITH_AS(attn::parse_spec(bad.dump()), "weights.bo is given without weights.wo: a bias is added after its matrix.",
                         attn::spec_error);
}

TEST_CASE("spec fields: the scalar rows are read, written and refused by the table") {
    const attn::json j = attn::json::parse(R"({"x": [[1, 2], [3, 4], [5, 6]], "tokens": {"query": ["a", "b", "c"]}, "heads": 2,
        "kv_heads": 1, "weights": {"wk": [[1], [0]], "wv": [[0], [1]]},
        "mask": {"window": 2}, "mask_value": -1e4, "online_softmax": {"block": 2}})");
    const attn::spec s = attn::spec_from_json(j);
    CHECK(s.query_tokens == std::vector<std::string>{"a", "b", "c"});
    CHECK(s.heads == 2);
    CHECK(s.kv_heads == 1);
    CHECK(s.d_kv() == 1);
    CHECK(s.window == 2);
    CHECK(s.mask_value == -1e4f);
    CHECK(s.online_block == 2);
    // every row the spec has is written at its path, and reads back to the same spec
    const attn::json written = attn::spec_to_json(s);
    for (const attn::scalar_field& f : attn::sequence_scalar_fields())
        CHECK_MESSAGE((attn::json_at(written, f.path) != nullptr) == f.written(s), f.path);
    CHECK(attn::spec_to_json(attn::spec_from_json(written)) == written);
    CHECK(*attn::json_at(written, "mask.window") == 2);
    CHECK(*attn::json_at(written, "kv_heads") == 1);
    // rotary positions: the word takes Llama's base, the object names its own; both are written as the object
    const attn::spec rotary = attn::spec_from_json(attn::json::parse(R"({"x": [[1, 2]], "positional": "rotary"})"));
    CHECK(rotary.positional == attn::positional_kind::rotary);
    CHECK(rotary.rope_theta == 10000.0f);
    CHECK(attn::spec_to_json(rotary)["positional"] == attn::json::parse(R"({"rotary": 10000})"));
    const attn::spec base = attn::spec_from_json(attn::json::parse(R"({"x": [[1, 2]], "positional": {"rotary": 500000}})"));
    CHECK(base.rope_theta == 500000.0f);
    CHECK(attn::spec_to_json(attn::spec_from_json(attn::spec_to_json(base))) == attn::spec_to_json(base));
    CHECK(attn::json_at(attn::spec_to_json(rotary), "kv_heads") == nullptr);  // 0: as many as heads, not written
    // a whole number's range is the row's; a field its object needs is named
    const auto refusal = [](const char* text) {
        try {
            attn::parse_spec(text);
        } catch (const attn::spec_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal(R"({"x": [[1, 2]], "online_softmax": {}})") == "online_softmax has no \"block\": give the keys per tile, e.g. {\"block\": 2}.");
    CHECK(refusal(R"({"x": [[1, 2]], "online_softmax": {"block": 0}})") == "online_softmax.block is 0; at least 1.");
    CHECK(refusal(R"({"x": [[1, 2]], "mask": {"window": 0}})") == "mask.window is 0; at least 1.");
    CHECK(refusal(R"({"x": [[1, 2]], "tokens": {"query": ["a"], "keys": ["b"]}})").rfind("tokens has an unknown field \"keys\" (known: key, query)", 0) == 0);
    // a.schema() lists them with their ranges
    const attn::json schema = attn::sequence_schema_json();
    REQUIRE(schema["scalars"].size() == attn::sequence_scalar_fields().size());
    const auto scalar = [&](const std::string& path) {
        for (const auto& row : schema["scalars"])
            if (row["path"] == path) return row;
        return attn::json();
    };
    CHECK(scalar("heads") == attn::json::parse(R"({"path": "heads", "kind": "whole", "min": 1, "max": 64, "start": 1})"));
    // a new window starts at 2 keys; a new mask matrix keeps every key, a new learned table adds nothing
    CHECK(scalar("mask.window") == attn::json::parse(R"({"path": "mask.window", "kind": "whole", "min": 1, "max": 4096, "start": 2})"));
    // a new rotary base starts at Llama 2's
    CHECK(scalar("positional.rotary")["start"] == 10000);
    for (const auto& row : schema["tensors"]) {
        const std::string path = row["path"], start = row["start"];
        CHECK(start == (path == "mask.matrix" ? "ones" : path == "positional.learned" ? "zeros" : ""));
    }
    // every control's label, in both languages
    CHECK(schema["labels"]["mask.window"] == attn::json::parse(R"({"en": "Window k", "zh": "窗口 k"})"));
    CHECK(schema["labels"].size() == attn::sequence_field_labels().size());
}
