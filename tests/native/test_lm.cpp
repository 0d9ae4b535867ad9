// The tiny language model: its gradient against finite differences for every tensor, the trace, training's
// batched pass and the key/value cache as one forward pass (the same bits), the weight file round trip and its
// refusals, the held-out split, repeatable training, and the head scores on hand-made patterns.
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "attn/trace.hpp"
#include "check.hpp"
#include "lm/blocks.hpp"

namespace {

using namespace attn::lm;

model tiny(int d_mlp, bool learned) {
    config c;
    c.n_layer = 2;
    c.n_head = 2;
    c.d_model = 8;
    c.d_mlp = d_mlp;
    c.n_ctx = 8;
    c.learned_positions = learned;
    model m = make_model(c, {"<unk>", "a", "b", "c", "d", "猫", "\n"}, 3);
    rng r(5);  // larger than nanoGPT's start, so every path carries a visible gradient
    for (float& w : m.weights) w += static_cast<float>(r.normal() * 0.3);
    return m;
}

std::vector<std::uint8_t> with_header(const std::string& header, std::size_t data_bytes) {
    std::vector<std::uint8_t> out(8 + header.size() + data_bytes, 0);
    const std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
    std::memcpy(out.data() + 8, header.data(), header.size());
    return out;
}

std::string refusal(const std::vector<std::uint8_t>& bytes) {
    try {
        read_safetensors(bytes.data(), bytes.size());
    } catch (const attn::spec_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("lm: the gradient of every tensor matches central finite differences") {
    for (int d_mlp : {0, 12})
        for (bool learned : {true, false}) {
            model m = tiny(d_mlp, learned);
            const std::vector<int> in = {1, 2, 3, 5, 1, 2, 4, 6, 2, 2, 1, 0, 3, 5, 6, 1}, target = {2, 3, 5, 1, 2, 4, 6, 2, 2, 1, 0, 3, 5, 6, 1, 4};
            std::vector<float> grad;
            loss_and_grad(m, in, target, 2, 8, &grad);
            for (const param& p : m.table) {
                double worst = 0, scale = 1e-3;
                for (std::size_t k = 0; k < std::min<std::size_t>(p.size, 24); ++k) {
                    const std::size_t i = p.offset + (k * 7919) % p.size;
                    const float keep = m.weights[i];
                    const float h = 1e-2f;
                    m.weights[i] = keep + h;
                    const double up = loss_and_grad(m, in, target, 2, 8, nullptr);
                    m.weights[i] = keep - h;
                    const double down = loss_and_grad(m, in, target, 2, 8, nullptr);
                    m.weights[i] = keep;
                    const double fd = (up - down) / (2 * h);
                    worst = std::max(worst, std::abs(fd - grad[i]));
                    scale = std::max(scale, std::abs(fd));
                }
                INFO(p.name, " d_mlp ", d_mlp, " learned ", learned);
                CHECK(worst <= 2e-3 * scale + 2e-4);
            }
        }
}

TEST_CASE("lm: a layer's attention with the model's loss above it gets the model's own gradients") {
    // the sequence core's backward pass of layer_grad_of's spec, from the upstream gradient alone, against
    // the whole model's backward pass: each of the layer's attention weights, and the same loss
    for (int d_mlp : {0, 12}) {
        const model m = tiny(d_mlp, true);
        const model_trace t = trace(m, "abc猫d\nab");
        const std::vector<int>& ids = t.tokens.ids;
        const std::vector<int> in(ids.begin(), ids.end() - 1), target(ids.begin() + 1, ids.end());
        std::vector<float> full;
        const double loss = loss_and_grad(m, in, target, 1, static_cast<int>(in.size()), &full);
        for (int l = 0; l < m.config.n_layer; ++l) {
            const layer_grad lg = layer_grad_of(m, t, l);
            CHECK(lg.loss == loss);
            CHECK(lg.spec.query_tokens == t.tokens.chars);
            for (std::size_t c = 0; c < 8; ++c) CHECK(lg.upstream.target(7, c) == 0.0f);  // the last character predicts nothing
            const attn::grad_result g = attn::compute_grad(lg.spec, lg.upstream);
            const struct { const attn::projection& p; const char *w, *b; } parts[] = {
                {g.grads.wq, "attn.wq", "attn.bq"}, {g.grads.wk, "attn.wk", "attn.bk"}, {g.grads.wv, "attn.wv", "attn.bv"}, {g.grads.wo, "attn.wo", "attn.bo"}};
            for (const auto& part : parts) {
                const float* w = full.data() + m.slot(layer_tensor_name(l, part.w)).offset;
                const float* b = full.data() + m.slot(layer_tensor_name(l, part.b)).offset;
                double worst = 0;
                for (std::size_t k = 0; k < 64; ++k) worst = std::max(worst, double(std::abs(part.p.w->data()[k] - w[k])));
                for (std::size_t k = 0; k < 8; ++k) worst = std::max(worst, double(std::abs((*part.p.b)(k) - b[k])));
                INFO(part.w, " layer ", l, " d_mlp ", d_mlp);
                CHECK(worst < 1e-6);
            }
        }
    }
    const model m = tiny(0, true);
    const auto refusal = [&](const char* text, int layer) {
        try {
            layer_grad_of(m, trace(m, text), layer);
        } catch (const attn::spec_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal("a", 0) == "a layer's gradient needs a text of at least 2 characters: each is predicted from those before it.");
    CHECK(refusal("ab", 2) == "layer is 2 but the model has layers 0 to 1.");
}

TEST_CASE("lm: the trace, a training step and generation are one forward pass: the same bits (issue 46)") {
    const model m = tiny(12, true);
    const model_trace t = trace(m, "abc猫d\nab");
    REQUIRE(t.tokens.ids.size() == 8);
    const std::size_t n = 8, V = m.vocab.size();
    const stage* traced = t.find("logits", std::nullopt);
    REQUIRE(traced);
    // training's pass: this text as the middle sequence of a batch of three
    std::vector<int> batch = {1, 2, 3, 4, 1, 2, 3, 4};
    batch.insert(batch.end(), t.tokens.ids.begin(), t.tokens.ids.end());
    batch.insert(batch.end(), {4, 3, 2, 1, 4, 3, 2, 1});
    std::vector<float> logits;
    std::vector<std::vector<float>> weights;
    forward_logits(m, batch, 3, 8, logits, &weights);
    CHECK(std::vector<float>(logits.begin() + static_cast<std::ptrdiff_t>(n * V), logits.begin() + static_cast<std::ptrdiff_t>(2 * n * V)) == traced->data);
    for (int l = 0; l < 2; ++l) {
        const stage* w = t.find("weights", l);
        REQUIRE(w);
        CHECK(w->shape == std::vector<std::size_t>{2, 8, 8});
        const std::vector<float>& in_batch = weights[static_cast<std::size_t>(l)];
        CHECK(std::vector<float>(in_batch.begin() + 2 * 64, in_batch.begin() + 4 * 64) == w->data);
        for (const char* id : {"ln_1", "q", "scores", "scaled", "masked", "row_max", "exp", "row_sum", "context", "concat", "output",
                               "resid_mid", "ln_2", "mlp_pre", "mlp_act", "mlp_out", "resid_post"})
            CHECK_MESSAGE(t.find(id, l), id);
    }
    // where a page opens a layer as a spec, the sequence core recomputes its attention from ln_1: the same numbers
    double worst = 0;
    for (int l = 0; l < 2; ++l) {
        const attn::trace layer = attention_trace_of(m, t, l);
        for (const attn::stage_view& v : layer.stages()) {
            if (v.id == attn::stage_id::x) continue;
            const stage* own = t.find(attn::stage_name(v.id), l);
            REQUIRE_MESSAGE(own, attn::stage_name(v.id));
            REQUIRE(own->data.size() == v.size);
            for (std::size_t i = 0; i < v.size; ++i) worst = std::max(worst, std::abs(double(own->data[i]) - v.data[i]) / (1 + std::abs(double(v.data[i]))));
        }
    }
    MESSAGE("the sequence core's attention is within " << worst << " of the trace's");
    CHECK(worst < 1e-6);
    // the training loss is the cross-entropy of those very logits
    std::vector<int> inputs(t.tokens.ids.begin(), t.tokens.ids.end() - 1), targets(t.tokens.ids.begin() + 1, t.tokens.ids.end());
    std::vector<float> first(traced->data.begin(), traced->data.end() - static_cast<std::ptrdiff_t>(V));
    const model_trace shorter = trace(m, "abc猫d\na");
    CHECK(shorter.find("logits", std::nullopt)->data == first);
    CHECK(loss_and_grad(m, inputs, targets, 1, 7, nullptr) ==
          attn::lm::blocks::softmax_cross_entropy(first.data(), targets.data(), 7, V, 1.0f / 7, false) / 7);
    // generation: each character through the key/value cache gives the full pass's row, logits and weights alike
    std::string prefix;
    for (std::size_t i = 0; i < n; ++i) {
        prefix += t.tokens.chars[i];
        const model_trace step = step_trace(m, prefix);
        const stage* z = step.find("logits", std::nullopt);
        REQUIRE(z);
        CHECK(z->data == std::vector<float>(traced->data.begin() + static_cast<std::ptrdiff_t>(i * V), traced->data.begin() + static_cast<std::ptrdiff_t>((i + 1) * V)));
        const stage* w = step.find("weights", 1);
        const stage* full = t.find("weights", 1);
        for (std::size_t hd = 0; hd < 2; ++hd)
            for (std::size_t j = 0; j <= i; ++j) CHECK(w->data[hd * (i + 1) + j] == full->data[(hd * n + i) * n + j]);
    }
    for (const char* id : {"embed", "pe", "x", "ln_f", "probs"}) CHECK_MESSAGE(t.find(id, std::nullopt), id);
    // greedy generation of one character is the argmax of the full pass's last row
    const std::string one = generate(m, "abc猫d\na", {1, 0.0, 0});
    const std::vector<candidate> top = next(m, "abc猫d\na", 1);
    CHECK(one == top[0].ch);
    // past the context, the cache is rebuilt and generation goes on
    CHECK(decode_utf8(generate(m, "ab", {40, 0.8, 3}), "x").size() == 40);
    CHECK(generate(m, "ab", {20, 0.8, 3}) == generate(m, "ab", {20, 0.8, 3}));
    // a context of 2: the cache starts again from the pick alone (a rebuild of no rows once refused the pass)
    config two = m.config;
    two.n_ctx = 2;
    const model short_context = make_model(two, m.vocab, 4);
    CHECK(decode_utf8(generate(short_context, "a", {6, 0.8, 1}), "x").size() == 6);
}

TEST_CASE("lm: unknown characters become <unk>, and bad text is refused with one sentence") {
    const model m = tiny(0, false);
    const tokens t = tokenize(m, "a狗b", 8);
    CHECK(t.ids == std::vector<int>{1, 0, 2});
    CHECK(t.unknown == std::vector<std::size_t>{1});
    CHECK_THROWS_WITH_AS(tokenize(m, "", 8), doctest::Contains("empty"), attn::spec_error);
    CHECK_THROWS_WITH_AS(tokenize(m, "abcdabcda", 8), doctest::Contains("at most 8"), attn::spec_error);
    CHECK_THROWS_WITH_AS(tokenize(m, "\xed\xa0\x80", 8), doctest::Contains("not valid UTF-8"), attn::spec_error);
    CHECK_THROWS_WITH_AS(next(m, "ab", 0), doctest::Contains("k is 0"), attn::spec_error);
    CHECK_THROWS_WITH_AS(generate(m, "ab", {5, -1.0, 0}), doctest::Contains("temperature"), attn::spec_error);
    CHECK_THROWS_WITH_AS(generate(m, "ab", {5, NAN, 0}), doctest::Contains("temperature"), attn::spec_error);
}

TEST_CASE("lm: the weight file round-trips in f32 exactly and in f16 to half precision") {
    model m = tiny(12, true);
    m.corpus = {"fortunes:wisdom"};
    m.probe = "ab\ncd";
    const auto f32 = write_safetensors(m, dtype::f32);
    const model back = read_safetensors(f32.data(), f32.size());
    CHECK(back.weights == m.weights);
    CHECK(back.vocab == m.vocab);
    CHECK(back.corpus == m.corpus);
    CHECK(back.probe == m.probe);
    const auto f16 = write_safetensors(m, dtype::f16);
    CHECK(f16.size() < f32.size());
    const model half = read_safetensors(f16.data(), f16.size());
    for (std::size_t i = 0; i < m.weights.size(); ++i) CHECK(std::abs(half.weights[i] - m.weights[i]) <= std::abs(m.weights[i]) * 1e-3f + 1e-7f);
}

TEST_CASE("lm: hostile weight files are refused with one sentence before any data is read") {
    const model m = tiny(0, true);
    const auto good = write_safetensors(m, dtype::f32);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | good[static_cast<std::size_t>(i)];
    const std::string header(good.begin() + 8, good.begin() + 8 + static_cast<std::ptrdiff_t>(n));
    auto edited = [&](const std::string& from, const std::string& to) {
        std::string h = header;
        const auto at = h.find(from);
        REQUIRE(at != std::string::npos);
        h.replace(at, from.size(), to);
        auto bytes = with_header(h, good.size() - 8 - n);
        std::copy(good.begin() + 8 + static_cast<std::ptrdiff_t>(n), good.end(), bytes.begin() + 8 + static_cast<std::ptrdiff_t>(h.size()));
        return bytes;
    };
    CHECK(refusal(good).empty());
    auto four_gb = good;
    four_gb[4] = 1;  // a header length of 4 GiB and more
    CHECK(refusal(four_gb).find("header length") != std::string::npos);
    auto longer = good;
    longer.resize(8 + n - 1);
    CHECK(refusal(longer).find("header length") != std::string::npos);
    CHECK(refusal({1, 2, 3}).find("shorter than") != std::string::npos);
    const std::string wte = header.substr(header.find("\"wte\""));
    const std::string offsets = wte.substr(wte.find("\"data_offsets\":[") + 16, wte.find(']', wte.find("data_offsets")) - wte.find("\"data_offsets\":[") - 16);
    CHECK(refusal(edited("\"data_offsets\":[" + offsets + "]", "\"data_offsets\":[0,99999999]")).find("outside") != std::string::npos);
    const std::size_t wte_end = std::stoul(offsets.substr(offsets.find(',') + 1));
    // wpe moved onto wte's bytes: overlapping tensors
    const std::string wpe = header.substr(header.find("\"wpe\""));
    const std::string wpe_off = wpe.substr(wpe.find("\"data_offsets\":[") + 16, wpe.find(']', wpe.find("data_offsets")) - wpe.find("\"data_offsets\":[") - 16);
    const std::size_t wpe_len = std::stoul(wpe_off.substr(wpe_off.find(',') + 1)) - std::stoul(wpe_off);
    CHECK(refusal(edited("\"data_offsets\":[" + wpe_off + "]", "\"data_offsets\":[0," + std::to_string(wpe_len) + "]")).find("overlap") != std::string::npos);
    (void)wte_end;
    CHECK(refusal(edited("\"shape\":[7,8]", "\"shape\":[8,7]")).find("shape") != std::string::npos);
    CHECK(refusal(edited("\\\"a\\\"", "\\\"ab\\\"")).find("not exactly one character") != std::string::npos);
    CHECK(refusal(edited("\\\"<unk>\\\"", "\\\"x\\\"")).find("entry 0") != std::string::npos);
    CHECK(refusal(edited("\"F32\"", "\"I64\"")).find("dtype") != std::string::npos);
    CHECK(refusal(edited("\"wte\"", "\"wtx\"")).find("not one of") != std::string::npos);
    CHECK(refusal(edited("\\\"n_head\\\":2", "\\\"n_head\\\":3")).find("multiple") != std::string::npos);
    CHECK_THROWS_WITH_AS(read_safetensors_file("/nonexistent.safetensors"), doctest::Contains("cannot read"), attn::spec_error);
    CHECK_THROWS_WITH_AS(read_safetensors_file("/tmp"), doctest::Contains("cannot read"), attn::spec_error);
}

TEST_CASE("lm: the held-out split takes entries 9, 19, … and strips colour codes") {
    std::string text;
    for (int i = 0; i < 20; ++i) text += "\x1b[32mentry " + std::to_string(i) + "\x1b[m\n%\n";
    const corpus_split s = split_fortunes(text);
    CHECK(s.heldout == U"entry 9\n\nentry 19\n\n");
    CHECK(s.train.find(U"entry 8\n") != std::u32string::npos);
    CHECK(s.train.find(U"\x1b") == std::u32string::npos);
    CHECK(s.train.find(U"entry 9\n") == std::u32string::npos);
}

TEST_CASE("lm: training lowers the loss and is repeatable bit for bit") {
    std::u32string text;
    for (int i = 0; i < 40; ++i) text += U"abcd猫\nabcd猫\n";
    train_settings s;
    s.steps = 60;
    s.batch = 8;
    s.warmup = 5;
    s.lr = 1e-2;
    s.repeat_fraction = 0.25;  // repeated strings of a b c d 猫 \n mixed in
    s.repeat_alphabet = 5;
    s.parts = 2;  // two threads, each half of the batch: still the same numbers every run
    auto run = [&] {
        model m = make_model(tiny(12, true).config, build_vocab(text, 100), 9);
        trainer t(m, to_ids(m, text), s);
        double first = 0, last = 0;  // the mean loss of the first five steps, and of the last five
        for (int k = 0; k < s.steps; ++k) {
            const double loss = t.step();
            if (k < 5) first += loss / 5;
            if (k >= s.steps - 5) last += loss / 5;
        }
        return std::make_tuple(m.weights, first, last);
    };
    const auto [w1, first, last] = run();
    const auto [w2, first2, last2] = run();
    CHECK(w1 == w2);
    CHECK(last < first * 0.7);
}

TEST_CASE("lm: line-alignment pairs each character with the same place in the previous line of equal length") {
    const std::vector<int> t = line_alignment_targets(U"床前明月光，疑是地上霜。举头\n");
    CHECK(t[6] == 0);   // 疑 → 床
    CHECK(t[10] == 4);  // 霜 → 光
    CHECK(t[5] == -1);  // punctuation is not in a line
    CHECK(t[12] == -1); // 举头: a line of 2, shorter than 4
    CHECK(t[0] == -1);
}

TEST_CASE("lm: every bound is one row of lm_bounds, and its refusal names it") {
    config c = tiny(0, true).config;
    c.n_layer = 13;
    CHECK_THROWS_WITH_AS(validate_config(c), "config.n_layer is 13 but must be from 1 to 12.", attn::spec_error);
    c.n_layer = 2, c.n_ctx = 1;
    CHECK_THROWS_WITH_AS(validate_config(c), "config.n_ctx is 1 but must be from 2 to 512.", attn::spec_error);
    CHECK_THROWS_WITH_AS(check_bound("batch", 513), "batch is 513 but must be from 1 to 512.", attn::spec_error);
    CHECK(lm_bound_of("n").hi == max_generate);
    CHECK(lm_bound_of("steps").hi == max_train_steps);
    const model m = tiny(0, true);
    CHECK_THROWS_WITH_AS(generate(m, "ab", {max_generate + 1, 0.0, 0}), "n is 8001 but must be from 1 to 8000.", attn::spec_error);
}

TEST_CASE("lm: what a call costs is estimated from the header alone and refused with the limit named (issue 50)") {
    config big;  // 10 layers, 8 heads, d 384, MLP 1536, context 384, 3000 characters: legal, and large
    big.n_layer = 10, big.n_head = 8, big.d_model = 384, big.d_mlp = 1536, big.n_ctx = 384;
    model header;  // as the CLI's check sees it: config, vocabulary and table, no weights
    header.config = big;
    header.vocab.assign(3000, "x");
    CHECK(trace_cost(header, 384).work > lm_bound_of("work").hi);
    CHECK_THROWS_WITH_AS(check_text_cost(header, 384, "next", next_cost),
                         doctest::Contains("next on 384 characters would take about"), attn::spec_error);
    CHECK_THROWS_WITH_AS(check_text_cost(header, 384, "next", next_cost), doctest::Contains("over the limit of 4.29 billion a call: give it at most"),
                         attn::spec_error);
    CHECK_THROWS_WITH_AS(check_text_cost(header, 385, "next", next_cost), "the text has 385 characters but the model reads at most 384 at once (its context, n_ctx).",
                         attn::spec_error);
    const std::size_t most = most_that_fit(384, [&](std::size_t n) { return next_cost(header, n); });
    CHECK(most > 1);
    CHECK(within_budget(next_cost(header, most)));
    CHECK_FALSE(within_budget(next_cost(header, most + 1)));
    CHECK_THROWS_WITH_AS(check_heads(header, "abcabc"), doctest::Contains("the head scores would"), attn::spec_error);
    CHECK_THROWS_WITH_AS(check_generate(header, 1, {7000, 0.8, 0}), doctest::Contains("generating 7000 characters would take about"), attn::spec_error);
    CHECK_THROWS_WITH_AS(check_cost(grad_cost(header, 20), "the gradient", "x"), doctest::Contains("of JSON, over the limit of 64 MiB"), attn::spec_error);
    // the shipped models' shape: every call of the CLI and the page fits, generate's 8000 characters included
    model shipped;
    shipped.vocab.assign(3640, "x");  // zh: every character seen 4 times
    for (std::size_t n : {1, 32, 64}) {
        CHECK(within_budget(trace_cost(shipped, n)));
        CHECK(within_budget(layer_grad_cost(shipped, n)));
    }
    CHECK(within_budget(generate_cost(shipped, 64, max_generate)));
    CHECK(within_budget(heads_cost(shipped, 1024)));
    CHECK(within_budget(train_step_cost(shipped, 16, 2)));
    CHECK(within_budget(eval_cost(shipped, 120000), "eval_work"));
    // the temperature: 0 or from 10^-3, a subnormal judged by its range
    check_temperature(0);
    check_temperature(1e-3);
    CHECK_THROWS_WITH_AS(check_temperature(5e-324), "temperature is 5e-324 but must be 0 (greedy) or from 0.001 to 100.", attn::spec_error);
    CHECK_THROWS_WITH_AS(check_temperature(1e-300), doctest::Contains("temperature is 1e-300"), attn::spec_error);
    CHECK_THROWS_AS(check_temperature(NAN), attn::spec_error);
}

TEST_CASE("lm: numbers that overflowed are refused where they leave the core, never NaN (issue 50)") {
    model m = tiny(12, true);
    const auto fill = [&](const char* name, float v) {
        float* w = m.tensor(name);
        std::fill(w, w + m.slot(name).size, v);
    };
    fill("ln_f.bias", 3e38f);  // every logit overflows
    for (auto call : std::vector<std::function<void()>>{[&] { trace(m, "abc"); }, [&] { next(m, "abc", 3); }, [&] { step_trace(m, "abc"); },
                                                        [&] { generate(m, "ab", {5, 0.8, 1}); }, [&] { evaluate(m, {1, 2, 3, 4, 1, 2}); }})
        CHECK_THROWS_WITH_AS(call(), doctest::Contains("overflowed the float range"), attn::spec_error);
    // a trainer's step whose loss overflowed is refused before the update: the weights stay as they were
    std::u32string text;
    for (int i = 0; i < 10; ++i) text += U"abcd猫\n";
    train_settings s;
    s.steps = 5, s.batch = 2, s.warmup = 1;
    trainer t(m, to_ids(m, text), s);
    const std::vector<float> before = m.weights;
    CHECK_THROWS_WITH_AS(t.step(), doctest::Contains("training loss overflowed"), attn::spec_error);
    CHECK(m.weights == before);
    CHECK(t.steps_done() == 0);
    // <unk> with all the probability: the other candidates renormalised from the logits, not 0 ÷ 0
    model u = tiny(0, true);
    std::fill(u.tensor("ln_f.weight"), u.tensor("ln_f.weight") + 8, 0.0f);
    std::fill(u.tensor("ln_f.bias"), u.tensor("ln_f.bias") + 8, 1.0f);
    std::fill(u.tensor("wte"), u.tensor("wte") + 8, 1e4f);  // <unk>'s logit 8·10⁴, the others near 0
    const model_trace ut = trace(u, "abc");
    CHECK(ut.find("probs", std::nullopt)->data[2 * 7] == 1.0f);
    const std::vector<candidate> top = next_of_trace(u, ut, 3);
    for (const candidate& c : top) CHECK(std::isfinite(c.p));
    CHECK(top[0].ch == next(u, "abc", 1)[0].ch);
    // a temperature of 10^-3 on finite logits: z/T never overflows (the largest logit is subtracted first)
    model g = tiny(12, true);
    std::fill(g.tensor("ln_f.bias"), g.tensor("ln_f.bias") + 8, 1e30f);
    CHECK(decode_utf8(generate(g, "ab", {10, 1e-3, 4}), "x").size() == 10);
}

TEST_CASE("lm: a weight file's JSON header is nested at most 32 deep and gives each key once (issue 50)") {
    const model m = tiny(0, true);
    const auto good = write_safetensors(m, dtype::f32);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | good[static_cast<std::size_t>(i)];
    const std::string header(good.begin() + 8, good.begin() + 8 + static_cast<std::ptrdiff_t>(n));
    const auto with = [&](const std::string& h) {
        auto bytes = with_header(h, good.size() - 8 - n);
        std::copy(good.begin() + 8 + static_cast<std::ptrdiff_t>(n), good.end(), bytes.begin() + 8 + static_cast<std::ptrdiff_t>(h.size()));
        return bytes;
    };
    CHECK(refusal(with_header(std::string(33, '[') + std::string(33, ']'), 0)) ==
          "weight file: its header nests arrays and objects more than 32 levels deep.");
    CHECK(refusal(with_header("{\"s\": \"" + std::string(40, '[') + "\"}", 0)).find("nests") == std::string::npos);  // inside a string
    CHECK(refusal(with(header.substr(0, header.rfind('}')) + ",\"__metadata__\":{}}")) ==
          "weight file: its header has the key \"__metadata__\" twice: each key must be given once.");
    std::string twice = header;
    twice.replace(twice.find("\\\"n_layer\\\":2"), 13, "\\\"n_layer\\\":2,\\\"n_layer\\\":12");
    CHECK(refusal(with(twice)) == "weight file: __metadata__.config has the key \"n_layer\" twice: each key must be given once.");
    // what the header alone says is seen before a byte of data is read
    std::size_t weights_seen = 99;
    read_safetensors(good.data(), good.size(), [&](const model& h) { weights_seen = h.weights.size(); });
    CHECK(weights_seen == 0);
}

TEST_CASE("lm: the CLI's trace JSON, streamed, is trace_to_json's text") {
    const model m = tiny(12, true);
    const model_trace t = trace(m, "abc猫d\n");
    std::ostringstream out;
    write_trace_json(out, t);
    CHECK(out.str() == trace_to_json(t).dump());
}
