// The vision blocks: hand-computed values for each block, the SIMD kernels against their scalar
// twins, the worked examples' claims, and bad specs refused with one sentence naming the field.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "attn/attn.hpp"
#include "attn/spec_fields.hpp"
#include "check.hpp"

namespace {

attn::vision_trace run(const std::string& text) { return attn::compute_vision(attn::vision_spec_from_json(attn::parse_spec_json(text))); }

std::vector<float> stage(const attn::vision_trace& t, const char* id) {
    REQUIRE_MESSAGE(t.stage(id) != nullptr, id);
    return t.stage(id)->data;
}

float sig(float v) { return 1.0f / (1.0f + std::exp(-v)); }

std::string vision_refusal(const std::string& text) {
    try {
        const attn::json j = attn::parse_spec_json(text);
        if (attn::is_vision_spec(j)) attn::compute_vision(attn::vision_spec_from_json(j));
        else attn::compute_trace(attn::spec_from_json(j));
    } catch (const attn::spec_error& e) {
        return e.what();
    }
    return "";
}

// two channels of 2 × 2: means 2.5 and 0
const char* two_channels = R"("feature": [[[1, 2], [3, 4]], [[1, -1], [0, 0]]])";

}  // namespace

TEST_CASE("vision.se: pool, bottleneck, gate and output by hand") {
    const auto t = run(std::string(R"({"kind": "vision", "block": "se", )") + two_channels +
                       R"(, "se": {"w1": [[1], [2]], "b1": [-1], "w2": [[1, -1]], "b2": [0, 0.5]}})");
    CHECK(stage(t, "pool_avg") == std::vector<float>{2.5f, 0.0f});
    CHECK(stage(t, "fc1") == std::vector<float>{1.5f});            // 2.5·1 + 0·2 − 1
    CHECK(stage(t, "relu") == std::vector<float>{1.5f});
    CHECK(stage(t, "fc2") == std::vector<float>{1.5f, -1.0f});     // 1.5·1, 1.5·(−1) + 0.5
    const auto gate = stage(t, "gate");
    CHECK(gate[0] == doctest::Approx(sig(1.5f)));
    CHECK(gate[1] == doctest::Approx(sig(-1.0f)));
    const auto y = stage(t, "output");
    CHECK(y[3] == doctest::Approx(4 * sig(1.5f)));
    CHECK(y[4] == doctest::Approx(1 * sig(-1.0f)));
    CHECK(t.stage("output")->shape == std::vector<std::size_t>{2, 2, 2});
}

TEST_CASE("vision.eca: a cross-correlation across channels with zero padding, as PyTorch's Conv1d") {
    const auto t = run(R"({"kind": "vision", "block": "eca", "feature": [[[1]], [[2]], [[3]], [[4]]], "eca": {"w": [1, 10, 100]}})");
    // a_c = 1·z_{c−1} + 10·z_c + 100·z_{c+1}, zeros beyond the ends: not flipped (a convolution would be)
    CHECK(stage(t, "conv1d") == std::vector<float>{210.0f, 321.0f, 432.0f, 43.0f});
}

TEST_CASE("vision.cbam: both poolings through one MLP, then a K × K spatial convolution of [mean; max]") {
    const auto t = run(std::string(R"({"kind": "vision", "block": "cbam", )") + two_channels +
                       R"(, "cbam": {"w1": [[1], [1]], "w2": [[0, 0]], "spatial": [[[0, 0, 0], [0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 2], [0, 0, 0]]], "spatial_bias": -1}})");
    CHECK(stage(t, "pool_max") == std::vector<float>{4.0f, 1.0f});
    CHECK(stage(t, "channel_gate") == std::vector<float>{0.5f, 0.5f});  // W2 = 0: σ(0 + 0)
    const auto refined = stage(t, "channel_refined");
    CHECK(refined[3] == 2.0f);
    CHECK(stage(t, "spatial_avg") == std::vector<float>{0.5f, 0.25f, 0.75f, 1.0f});  // mean of (0.5, 0.5), (1, −0.5), …
    CHECK(stage(t, "spatial_max") == std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f});
    // S = 1·mean[i][j] + 2·max[i][j+1] − 1 (the right neighbour; zero past the edge)
    CHECK(stage(t, "spatial_conv") == std::vector<float>{0.5f + 2.0f - 1.0f, 0.25f + 0.0f - 1.0f, 0.75f + 4.0f - 1.0f, 1.0f - 1.0f});
    const auto y = stage(t, "output");
    CHECK(y[0] == doctest::Approx(0.5f * sig(1.5f)));
}

TEST_CASE("vision.ca: pooling per axis, shared 1 × 1 conv, inference BatchNorm, h_swish, row and column gates") {
    const auto t = run(R"({"kind": "vision", "block": "ca", "feature": [[[1, 2, 3], [4, 5, 6]]],
        "ca": {"w1": [[2]], "b1": [1], "bn": {"gamma": [2], "beta": [0.5], "mean": [1], "var": [3], "eps": 1},
               "wh": [[1]], "ww": [[-1]], "bw": [1]}})");
    CHECK(stage(t, "pool_h") == std::vector<float>{2.0f, 5.0f});
    CHECK(stage(t, "pool_w") == std::vector<float>{2.5f, 3.5f, 4.5f});
    CHECK(stage(t, "conv1") == std::vector<float>{5.0f, 11.0f, 6.0f, 8.0f, 10.0f});  // 2u + 1 at the 2 + 3 positions
    const auto bn = stage(t, "bn");
    CHECK(bn[0] == doctest::Approx((5.0f - 1.0f) / 2.0f * 2.0f + 0.5f));           // (f − 1)/√(3 + 1)·2 + 0.5
    const auto act = stage(t, "act");
    CHECK(act[0] == doctest::Approx(bn[0] * std::min(6.0f, bn[0] + 3) / 6));  // h_swish(f) = f·relu6(f + 3)/6
    CHECK(act[2] == doctest::Approx(bn[2] * std::min(6.0f, std::max(0.0f, bn[2] + 3)) / 6));
    const auto gh = stage(t, "gate_h"), gw = stage(t, "gate_w");
    CHECK(gh[0] == doctest::Approx(sig(act[0])));
    CHECK(gw[2] == doctest::Approx(sig(-act[4] + 1)));
    const auto y = stage(t, "output");
    CHECK(y[5] == doctest::Approx(6 * gh[1] * gw[2]));
}

TEST_CASE("vision.kernels: every SIMD twin equals its scalar twin on sizes around the vector width") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-2, 2);
    const attn::vision_kernel_set& fast = attn::simd_vision_kernels();
    const attn::vision_kernel_set& slow = attn::scalar_vision_kernels();
    for (std::size_t rows : {1, 2, 3, 5, 8})
        for (std::size_t cols : {1, 3, 4, 5, 7, 8, 9, 16, 17, 64, 65}) {
            std::vector<float> in(rows * cols), v(std::max(rows, cols));
            for (float& x : in) x = u(rng);
            for (float& x : v) x = u(rng);
            std::vector<float> a(rows * cols), b(rows * cols);
            for (auto k : {&attn::vision_kernel_set::row_mean, &attn::vision_kernel_set::row_max}) {
                (fast.*k)(a.data(), in.data(), rows, cols), (slow.*k)(b.data(), in.data(), rows, cols);
                attn_test::check_close(a.data(), b.data(), rows, 1e-5, "row reduction");
            }
            for (auto k : {&attn::vision_kernel_set::col_mean, &attn::vision_kernel_set::col_max}) {
                (fast.*k)(a.data(), in.data(), rows, cols), (slow.*k)(b.data(), in.data(), rows, cols);
                attn_test::check_close(a.data(), b.data(), cols, 1e-5, "column reduction");
            }
            fast.scale_rows(a.data(), in.data(), v.data(), rows, cols), slow.scale_rows(b.data(), in.data(), v.data(), rows, cols);
            attn_test::check_close(a.data(), b.data(), rows * cols, 0, "scale_rows");
            fast.mul_rows(a.data(), in.data(), v.data(), rows, cols), slow.mul_rows(b.data(), in.data(), v.data(), rows, cols);
            attn_test::check_close(a.data(), b.data(), rows * cols, 0, "mul_rows");
            a = in, b = in;
            fast.axpy(a.data(), v.data(), 0.75f, std::min(cols, v.size())), slow.axpy(b.data(), v.data(), 0.75f, std::min(cols, v.size()));
            attn_test::check_close(a.data(), b.data(), rows * cols, 0, "axpy");
        }
}

TEST_CASE("vision examples: SE and ECA raise the cat's channels; CBAM looks at the cat; CA's gates peak on its rows and columns") {
    const std::vector<std::size_t> object{0, 1, 2}, background{3, 4, 5};
    for (const char* id : {"se-block", "eca-block"}) {
        INFO(id);
        const auto gate = stage(attn::compute_vision(attn::example_vision_spec(id)), "gate");
        float lowest_object = 1, highest_background = 0;
        for (std::size_t c : object) lowest_object = std::min(lowest_object, gate[c]);
        for (std::size_t c : background) highest_background = std::max(highest_background, gate[c]);
        CHECK(lowest_object > highest_background);
    }
    const attn::vision_spec cat = attn::example_vision_spec("cbam-block");
    const auto is_cat = [&](std::size_t pixel) { return cat.feature[pixel] > 0.5f; };  // channel 1 is the silhouette
    const auto spatial = stage(attn::compute_vision(cat), "spatial_gate");
    const std::size_t best = std::size_t(std::max_element(spatial.begin(), spatial.end()) - spatial.begin());
    CHECK(is_cat(best));
    double on = 0, off = 0;
    std::size_t n_on = 0;
    for (std::size_t p = 0; p < spatial.size(); ++p) (is_cat(p) ? (on += spatial[p], ++n_on) : (off += spatial[p], 0));
    CHECK(on / double(n_on) > 3 * off / double(spatial.size() - n_on));
    const attn::vision_trace ca = attn::compute_vision(attn::example_vision_spec("coordinate-attention"));
    const std::size_t H = ca.spec.h, W = ca.spec.w;
    const auto gh = stage(ca, "gate_h"), gw = stage(ca, "gate_w");
    std::vector<bool> cat_row(H, false), cat_col(W, false);
    for (std::size_t i = 0; i < H; ++i)
        for (std::size_t j = 0; j < W; ++j)
            if (is_cat(i * W + j)) cat_row[i] = cat_col[j] = true;
    for (std::size_t c : object) {
        const std::size_t row = std::size_t(std::max_element(gh.begin() + std::ptrdiff_t(c * H), gh.begin() + std::ptrdiff_t((c + 1) * H)) - gh.begin()) - c * H;
        const std::size_t col = std::size_t(std::max_element(gw.begin() + std::ptrdiff_t(c * W), gw.begin() + std::ptrdiff_t((c + 1) * W)) - gw.begin()) - c * W;
        CHECK(cat_row[row]);
        CHECK(cat_col[col]);
        for (std::size_t i = 0; i < H; ++i)
            if (!cat_row[i]) CHECK(gh[c * H + i] < 0.5f);
    }
}

TEST_CASE("vision: bad specs get one sentence naming the field") {
    const std::string eca = R"({"kind": "vision", "block": "eca", "feature": [[[1]], [[2]]], "eca": {"w": [1, 2]}})";
    CHECK(vision_refusal(eca) == "eca.w is 2 wide: the kernel size must be odd, so it has a centre.");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "se", "feature": [[[1, 2]], [[1]]], "se": {}})") ==
          "feature[1] is 1 × 1 but feature[0] is 1 × 2: every channel needs the same size.");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "se", "feature": [[[1]], [[2]]], "se": {"w1": [[1]], "w2": [[1, 1]]}})") ==
          "se.w1 has 1 row but needs 2 (channels).");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "ca", "feature": [[[1]]], "ca": {"w1": [[1]], "wh": [[1]], "ww": [[1]],
        "bn": {"gamma": [1], "beta": [0], "mean": [0], "var": [-1]}}})") == "ca.bn.var[0] is −1: a variance cannot be negative.");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "cbam", "feature": [[[1]]], "cbam": {"w1": [[1]], "w2": [[1]], "spatial": [[[1, 2], [3, 4]], [[1, 2], [3, 4]]]}})") ==
          "cbam.spatial[0] is 2 wide: the kernel size must be odd, so it has a centre.");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1]}, "se": {}})") ==
          "se belongs to block \"se\", but block is \"eca\".");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1]}, "heads": 2})") ==
          "heads belongs to the sequence spec; a vision spec has kind, block, feature, channels and its block's parameters.");
    // every sequence field, online_softmax too (the vision reader's own list once lacked it)
    CHECK(vision_refusal(R"({"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1]}, "online_softmax": {"block": 1}})") ==
          "online_softmax belongs to the sequence spec; a vision spec has kind, block, feature, channels and its block's parameters.");
    CHECK(vision_refusal(R"({"x": [[1]], "feature": [[[1]]]})") == "feature belongs to a vision spec: add \"kind\": \"vision\".");
    CHECK(vision_refusal(R"({"kind": "image", "x": [[1]]})") == "kind is \"image\" but the only kind is \"vision\" (a sequence spec has no kind).");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "fft", "feature": [[[1]]]})") == "block is \"fft\" but must be \"se\", \"eca\", \"cbam\" or \"ca\".");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "se", "feature": [[[1]]], "se": {"w1": [[1]], "w2": [[1]]}, "channels": ["a", "b"]})") ==
          "channels has 2 labels but feature has 1 channel.");
    CHECK(vision_refusal(R"({"kind": "vision", "block": "se", "feature": [[[1e30]]], "se": {"w1": [[1e30]], "w2": [[1e30]]}})").find("overflows") != std::string::npos);
}

TEST_CASE("vision: validate_numbers refuses what new numbers break in a spec read before (the module's structure cache)") {
    attn::vision_spec s = attn::example_vision_spec("coordinate-attention");
    CHECK_NOTHROW(attn::validate_numbers(s));
    REQUIRE(s.bn);
    s.bn->var[1] = -0.5f;
    CHECK_THROWS_WITH_AS(attn::validate_numbers(s), "ca.bn.var[1] is −0.5000: a variance cannot be negative.", attn::spec_error);
}

TEST_CASE("vision: the arithmetic of a value names its inputs and ends in the trace's number") {
    const attn::vision_trace t = attn::compute_vision(attn::example_vision_spec("se-block"));
    const std::string gate = attn::explain_vision_cell(t, "gate", 0);
    CHECK(gate == "s[1] = σ(f2[1]) = σ(" + attn::format_cell(stage(t, "fc2")[0]) + ") = " + attn::format_cell(stage(t, "gate")[0]));
    CHECK(attn::explain_vision_cell(t, "pool_avg", 0).find(") / 64 = 0.3125") != std::string::npos);
    for (const attn::vision_stage& s : t.stages)
        for (std::size_t k = 0; k < s.data.size(); k += 7) {
            const std::string text = attn::explain_vision_cell(t, s.id, k);
            CHECK_MESSAGE(text.size() > text.rfind("= ") + 2, text);
            CHECK(text.substr(text.rfind("= ") + 2) == attn::format_cell(s.data[k]));
        }
}

TEST_CASE("vision: the field table's shape words are the reader's rules, and its rows the writer's fields") {
    const std::string two = R"("feature": [[[1]], [[2]]], )";
    const auto spec = [&](const char* block, const char* params) {
        return std::string(R"({"kind": "vision", "block": ")") + block + "\", " + two + "\"" + block + "\": " + params + "}";
    };
    // m is set by the first matrix that names it; later ones are held to it, and say where it came from
    CHECK(vision_refusal(spec("se", R"({"w1": [[1, 1, 1], [1, 1, 1]], "w2": [[1, 1]]})")) == "se.w2 has 1 row but needs 3 (m, the columns of se.w1).");
    CHECK(vision_refusal(spec("se", R"({"w1": [[1], [1]], "w2": [[1]]})")) == "se.w2 has 1 column but needs 2 (channels).");
    CHECK(vision_refusal(spec("se", R"({"w1": [[1], [1]], "b1": [1, 2], "w2": [[1, 1]]})")) == "se.b1 has 2 values but se.w1 has 1 column.");
    CHECK(vision_refusal(spec("se", R"({"w1": [[1], [1]]})")) == "se needs w2 (m × channels).");
    CHECK(vision_refusal(spec("se", R"({"w1": [[1], [1]], "w2": [[1, 1]], "w3": 1})")).rfind("se has an unknown field \"w3\" (known: b1, b2, w1, w2)", 0) == 0);
    CHECK(vision_refusal(spec("eca", "{}")) == "eca needs w (k: the k taps of the 1-D convolution across channels, k odd).");
    CHECK(vision_refusal(spec("cbam", R"({"w1": [[1], [1]], "w2": [[1, 1]]})")) ==
          "cbam needs spatial (2 × K × K: one K × K kernel for the mean map and one for the max map, K odd).");
    CHECK(vision_refusal(spec("cbam", R"({"w1": [[1], [1]], "w2": [[1, 1]], "spatial": [[[1]]]})")) ==
          "cbam.spatial must be 2 × K × K: one K × K kernel for the mean map and one for the max map, K odd.");
    CHECK(vision_refusal(spec("cbam", R"({"w1": [[1], [1]], "w2": [[1, 1]], "spatial": [[[1]], [[1, 2, 3], [1, 2, 3], [1, 2, 3]]]})")) ==
          "cbam.spatial[1] is 3 wide but cbam.spatial[0] is 1.");
    const std::string ca = R"({"w1": [[1], [1]], "wh": [[1, 1]], "ww": [[1, 1]], "bn": )";
    CHECK(vision_refusal(spec("ca", (ca + R"({"gamma": [1]}})").c_str())) == "ca.bn needs beta (m = 1, the columns of ca.w1).");
    // eps alone is a given ca.bn too: its statistics are needed
    CHECK(vision_refusal(spec("ca", (ca + R"({"eps": 0.001}})").c_str())) == "ca.bn needs gamma (m = 1, the columns of ca.w1).");
    CHECK(vision_refusal(spec("ca", (ca + R"({"gamma": [1, 2], "beta": [0], "mean": [0], "var": [1]}})").c_str())) ==
          "ca.bn.gamma has 2 values but ca.w1 has 1 column.");
    CHECK(vision_refusal(spec("ca", (ca + R"({"gamma": [1], "beta": [0], "mean": [0], "var": [1], "eps": 0}})").c_str())) ==
          "ca.bn.eps is 0 but must be positive (it keeps √(var + eps) above 0).");
    CHECK(vision_refusal(spec("ca", (ca + R"({"gamma": [1], "beta": [0], "mean": [0], "var": [1], "mu": 0}})").c_str())).rfind("ca.bn has an unknown field \"mu\" (known: beta, eps, gamma, mean, var)", 0) == 0);
    CHECK(vision_refusal(spec("ca", (ca + "[1]}").c_str())).find("ca.bn") != std::string::npos);
    // every row of a block reaches its member by the accessor its rank needs
    for (const attn::vision_tensor_field& f : attn::vision_tensor_fields()) {
        if (f.block.empty()) continue;  // the feature map: read and written with the spec's own top-level fields
        INFO(f.path);
        CHECK((f.rank == 0 ? bool(f.number) : bool(f.in_spec)));
        if (f.rank == 2) CHECK(bool(f.layer));
        if (f.rank == 3) CHECK(bool(f.side));
        if (!f.bias_of.empty())  // a bias names a weight matrix of its own block
            CHECK(std::any_of(attn::vision_tensor_fields().begin(), attn::vision_tensor_fields().end(),
                              [&](const attn::vision_tensor_field& w) { return w.path == f.bias_of && w.rank == 2 && w.block == f.block; }));
    }
    // a spec made in C++ with no kernel yet is written, not looped over
    attn::vision_spec empty = attn::example_vision_spec("cbam-block");
    empty.kernel = 0;
    empty.spatial.clear();
    CHECK(attn::vision_spec_to_json(empty)["cbam"]["spatial"] == attn::json::parse("[[], []]"));
    // the writer writes every row of the block, defaults included, and reads back to the same numbers
    for (const char* id : {"se-block", "eca-block", "cbam-block", "coordinate-attention"}) {
        const attn::vision_spec s = attn::example_vision_spec(id);
        const attn::json written = attn::vision_spec_to_json(s);
        const attn::json again = attn::vision_spec_to_json(attn::vision_spec_from_json(written));
        CHECK(written == again);
        for (const attn::vision_tensor_field& f : attn::vision_tensor_fields())
            if (f.block == attn::to_string(s.block) && (f.path.substr(0, 6) != "ca.bn." || s.bn))
                CHECK_MESSAGE(attn::json_at(written, f.path), id, " lacks ", f.path);
    }
}
