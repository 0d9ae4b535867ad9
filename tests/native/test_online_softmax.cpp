// The online-softmax stages (spec "online_softmax": {"block": B}): their last tile equals the
// ordinary softmax's row_max and row_sum and their result equals the context, for every block
// size, head count and mask; the hand arithmetic of one tile; the example's claims; the refusals.
#include <cmath>
#include <random>
#include <string>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

std::string random_rows(std::size_t rows, std::size_t cols, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-3, 3);
    std::string out = "[";
    for (std::size_t i = 0; i < rows; ++i) {
        out += i ? ",[" : "[";
        for (std::size_t j = 0; j < cols; ++j) out += (j ? "," : "") + std::to_string(u(rng));
        out += "]";
    }
    return out + "]";
}

/// Stage id's values of head h, row i, column c.
float at(const attn::trace& t, attn::stage_id id, std::size_t h, std::size_t i, std::size_t c) {
    const attn::stage_view v = *t.stage(id);
    return v.data[(h * v.shape[1] + i) * v.shape[2] + c];
}

}  // namespace

TEST_CASE("online softmax: after the last tile m = row_max, ℓ = row_sum, a / ℓ = context, for every block, head count and mask") {
    std::mt19937 rng(5);
    int cases = 0;
    for (const char* mask : {R"("none")", R"("causal")", R"({"window": 2})", R"({"matrix": [[1,0,0,1,1],[0,0,0,0,0],[0,1,1,0,0],[1,1,1,1,1],[0,0,0,0,1]]})"})
        for (std::size_t heads : {1, 2})
            for (std::size_t block = 1; block <= 5; ++block) {
                const std::string text = std::string(R"({"x": )") + random_rows(5, 4, rng) + R"(, "heads": )" +
                                         std::to_string(heads) + R"(, "mask": )" + mask +
                                         R"(, "online_softmax": {"block": )" + std::to_string(block) + "}}";
                INFO(text);
                const attn::trace t = attn::compute_trace(attn::parse_spec(text));
                const std::size_t tiles = (5 + block - 1) / block, last = tiles - 1, dh = 4 / heads;
                REQUIRE(t.online_max->shape(2) == tiles);
                REQUIRE(t.online_acc->shape(2) == tiles * dh);
                for (std::size_t h = 0; h < heads; ++h)
                    for (std::size_t i = 0; i < 5; ++i) {
                        CHECK(at(t, attn::stage_id::online_max, h, i, last) == doctest::Approx(at(t, attn::stage_id::row_max, h, i, 0)));
                        CHECK(at(t, attn::stage_id::online_sum, h, i, last) ==
                              doctest::Approx(at(t, attn::stage_id::row_sum, h, i, 0)).epsilon(1e-5));
                        for (std::size_t c = 0; c < dh; ++c) {
                            CHECK(std::fabs(at(t, attn::stage_id::online_output, h, i, c) - at(t, attn::stage_id::context, h, i, c)) < 2e-5);
                            CHECK(at(t, attn::stage_id::online_acc, h, i, last * dh + c) ==
                                  doctest::Approx(at(t, attn::stage_id::online_output, h, i, c) * at(t, attn::stage_id::online_sum, h, i, last)).epsilon(1e-5));
                        }
                        // the running maximum never falls, and a rescale factor is in [0, 1]
                        for (std::size_t k = 1; k < tiles; ++k) {
                            CHECK(at(t, attn::stage_id::online_max, h, i, k) >= at(t, attn::stage_id::online_max, h, i, k - 1));
                            const float r = at(t, attn::stage_id::online_rescale, h, i, k);
                            CHECK((r >= 0.0f && r <= 1.0f));
                        }
                        CHECK(at(t, attn::stage_id::online_rescale, h, i, 0) == 0.0f);
                    }
                ++cases;
            }
    CHECK(cases == 40);
}

TEST_CASE("online softmax: one tile by hand, and the arithmetic written for it") {
    // one query [2, 0] against keys [0,0], [2,0], [0,2] (scaled by √2), tiles of 2 keys
    const attn::trace t = attn::compute_trace(attn::parse_spec(
        R"({"x": [[2, 0]], "memory": [[0, 0], [2, 0], [0, 2]], "online_softmax": {"block": 2}})"));
    const float s1 = 0.0f, s2 = 4.0f / std::sqrt(2.0f), s3 = 0.0f;
    CHECK(at(t, attn::stage_id::online_max, 0, 0, 0) == doctest::Approx(s2));
    CHECK(at(t, attn::stage_id::online_sum, 0, 0, 0) == doctest::Approx(std::exp(s1 - s2) + 1.0f));
    CHECK(at(t, attn::stage_id::online_rescale, 0, 0, 1) == doctest::Approx(1.0f));
    CHECK(at(t, attn::stage_id::online_sum, 0, 0, 1) == doctest::Approx(std::exp(s1 - s2) + 1.0f + std::exp(s3 - s2)));
    CHECK(at(t, attn::stage_id::online_acc, 0, 0, 0) == doctest::Approx(2.0f));  // exp(0)·2 + exp(−s2)·0
    CHECK(attn::explain_cell(t, attn::stage_id::online_max, 0, 0, 1) == "m₁⁽²⁾ = max(m₁⁽¹⁾, tile 2's scores) = max(2.8284, 0) = 2.8284");
    CHECK(attn::explain_cell(t, attn::stage_id::online_sum, 0, 0, 1) ==
          "ℓ₁⁽²⁾ = ℓ₁⁽¹⁾·r₁⁽²⁾ + Σ_{j ∈ tile 2} exp(e₁ⱼ − m₁⁽²⁾) = 1.0591×1 + exp(0 − 2.8284) = 1.1182");
    CHECK(attn::explain_cell(t, attn::stage_id::online_rescale, 0, 0, 0) == "r₁⁽¹⁾ = 0: nothing was summed before the first tile");
    const std::string out = attn::explain_cell(t, attn::stage_id::online_output, 0, 0, 0);
    CHECK(out.rfind("o[1][1] = a ÷ ℓ (after the last tile) = ", 0) == 0);
    // the axis labels: one column per tile, and per tile and dimension for the accumulator
    const attn::stage_info& acc = attn::stage_info_of(attn::stage_id::online_acc);
    CHECK(attn::axis_labels(acc.cols, acc, t.spec) == std::vector<std::string>{"t1·d1", "t1·d2", "t2·d1", "t2·d2"});
}

TEST_CASE("online softmax: the example's claims (垫子 rescales in every tile, 猫 never; the result is the context)") {
    const attn::trace t = attn::compute_trace(attn::example_spec("online-softmax"));
    CHECK(at(t, attn::stage_id::online_rescale, 0, 0, 1) == 1.0f);
    CHECK(at(t, attn::stage_id::online_rescale, 0, 0, 2) == 1.0f);
    CHECK(at(t, attn::stage_id::online_rescale, 0, 1, 1) < 0.6f);
    CHECK(at(t, attn::stage_id::online_rescale, 0, 1, 2) < 0.2f);
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t c = 0; c < 2; ++c)
            CHECK(std::fabs(at(t, attn::stage_id::online_output, 0, i, c) - at(t, attn::stage_id::context, 0, i, c)) < 1e-6);
}

TEST_CASE("online softmax: refusals name the field") {
    using attn_test::refusal;
    CHECK(refusal(R"({"x": [[1], [2]], "online_softmax": {"block": 3}})") ==
          "online_softmax.block is 3 but must be between 1 and n_k = 2 (the keys a tile holds).");
    CHECK(refusal(R"({"x": [[1]], "online_softmax": {"block": 0}})").find("online_softmax.block") != std::string::npos);
    CHECK(refusal(R"({"x": [[1]], "online_softmax": {}})") ==
          "online_softmax has no \"block\": give the keys per tile, e.g. {\"block\": 2}.");
    CHECK(refusal(R"({"x": [[1]], "online_softmax": {"block": 1, "tile": 2}})").find("tile") != std::string::npos);
    CHECK(refusal(R"({"x": [[1]], "online_softmax": 2})").find("online_softmax") != std::string::npos);
}
