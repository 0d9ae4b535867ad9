// Each worked example shows what docs/spec.md says it shows, with the articles' numbers.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

attn::trace example(const std::string& id, const std::string& variant = "") {
    return attn::compute_trace(attn::example_spec(id, variant));
}

/// The key column with the largest weight in row i of head h.
std::size_t row_argmax(const attn::trace& t, std::size_t i, std::size_t h = 0) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < t.weights.shape(2); ++j)
        if (t.weights(h, i, j) > t.weights(h, i, best)) best = j;
    return best;
}

std::size_t index_of(const std::vector<std::string>& labels, const std::string& label) {
    const auto it = std::find(labels.begin(), labels.end(), label);
    REQUIRE_MESSAGE(it != labels.end(), "no token " << label);
    return static_cast<std::size_t>(it - labels.begin());
}

void check_table(const attn::tensor3& t, const std::vector<std::vector<double>>& expected, const std::string& what) {
    for (std::size_t i = 0; i < expected.size(); ++i)
        for (std::size_t j = 0; j < expected[i].size(); ++j)
            CHECK_MESSAGE(std::fabs(t(0, i, j) - expected[i][j]) < 5e-5,
                          what << "[" << i << "][" << j << "] = " << t(0, i, j) << ", the article says " << expected[i][j]);
}

}  // namespace

TEST_CASE("examples: the thirteen sequence examples of docs/spec.md, each with both languages and how its inputs were made") {
    const std::vector<std::string> expected{"numpy-3x4", "basic-attention", "translation", "long-range",
                                            "bank",      "coreference",     "context-window", "score-functions", "multi-head",
                                            "masking",   "positional-encoding", "complexity", "online-softmax"};
    const std::vector<std::string> vision{"se-block", "eca-block", "cbam-block", "coordinate-attention"};
    std::vector<std::string> all = expected;
    all.insert(all.end(), vision.begin(), vision.end());
    CHECK(attn::example_ids() == all);
    for (const std::string& id : vision) {
        INFO(id);
        CHECK(attn::example_is_vision(id));
        const attn::json j = attn::example_trace_json(id);
        CHECK(j["kind"] == "vision");
        CHECK(j["example"]["id"] == id);
        for (const char* field : {"title", "source", "summary", "embeddings"}) CHECK(!j["example"][field]["zh"].get<std::string>().empty());
        CHECK_THROWS_WITH_AS(attn::example_spec(id), doctest::Contains("is a vision example"), attn::spec_error);
    }
    for (const std::string& id : expected) {
        const attn::json& doc = attn::example_document(id);
        INFO(id);
        for (const char* field : {"title", "source", "summary", "embeddings"}) {
            CHECK(!doc[field]["en"].get<std::string>().empty());
            CHECK(!doc[field]["zh"].get<std::string>().empty());
        }
        // every variant computes, with weights of the spec's shape whose rows each sum to 1
        std::vector<std::string> variants{""};
        if (doc.contains("variants"))
            for (const attn::json& v : doc["variants"]) variants.push_back(v["id"].get<std::string>());
        for (const std::string& variant : variants) {
            INFO(variant);
            const attn::trace t = example(id, variant);
            const std::size_t heads = std::size_t(t.spec.heads), n_q = t.spec.n_q(), n_k = t.spec.n_k();
            CHECK(t.weights.shape(0) == heads);
            CHECK(t.weights.shape(1) == n_q);
            CHECK(t.weights.shape(2) == n_k);
            for (std::size_t h = 0; h < heads; ++h)
                for (std::size_t i = 0; i < n_q; ++i) {
                    double sum = 0;
                    for (std::size_t j = 0; j < n_k; ++j) sum += t.weights(h, i, j);
                    CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
                }
        }
        const attn::json j = attn::example_trace_json(id);
        CHECK(j["example"]["id"] == id);
        CHECK(!j["example"].contains("spec"));
    }
    CHECK_THROWS_WITH_AS(attn::example_document("nope"), doctest::Contains("example \"nope\" is unknown"), attn::spec_error);
    CHECK_THROWS_WITH_AS(attn::example_spec("bank", "sea"), doctest::Contains("no variant \"sea\" (known: river, finance)"),
                         attn::spec_error);
}

TEST_CASE("examples: every note fits the variant it is shown with, and the texts name a variant as its menu does") {
    for (const std::string& id : attn::example_ids()) {
        const attn::json& doc = attn::example_document(id);
        std::vector<std::string> variants{""};
        if (doc.contains("variants"))
            for (const attn::json& v : doc["variants"]) variants.push_back(v["id"].get<std::string>());
        for (const std::string& variant : variants) {
            INFO(id << " " << variant);
            const attn::json notes = attn::example_notes(id, variant);
            if (attn::example_is_vision(id) || !doc.contains("spec")) continue;  // no numbers quoted from a trace
            const attn::trace t = example(id, variant);
            for (auto it = notes.begin(); it != notes.end(); ++it)
                for (const char* lang : {"en", "zh"}) {
                    const std::string filled = attn::fill_numbers((*it)[lang].get<std::string>(), t);
                    // a number the variant's trace does not have is written "—": the note tells another variant's story
                    CHECK_MESSAGE(filled.find("—") == std::string::npos, it.key() << " (" << lang << "): " << filled);
                }
        }
        // "the variant 'none'" where the menu says "no positional encoding": a reader looks for the menu's words
        if (doc.contains("variants"))
            for (const attn::json& v : doc["variants"]) {
                const std::string vid = v["id"].get<std::string>();
                for (const std::string lang : {"en", "zh"}) {
                    if (v["title"][lang].get<std::string>() == vid) continue;
                    const std::string summary = doc["summary"][lang].get<std::string>();
                    INFO(id << " " << lang << " names the variant " << vid);
                    const std::vector<std::string> ways = lang == "en" ? std::vector<std::string>{"variant '" + vid + "'", "'" + vid + "' variant"}
                                                                       : std::vector<std::string>{"变体“" + vid + "”"};
                    for (const std::string& way : ways) CHECK(summary.find(way) == std::string::npos);
                }
            }
    }
    // the positional-encoding example without PE: uniform weights, said so (not "with PE, … its neighbours")
    const attn::trace none = example("positional-encoding", "none");
    const std::string said = attn::fill_numbers(attn::example_notes("positional-encoding", "none")["weights"]["en"].get<std::string>(), none);
    CHECK(said.find("With PE") == std::string::npos);
    CHECK(said.find("0.1250") != std::string::npos);
    CHECK(attn::example_notes("positional-encoding")["weights"]["en"].get<std::string>().rfind("With PE", 0) == 0);
    // the padding mask's <pad> row sees no key: its note says the row is uniform, not "every masked cell has weight 0"
    const std::string pad = attn::example_notes("masking", "padding")["weights"]["en"].get<std::string>();
    CHECK(attn::fill_numbers(pad, example("masking", "padding")).find("0.2500 each") != std::string::npos);
}

TEST_CASE("examples.numpy-3x4: the article's weights and outputs to 4 decimals") {
    const attn::trace t = example("numpy-3x4");
    check_table(t.weights, {{0.5065, 0.1863, 0.3072}, {0.1863, 0.5065, 0.3072}, {0.2741, 0.2741, 0.4519}}, "weights");
    check_table(t.context, {{0.8137, 0.4935, 0.5065, 0.1863}, {0.4935, 0.8137, 0.1863, 0.5065},
                            {0.7259, 0.7259, 0.2741, 0.2741}}, "output");
    check_table(*t.scaled, {{1, 0, 0.5}, {0, 1, 0.5}, {0.5, 0.5, 1}}, "scores / √4");
}

TEST_CASE("examples.basic-attention: projections with bias, √hidden, and the padding mask") {
    const attn::trace t = example("basic-attention");
    CHECK(t.spec.wq.w.has_value());
    CHECK(t.spec.wq.b.has_value());
    CHECK((*t.scaled)(0, 0, 1) == doctest::Approx(t.scores(0, 0, 1) / 2.0));
    const attn::trace m = example("basic-attention", "mask");
    for (std::size_t i = 0; i < 4; ++i) CHECK(m.weights(0, i, 3) == 0.0f);
}

TEST_CASE("examples.translation: 猫→cat, 坐→sat, 垫子→mat are the row maxima") {
    const attn::trace t = example("translation");
    const auto& q = t.spec.query_tokens;
    const auto& k = t.spec.key_tokens;
    CHECK(t.memory.has_value());
    CHECK(row_argmax(t, index_of(q, "猫")) == index_of(k, "cat"));
    CHECK(row_argmax(t, index_of(q, "坐")) == index_of(k, "sat"));
    CHECK(row_argmax(t, index_of(q, "垫子")) == index_of(k, "mat"));
}

TEST_CASE("examples.long-range: was attends to cat more than to the adjacent mouse") {
    const attn::trace t = example("long-range");
    const auto& q = t.spec.query_tokens;
    const std::size_t was = index_of(q, "was");
    CHECK(t.weights(0, was, index_of(q, "cat")) > 2 * t.weights(0, was, index_of(q, "mouse")));
    CHECK(row_argmax(t, was) == index_of(q, "cat"));
}

TEST_CASE("examples.bank: 银行 leans to river beside 河, to finance beside 存款/利率") {
    const std::size_t nature = 0, finance = 1;
    const attn::trace river = example("bank", "river");
    const attn::trace money = example("bank", "finance");
    const std::size_t r = index_of(river.spec.query_tokens, "银行"), f = index_of(money.spec.query_tokens, "银行");
    CHECK(river.x(r, nature) == money.x(f, nature));  // the same ambiguous word in both
    CHECK(river.context(0, r, nature) > river.context(0, r, finance));
    CHECK(money.context(0, f, finance) > money.context(0, f, nature));
    CHECK(river.weights(0, r, index_of(river.spec.query_tokens, "河")) > river.weights(0, r, index_of(river.spec.query_tokens, "的")));
}

TEST_CASE("examples.coreference: 那家店 attends to the restaurant named a turn earlier") {
    const attn::trace t = example("coreference");
    const auto& q = t.spec.query_tokens;
    CHECK(t.spec.mask == attn::mask_kind::causal);
    CHECK(row_argmax(t, index_of(q, "那家店")) == index_of(q, "蜀香园"));
    CHECK(t.weights(0, index_of(q, "那家店"), index_of(q, "蜀香园")) > 0.5f);
}

TEST_CASE("examples.context-window: 那家店 reaches 蜀香园 only while the window covers it") {
    const attn::trace whole = example("context-window", "window-10");
    const attn::trace inside = example("context-window", "window-5");
    const attn::trace outside = example("context-window", "window-4");
    const auto& q = inside.spec.query_tokens;
    const std::size_t shop = index_of(q, "那家店"), restaurant = index_of(q, "蜀香园");
    CHECK(shop - restaurant == 4);  // k = 5 is the smallest window that still reaches it
    for (const attn::trace* t : {&whole, &inside}) {
        CHECK(row_argmax(*t, shop) == restaurant);
        CHECK(t->weights(0, shop, restaurant) > 0.5f);
    }
    CHECK(outside.weights(0, shop, restaurant) == 0.0f);  // exactly 0: outside the window it does not exist
    CHECK(row_argmax(outside, shop) != restaurant);
    // the output of 那家店 changes: its 'place' feature falls once the restaurant is out of reach
    CHECK(outside.context(0, shop, 0) < inside.context(0, shop, 0) - 0.5f);
    // the default spec is the k = 5 window
    CHECK(example("context-window").weights == inside.weights);
}

TEST_CASE("examples.score-functions: four different score matrices on one input") {
    std::vector<attn::trace> traces;
    for (const char* v : {"dot", "scaled_dot", "additive", "bilinear"}) traces.push_back(example("score-functions", v));
    for (std::size_t a = 0; a < 4; ++a) {
        CHECK(attn::to_string(traces[a].spec.score) == std::string(attn::example_document("score-functions")["variants"][a]["id"]));
        for (std::size_t b = a + 1; b < 4; ++b) {
            // what softmax sees: the scaled scores for scaled_dot, the raw ones otherwise
            const attn::tensor3& x = traces[a].scaled ? *traces[a].scaled : traces[a].scores;
            const attn::tensor3& y = traces[b].scaled ? *traces[b].scaled : traces[b].scores;
            double diff = 0;
            for (std::size_t i = 0; i < x.size(); ++i) diff = std::max(diff, double(std::fabs(x.data()[i] - y.data()[i])));
            CHECK_MESSAGE(diff > 0.1, "variants " << a << " and " << b << " give the same scores");
        }
    }
    CHECK(traces[0].x == traces[3].x);
}

TEST_CASE("examples.multi-head: two heads that attend differently, then concat and W_o") {
    const attn::trace t = example("multi-head");
    REQUIRE(t.weights.shape(0) == 2);
    double diff = 0;
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) diff = std::max(diff, double(std::fabs(t.weights(0, i, j) - t.weights(1, i, j))));
    CHECK(diff > 0.3);
    CHECK(t.output.has_value());
    CHECK(t.concat(1, 2) == t.context(1, 1, 0));  // head 2, row 2, first column lands in column 3
}

TEST_CASE("examples.masking: zero weight on every masked key, in every variant") {
    for (const char* v : {"causal", "padding", "window"}) {
        const attn::trace t = example("masking", v);
        const auto keep = attn::mask_keep(t.spec);
        int masked = 0;
        for (std::size_t i = 0; i < keep.shape(0); ++i)
            for (std::size_t j = 0; j < keep.shape(1); ++j)
                if (!keep(i, j)) {
                    ++masked;
                    CHECK((*t.masked)(0, i, j) == -1e9f);
                    bool row_all_masked = true;
                    for (std::size_t c = 0; c < keep.shape(1); ++c) row_all_masked = row_all_masked && !keep(i, c);
                    if (!row_all_masked) CHECK_MESSAGE(t.weights(0, i, j) == 0.0f, v << " at " << i << "," << j);
                }
        CHECK(masked > 0);
    }
    const attn::trace pad = example("masking", "padding");
    for (std::size_t j = 0; j < 4; ++j) CHECK(pad.weights(0, 3, j) == doctest::Approx(0.25));  // all-masked <pad> row
}

TEST_CASE("examples.positional-encoding: the formula, and order made visible") {
    const attn::trace t = example("positional-encoding");
    REQUIRE(t.pe.has_value());
    const std::size_t d = t.spec.d_model();
    for (std::size_t pos = 0; pos < t.pe->shape(0); ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const double angle = pos / std::pow(10000.0, double(c - c % 2) / d);
            CHECK((*t.pe)(pos, c) == doctest::Approx(c % 2 ? std::cos(angle) : std::sin(angle)).epsilon(1e-6));
        }
    for (std::size_t i = 0; i < 8; ++i) CHECK(row_argmax(t, i) == i);  // each position attends most to itself
    const attn::trace none = example("positional-encoding", "none");
    for (std::size_t j = 0; j < 8; ++j) CHECK(none.weights(0, 3, j) == doctest::Approx(0.125));  // order-blind
    const attn::trace learned = example("positional-encoding", "learned");
    CHECK(learned.spec.positional == attn::positional_kind::learned);
    CHECK((*learned.pe)(2, 0) == learned.spec.learned(2, 0));
}

TEST_CASE("examples.complexity: the n² stages grow with the square of n") {
    const attn::json& doc = attn::example_document("complexity");
    const std::vector<std::size_t> sizes = doc["sizes"].get<std::vector<std::size_t>>();
    CHECK(sizes == std::vector<std::size_t>{8, 16, 32, 64, 128, 256, 512, 1024});
    CHECK(example("complexity").weights.size() == 64);
    for (std::size_t n : {16, 128}) {
        const attn::trace t = attn::compute_trace(attn::spec_from_json(attn::complexity_spec_json(n)));
        CHECK(t.scores.size() == n * n);
        CHECK(t.x(3, 2) == doctest::Approx(0.5 * std::sin(0.37 * 3 + 1.3 * 2)));
    }
    const double small = double(attn::trace_bytes(512, 512, 16, 1)), big = double(attn::trace_bytes(1024, 1024, 16, 1));
    CHECK(big / small > 3.8);  // quadratic: doubling n nearly quadruples the trace
}

TEST_CASE("format.cell and fill_numbers: numbers as people read them, filled from the trace") {
    CHECK(attn::format_cell(2.0f) == "2");
    CHECK(attn::format_cell(0.50648f) == "0.5065");
    CHECK(attn::format_cell(-1e9f) == "−1e9");
    CHECK(attn::format_cell(123456.0f) == "1.23e5");
    CHECK(attn::format_cell(1.2e-7f) == "1.2e-7");
    CHECK(attn::format_cell(-0.0f) == "0");
    const attn::trace t = example("numpy-3x4");
    CHECK(attn::fill_numbers("{weights[1][1]} {weights[1][3]} {nope[1][1]} {weights[9][9]} {weights[1]} {", t) ==
          "0.5065 0.3072 — — {weights[1]} {");
    CHECK(attn::fill_numbers("e^{scaled[1][3]}", t) == "e^0.5000");
}

TEST_CASE("explain.cell: translation's cells in its words (e[猫, sat] = q_猫·k_sat), cross-attention's keys from the source") {
    const attn::trace t = example("translation");
    const std::string e = attn::explain_cell(t, attn::stage_id::scores, 0, 0, 1);
    CHECK(e.rfind("e[猫, cat] = q_猫·k_cat = ", 0) == 0);
    CHECK(attn::explain_cell(t, attn::stage_id::row_sum, 0, 3, 0).rfind("s_垫子 = ", 0) == 0);
    CHECK(attn::explain_cell(t, attn::stage_id::k, 0, 5, 0) == "k[mat, d1] = m[mat, d1] = 0");  // K = M here: a row of the source
    CHECK(attn::explain_cell(t, attn::stage_id::context, 0, 0, 0).rfind("c[猫, d1] = Σₖ α[猫, k]·v[k, d1] = ", 0) == 0);
}

TEST_CASE("explain.cell: a spec without tokens names cells by position (e[q1, k2] = q1·k2), a repeated token by its place") {
    attn::spec s = attn::parse_spec(R"({"x": [[1, 0], [0, 1], [1, 1]]})");
    attn::trace t = attn::compute_trace(s);
    CHECK(attn::explain_cell(t, attn::stage_id::scores, 0, 0, 1) == "e[q1, k2] = q1·k2 = 1×0 + 0×1 = 0");
    CHECK(attn::explain_cell(t, attn::stage_id::row_max, 0, 1, 0).rfind("m₂ = max(", 0) == 0);
    s = attn::parse_spec(R"({"x": [[1, 0], [0, 1], [1, 1]], "tokens": {"query": ["the", "cat", "the"]}})");
    t = attn::compute_trace(s);
    CHECK(attn::explain_cell(t, attn::stage_id::scores, 0, 2, 1) == "e[the#3, cat] = q_the#3·k_cat = 1×0 + 1×1 = 1");
}

TEST_CASE("explain.cell: a rotated cell and its partner column; a query head reads its shared key/value head") {
    const attn::trace t = attn::compute_trace(attn::parse_spec(R"({"x": [[1, 2, 3, 4], [1, 2, 3, 4], [0, 1, 0, 1]], "heads": 2,
        "kv_heads": 1, "positional": {"rotary": 100}, "weights": {"wk": [[1, 0], [0, 1], [1, 0], [0, 1]], "wv": [[0, 1], [1, 0], [1, 1], [0, 0]]}})"));
    CHECK(attn::explain_cell(t, attn::stage_id::q_rot, 1, 1, 0) ==
          "q_rot[q2, d1] = q[q2, d1]·cos(1·θ₁) − q[q2, d2]·sin(1·θ₁) = 3×0.5403 − 4×0.8415 = −1.7450 (θ₁ = 100^(−0/2), position 1)");
    CHECK(attn::explain_cell(t, attn::stage_id::k_rot, 1, 1, 1) ==
          "k_rot[k2, d2] = k[k2, d2]·cos(1·θ₁) + k[k2, d1]·sin(1·θ₁) = 6×0.5403 + 4×0.8415 = 6.6077 (θ₁ = 100^(−0/2), position 1)");
    // query head 2 (index 1) meets the one key head's rotated keys: 3×4 + 4×6
    CHECK(attn::explain_cell(t, attn::stage_id::scores, 1, 0, 0) == "e[q1, k1] = q1·k1 = 3×4 + 4×6 = 36");
    CHECK(attn::explain_cell(t, attn::stage_id::k, 0, 1, 1) == "k[k2, d2] = Σₖ x[k2, k]·W_k[k, d2] = 1×0 + 2×1 + 3×0 + 4×1 = 6");
}

TEST_CASE("explain.cell: the arithmetic people read, with the trace's numbers") {
    const attn::trace t = example("numpy-3x4");
    // cells are named as the rows and columns beside them read: here the example's tokens token_1 …
    CHECK(attn::explain_cell(t, attn::stage_id::weights, 0, 0, 1) ==
          "α[token_1, token_2] = exp[token_1, token_2] ÷ s_token_1 = 0.3679 ÷ 1.9744 = 0.1863");
    CHECK(attn::explain_cell(t, attn::stage_id::row_max, 0, 1, 0) == "m_token_2 = max(0, 1, 0.5000) = 1");
    CHECK(attn::explain_cell(t, attn::stage_id::scores, 0, 0, 1) ==
          "e[token_1, token_2] = q_token_1·k_token_2 = 1×0 + 0×1 + 1×0 + 0×1 = 0");
    CHECK(attn::explain_cell(t, attn::stage_id::scaled, 0, 0, 2) == "scaled[token_1, token_3] = e[token_1, token_3] ÷ √4 = 1 ÷ 2 = 0.5000");
    CHECK(attn::explain_cell(t, attn::stage_id::weights, 0, 0, 1, true) ==
          "α[token_1, token_2] = exp[token_1, token_2] ÷ s_token_1 = 0.36787945 ÷ 1.97441 = 0.18632373");
    // no W_q: the query is a copy of the input, said once (not "= 1 = 1")
    CHECK(attn::explain_cell(t, attn::stage_id::q, 0, 0, 0) == "q[token_1, d1] = x[token_1, d1] = 1");
    CHECK_THROWS_AS(attn::explain_cell(t, attn::stage_id::weights, 0, 3, 0), attn::spec_error);
    CHECK_THROWS_AS(attn::explain_cell(t, attn::stage_id::masked, 0, 0, 0), attn::spec_error);  // no mask here
    CHECK(attn::format_exact(0.1f) == "0.1");
    CHECK(attn::format_exact(1.5e-7f) == "1.5e-7");
    CHECK(attn::format_exact(2.5e-6f) == "0.0000025");
    CHECK(attn::format_exact(-2.5f) == "−2.5");
    CHECK(attn::format_exact(123456789.0f) == "123456790");
}
