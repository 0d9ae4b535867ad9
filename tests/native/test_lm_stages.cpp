// The language model's stage registry (attn/lm_stages.hpp) against what a model trace really holds: the
// same stages in the same order, shapes that match each row's axes, operands that are earlier stages of
// the same trace, and the JSON every registry writes alike.
#include <algorithm>
#include <string>
#include <vector>

#include "attn/format.hpp"
#include "attn/lm_stages.hpp"
#include "check.hpp"

namespace {

using namespace attn::lm;

model small(int d_mlp) {
    config c;
    c.n_layer = 3, c.n_head = 2, c.d_model = 8, c.d_mlp = d_mlp, c.n_ctx = 8;
    return make_model(c, {"<unk>", "a", "b", "猫"}, 1);
}

/// The registry's ids in order, less those this trace cannot have.
std::vector<std::string> expected_ids(const model& m, bool step) {
    std::vector<std::string> out;
    for (const model_stage_row& row : model_stage_order()) {
        const std::string id = row.id();
        if (m.config.d_mlp == 0 && row.own && row.own->needs_mlp) continue;
        if (!step && id == "kv_cache") continue;
        out.push_back(id);
    }
    return out;
}

std::size_t axis_size(attn::axis_kind kind, const model& m, std::size_t n) {
    switch (kind) {
        case attn::axis_kind::query:
        case attn::axis_kind::key: return n;
        case attn::axis_kind::feature: return static_cast<std::size_t>(m.config.d_model);
        case attn::axis_kind::head_feature: return static_cast<std::size_t>(m.config.d_model / m.config.n_head);
        case attn::axis_kind::hidden: return static_cast<std::size_t>(m.config.d_mlp);
        case attn::axis_kind::vocab: return m.vocab.size();
        default: return 0;
    }
}

}  // namespace

TEST_CASE("lm stages: a trace holds the registry's stages in the registry's order, each of its shape") {
    for (const int d_mlp : {16, 0}) {
        const model m = small(d_mlp);
        const model_trace t = trace(m, "ab猫ba");
        // the registry's order made concrete: the global rows, with the run of per-layer rows once for each layer
        std::vector<std::pair<std::string, std::optional<int>>> expected;
        std::vector<std::string> layer_rows;
        const auto emit_layers = [&] {
            for (int l = 0; l < m.config.n_layer; ++l)
                for (const std::string& id : layer_rows) expected.emplace_back(id, l);
            layer_rows.clear();
        };
        for (const std::string& id : expected_ids(m, false)) {
            const model_stage_info* own = model_stage_of(id);
            if (own && !own->per_layer) {
                emit_layers();
                expected.emplace_back(id, std::nullopt);
            } else {
                layer_rows.push_back(id);
            }
        }
        emit_layers();
        std::vector<std::pair<std::string, std::optional<int>>> traced;
        for (const stage& s : t.stages) traced.emplace_back(s.id, s.layer);
        CHECK(traced == expected);
        // each model stage's shape is its rows × cols axes
        for (const stage& s : t.stages)
            if (const model_stage_info* own = model_stage_of(s.id)) {
                INFO(s.id, " d_mlp ", d_mlp);
                CHECK(s.shape == std::vector<std::size_t>{axis_size(own->rows, m, 5), axis_size(own->cols, m, 5)});
            }
    }
}

TEST_CASE("lm stages: every operand is a stage of the same trace, computed before it") {
    for (const int d_mlp : {16, 0}) {
        const model m = small(d_mlp);
        const model_trace t = trace(m, "ab猫");
        for (std::size_t k = 0; k < t.stages.size(); ++k) {
            const stage& s = t.stages[k];
            const auto operands = model_stage_operands(s.id, s.layer, m.config);
            INFO(s.id, " layer ", s.layer.value_or(-1), " d_mlp ", d_mlp);
            CHECK(operands.empty() == (s.id == "embed" || s.id == "pe"));
            for (const auto& [id, layer] : operands) {
                const stage* from = t.find(id, layer);
                REQUIRE_MESSAGE(from, id);
                CHECK(from < &s);  // earlier in the trace
            }
        }
        // the concrete wiring people read in the captions
        using op = std::pair<std::string, std::optional<int>>;
        CHECK(model_stage_operands("ln_1", 0, m.config) == std::vector<op>{{"x", std::nullopt}});
        CHECK(model_stage_operands("ln_1", 2, m.config) == std::vector<op>{{"resid_post", 1}});
        CHECK(model_stage_operands("q", 1, m.config) == std::vector<op>{{"ln_1", 1}});
        CHECK(model_stage_operands("ln_f", std::nullopt, m.config) == std::vector<op>{{"resid_post", 2}});
        CHECK(model_stage_operands("resid_post", 1, m.config) ==
              (d_mlp ? std::vector<op>{{"resid_mid", 1}, {"mlp_out", 1}} : std::vector<op>{{"resid_mid", 1}}));
    }
}

TEST_CASE("lm stages: a generation step's stages are registry rows, and the JSON has every registry's facts") {
    const model m = small(16);
    // a step: per layer the cache (2 × h × n × d_h, the row's per-head key × head_feature) and the new row of weights
    std::vector<std::string> step;
    for (const stage& s : step_trace(m, "ab猫").stages) step.push_back(s.id + (s.layer ? std::to_string(*s.layer) : ""));
    CHECK(step == std::vector<std::string>{"kv_cache0", "weights0", "kv_cache1", "weights1", "kv_cache2", "weights2", "logits", "probs"});
    CHECK(step_trace(m, "ab猫").stages[0].shape == std::vector<std::size_t>{2, 2, 3, 4});
    CHECK(model_stage_of("kv_cache")->per_head);
    const attn::json rows = model_stage_registry_json();
    REQUIRE(rows.size() == model_stage_order().size());
    std::vector<std::string> block;
    for (const attn::json& row : rows) {
        for (const char* key : {"id", "symbol", "title", "title_zh", "explain", "scale", "kind", "per_layer", "per_head", "rows", "cols",
                                "formula", "operands", "block"})
            CHECK_MESSAGE(row.contains(key), row["id"], " lacks ", key);
        if (row["block"].get<bool>()) block.push_back(row["id"]);
    }
    // the page's block strip: what the residual stream meets in one layer, in that order
    CHECK(block == std::vector<std::string>{"ln_1", "output", "resid_mid", "ln_2", "mlp_pre", "mlp_act", "mlp_out", "resid_post"});
    const auto row_of = [&](const char* id) { return *std::find_if(rows.begin(), rows.end(), [&](const attn::json& r) { return r["id"] == id; }); };
    CHECK(row_of("probs")["scale"] == "probability");
    CHECK(row_of("weights")["scale"] == "probability");  // the sequence registry's own row
    CHECK(row_of("weights")["kind"] == "attention");
    CHECK(row_of("mlp_pre")["cols"] == "hidden");
    CHECK(row_of("logits")["cols"] == "vocab");
    CHECK(row_of("q")["operands"] == attn::json::parse(R"([{"id": "ln_1", "layer": "same"}])"));
    CHECK(row_of("ln_1")["operands"] == attn::json::parse(R"([{"id": "resid_post", "layer": "previous"}])"));
    // each layer's attention rows carry the sequence registry's own facts, field for field
    const attn::json seq = attn::stage_registry_json();
    std::size_t attention_rows = 0;
    for (const attn::json& row : rows) {
        if (row["kind"] != "attention") continue;
        ++attention_rows;
        const auto same = std::find_if(seq.begin(), seq.end(), [&](const attn::json& r) { return r["id"] == row["id"]; });
        REQUIRE(same != seq.end());
        for (const char* key : {"id", "symbol", "title", "title_zh", "explain", "scale", "per_head", "rows", "cols"})
            CHECK_MESSAGE((*same)[key] == row[key], row["id"], " ", key);
    }
    CHECK(attention_rows == 13);  // q k v scores scaled masked row_max exp row_sum weights context concat output
}

TEST_CASE("lm stages: a caption reads the numbers of the stages the registry names as its operands") {
    const model m = small(16);
    const model_trace t = trace(m, "ab猫");
    const auto at = [&](const char* id, std::optional<int> layer, std::size_t i, std::size_t j) {
        const stage* s = t.find(id, layer);
        REQUIRE(s);
        return attn::format_cell(s->data[i * s->shape.back() + j]);
    };
    // the residual stream before layer 2 is layer 1's resid_post; before layer 1 it is x
    CHECK(explain_model_cell(m, t, "resid_mid", 1, 2, 3) ==
          "x′[猫, d4] = " + at("resid_post", 0, 2, 3) + " + " + at("output", 1, 2, 3) + " = " + at("resid_mid", 1, 2, 3));
    CHECK(explain_model_cell(m, t, "resid_mid", 0, 0, 0) ==
          "x′[a, d1] = " + at("x", std::nullopt, 0, 0) + " + " + at("output", 0, 0, 0) + " = " + at("resid_mid", 0, 0, 0));
    CHECK(explain_model_cell(m, t, "resid_post", 2, 1, 5) ==
          "x″[b, d6] = " + at("resid_mid", 2, 1, 5) + " + " + at("mlp_out", 2, 1, 5) + " = " + at("resid_post", 2, 1, 5));
    CHECK(explain_model_cell(m, t, "x", std::nullopt, 1, 0) ==
          "x[b, d1] = E " + at("embed", std::nullopt, 1, 0) + " + PE " + at("pe", std::nullopt, 1, 0) + " = " + at("x", std::nullopt, 1, 0));
    CHECK(explain_model_cell(m, t, "ln_1", 2, 0, 1).rfind("LN₁[a, d2] = (" + at("resid_post", 1, 0, 1) + " − μ ", 0) == 0);
    CHECK(explain_model_cell(m, t, "ln_f", std::nullopt, 0, 1).rfind("LN_f[a, d2] = (" + at("resid_post", 2, 0, 1) + " − μ ", 0) == 0);
    CHECK(explain_model_cell(m, t, "mlp_act", 0, 1, 7).rfind("GELU(z[b, 8]) = ½ · " + at("mlp_pre", 0, 1, 7) + " · ", 0) == 0);
    const model plain = small(0);
    const model_trace u = trace(plain, "ab");
    CHECK(explain_model_cell(plain, u, "resid_post", 1, 0, 0).find("(attention-only: no MLP)") != std::string::npos);
}
