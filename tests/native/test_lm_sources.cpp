// Model mode's truths about the typed text (issue 49): the exact split of a candidate's logit into its sources,
// the logit lens, the head scores measured on the text, and sampling after the temperature, top-k and top-p.
// The shipped models are read from the build's models folder (scripts/models.sh trains them before the tests).
#include <cmath>
#include <fstream>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "attn/lm_json.hpp"
#include "check.hpp"

namespace {

using namespace attn::lm;

model tiny_model(int d_mlp, std::vector<std::string> vocab = {"<unk>", "a", "b", "c", "d", "猫", "\n"}) {
    config c;
    c.n_layer = 2, c.n_head = 2, c.d_model = 8, c.d_mlp = d_mlp, c.n_ctx = 16;
    model m = make_model(c, std::move(vocab), 3);
    rng r(5);
    for (float& w : m.weights) w += static_cast<float>(r.normal() * 0.3);
    return m;
}

/// The shipped model of this name (zh or en), read from the build's models folder; the test fails when it is absent.
model shipped(const std::string& name) {
    const std::string path = std::string(ATTN_MODELS_DIR) + "/" + name + ".safetensors";
    INFO("the shipped model " << path << " (bash scripts/models.sh trains it)");
    REQUIRE(std::ifstream(path).good());
    return read_safetensors_file(path);
}

/// Checks that every candidate's parts sum to its logit within 1e-4, and that the parts are the documented list.
void check_parts(const model& m, const std::string& text) {
    const model_trace t = trace(m, text);
    const std::size_t V = m.vocab.size(), last = t.tokens.ids.size() - 1;
    const float* logits = t.find("logits", std::nullopt)->data.data() + last * V;
    const int L = m.config.n_layer, H = m.config.n_head;
    double worst = 0;
    for (const candidate& c : next_of_trace(m, t, std::min<int>(10, static_cast<int>(V) - 1))) {
        const int id = static_cast<int>(std::find(m.vocab.begin(), m.vocab.end(), c.ch) - m.vocab.begin());
        const std::vector<logit_part> parts = logit_parts(m, t, id);
        // embed, per layer H heads, b_o and the MLP (when there is one), ln_f's bias
        CHECK(parts.size() == static_cast<std::size_t>(1 + L * (H + 1 + (m.config.d_mlp > 0 ? 1 : 0)) + 1));
        CHECK(parts.front().part == "embed");
        CHECK(parts.back().part == "ln_f_bias");
        double sum = 0;
        for (const logit_part& p : parts) sum += p.value;
        worst = std::max(worst, std::abs(sum - double(logits[id])));
        INFO(text << ": \"" << c.ch << "\" logit " << logits[id] << ", parts sum to " << sum);
        CHECK(std::abs(sum - double(logits[id])) <= 1e-4);
    }
    MESSAGE(text << ": the parts sum to the logit, worst difference " << worst);
}

/// How many of the texts (each a line and the start of its repetition) have the copy's next character on top.
int copies_on_top(const model& m, const std::vector<std::pair<std::string, std::string>>& cases) {
    int right = 0;
    for (const auto& [text, want] : cases) right += next(m, text, 1)[0].ch == want;
    return right;
}

}  // namespace

TEST_CASE("lm sources: a candidate's parts sum to its logit, on the shipped models and on small ones") {
    check_parts(tiny_model(0), "abcab猫");
    check_parts(tiny_model(12), "abcab\nabcab");
    check_parts(shipped("en"), "The lazy dog sleeps all day. The lazy dog sl");
    check_parts(shipped("en"), "x");
    check_parts(shipped("zh"), "床前明月光，疑是地上霜。举头望明月，低头思故乡。");
    check_parts(shipped("zh"), "春眠不觉晓，处处闻啼鸟。春眠不觉");
}

TEST_CASE("lm sources: the head parts are the attribution's heads, and an MLP-free model has no mlp part") {
    const model m = tiny_model(0);
    const model_trace t = trace(m, "abcabd");
    const std::vector<attribution> a = logit_attribution(m, t, {"c"});
    std::vector<double> heads;
    for (const logit_part& p : logit_parts(m, t, 3))
        if (p.part == "head") heads.push_back(p.value);
        else CHECK(p.part != "mlp");
    REQUIRE(heads.size() == a[0].heads.size());
    for (std::size_t g = 0; g < heads.size(); ++g) CHECK(std::abs(heads[g] - a[0].heads[g]) < 1e-5);
    const attn::json j = attribution_json(m, t, 2);
    CHECK(j[0]["parts"].size() == 1 + 2 * 3 + 1);
    CHECK(j[0]["parts"][1]["part"] == "head");
    CHECK(j[0]["parts"][1]["layer"] == 0);
    CHECK(j[0]["parts"][0]["layer"].is_null());
}

TEST_CASE("lm sources: the logit lens's last point is the model's own next character") {
    for (const model& m : {tiny_model(12), shipped("en")}) {
        const std::string text = m.vocab.size() > 10 ? "The lazy dog sleeps all day. The lazy dog sl" : "abcabc";
        const model_trace t = trace(m, text);
        const std::vector<lens_point> lens = logit_lens(m, t, 5);
        REQUIRE(lens.size() == static_cast<std::size_t>(2 * m.config.n_layer));
        CHECK_FALSE(lens[0].after_mlp);
        CHECK(lens[1].after_mlp);
        const std::vector<candidate> top = next_of_trace(m, t, 5);
        for (std::size_t r = 0; r < 5; ++r) {
            CHECK(lens.back().top[r].ch == top[r].ch);
            CHECK(std::abs(lens.back().top[r].p - top[r].p) < 1e-5);
        }
        for (const lens_point& p : lens) CHECK(p.top.size() == 5);
    }
    const model a = tiny_model(0);
    CHECK(logit_lens(a, trace(a, "abc"), 3).size() == 2);  // attention-only: one point a layer
}

TEST_CASE("lm sources: head scores on the typed text read the text's own weights") {
    const model m = tiny_model(12);
    const model_trace t = trace(m, "abcab");
    const std::vector<text_head_score> s = text_head_scores(m, t);
    REQUIRE(s.size() == 4);
    for (const text_head_score& h : s) {
        const float* w = t.find("weights", h.layer)->data.data() + static_cast<std::size_t>(h.head) * 25;
        const auto A = [&](int i, int j) { return double(w[i * 5 + j]); };
        // "abcab": row 3 (a) copies from after the earlier a (column 1), row 4 (b) from after the earlier b (column 2)
        CHECK(h.induction_measured);
        CHECK(std::abs(h.induction - (A(3, 1) + A(4, 2)) / 2) < 1e-6);
        CHECK(std::abs(h.previous_token - (A(1, 0) + A(2, 1) + A(3, 2) + A(4, 3)) / 4) < 1e-6);
        CHECK(std::abs(h.first_token - (A(1, 0) + A(2, 0) + A(3, 0) + A(4, 0)) / 4) < 1e-6);
        CHECK(std::abs(h.self - (A(0, 0) + A(1, 1) + A(2, 2) + A(3, 3) + A(4, 4)) / 5) < 1e-6);
        CHECK(h.entropy >= 0);
        CHECK(h.entropy <= std::log2(5.0));
    }
    const std::vector<text_head_score> none = text_head_scores(m, trace(m, "abcd"));
    CHECK_FALSE(none[0].induction_measured);
    const attn::json j = heads_json(head_scores(m, "abcdabcdabcd"), &none);
    CHECK(j[0]["text"]["induction"].is_null());
    CHECK(j[0]["probe"]["previous_token"] == j[0]["previous_token"]);
}

TEST_CASE("lm sources: on a line written twice, a head copies it and the copy's next character is on top") {
    // issue 49: the page names an induction head measured on the text (the grid's threshold, 0.3), and the model
    // predicts the copy: "sl" was followed by e, not by the i or a that follow other l's; 游子身 by 上 (游子吟 is
    // one of the held-out poems)
    const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
        {"en", "The lazy dog sleeps all day. The lazy dog sl", "e"}, {"zh", "慈母手中线，游子身上衣。慈母手中线，游子身", "上"}};
    for (const auto& [name, text, want] : cases) {
        const model m = shipped(name);
        const std::vector<text_head_score> s = text_head_scores(m, trace(m, text));
        double best = 0;
        for (const text_head_score& h : s) best = std::max(best, h.induction);
        const std::string top = next(m, text, 1)[0].ch;
        MESSAGE(name << ": the best induction score on the text " << best << ", the top next character " << top);
        CHECK(best >= 0.3);
        CHECK(top == want);
    }
}

TEST_CASE("lm sources: repeated sentences the issue does not name: the copy's next character on top") {
    // issue 49, measured on texts beyond the one the page opens on: each a sentence and the start of its repetition,
    // cut where the copy decides the next character (documented in docs/model.md, "Copying real text")
    const model m = shipped("en");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"The lazy dog sleeps all day. The lazy dog sl", "e"},
        {"She sells sea shells by the shore. She sells sea sh", "e"},
        {"Knowledge is power, said Francis Bacon. Knowledge is p", "o"},
        {"My friend Harold went to Paris. My friend Ha", "r"},
        {"The quick brown fox jumps over the lazy dog. The quick brown fox ju", "m"},
        {"Call me Ishmael. Some years ago, never mind how long. Call me Ish", "m"},
        {"A penny saved is a penny earned. A penny saved is a pe", "n"},
        {"Time flies like an arrow; fruit flies like a banana. Time flies like an ar", "r"},
        {"We hold these truths to be self-evident. We hold these tru", "t"},
        {"Never gonna give you up, never gonna let you down. Never gonna gi", "v"},
        {"The rain in Spain stays mainly in the plain. The rain in Sp", "a"},
        {"Better late than never, but never late is better. Better late than ne", "v"}};
    const int right = copies_on_top(m, cases);
    MESSAGE(right << " of " << cases.size() << " repeated sentences continue with the copy");
    CHECK(right >= 9);  // 10 of 12 on the model the build trains today; the model of before put i on the first
}

TEST_CASE("lm sources: held-out Chinese lines written twice: the copy's next character on top") {
    // the held-out split's poems and prose (every tenth entry), each line and the start of its repetition
    const model m = shipped("zh");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"慈母手中线，游子身上衣。慈母手中线，游子身", "上"}, {"岱宗夫如何，齐鲁青未了。岱宗夫如何，齐鲁青", "未"},
        {"今朝郡斋冷，忽念山中客。今朝郡斋冷，忽念山", "中"}, {"众芳摇落独暄妍，占尽风情向小园。众芳摇落独暄妍，占尽风", "情"},
        {"乱条犹未变初黄，倚得东风势便狂。乱条犹未变初黄，倚得东", "风"}, {"命名管道是一个像管道一样的文件。命名管道是一个像管", "道"},
        {"对于典型的单用户工作站，例如运行在笔记本电脑上。对于典型的单用户工作站，例如运行在笔", "记"},
        {"谁言寸草心，报得三春晖。谁言寸草心，报得三", "春"}};
    const int right = copies_on_top(m, cases);
    MESSAGE(right << " of " << cases.size() << " held-out lines continue with the copy");
    CHECK(right >= 3);  // 4 of 8 on the model the build trains today; 2 before its strings covered the whole vocabulary
}

TEST_CASE("lm sources: sampling after the temperature, top-k and top-p, and generate's first pick") {
    const model m = shipped("en");
    const std::string text = "The lazy dog sleeps all day. The lazy dog sl";
    const model_trace t = trace(m, text);
    generate_options o;
    o.temperature = 1.5, o.top_k = 5, o.top_p = 0.6;
    for (std::uint64_t seed : {0, 1, 7, 42}) {
        o.seed = seed;
        const sampling s = sample_of_trace(m, t, o);
        const auto sum = [](const std::vector<float>& p) { return std::accumulate(p.begin(), p.end(), 0.0); };
        CHECK(std::abs(sum(s.temperature) - 1) < 1e-5);
        CHECK(std::abs(sum(s.top_k) - 1) < 1e-5);
        CHECK(std::abs(sum(s.top_p) - 1) < 1e-5);
        CHECK(std::count_if(s.top_k.begin(), s.top_k.end(), [](float p) { return p > 0; }) == 5);
        CHECK(s.top_p[static_cast<std::size_t>(s.pick)] > 0);
        // the same draw as generate's first character with this seed, and as sample_next's
        generate_options g = o;
        g.n = 1;
        CHECK(generate(m, text, g) == m.vocab[static_cast<std::size_t>(s.pick)]);
        CHECK(sample_next(m, text, o).pick == s.pick);
    }
    o.top_p = 1e-3;  // only the likeliest is left
    const sampling one = sample_of_trace(m, t, o);
    CHECK(one.top_p[static_cast<std::size_t>(one.pick)] == 1.0f);
    CHECK(m.vocab[static_cast<std::size_t>(one.pick)] == next_of_trace(m, t, 1)[0].ch);
    o.top_k = static_cast<int>(m.vocab.size());
    CHECK_THROWS_WITH_AS(check_sampling(m, o), doctest::Contains("top_k is"), attn::spec_error);
    o.top_k = 0, o.top_p = 0;
    CHECK_THROWS_WITH_AS(check_sampling(m, o), "top_p is 0 but must be from 0.001 to 1.", attn::spec_error);
}

TEST_CASE("lm sources: a control character is never proposed or generated (a BEL once reached the text box)") {
    model m = tiny_model(0, {"<unk>", "a", "\x07", "\x08", "\n", "\xC2\x85", "b"});
    // make the BEL the likeliest: its unembedding along the final norm's output
    const std::size_t d = 8;
    for (std::size_t k = 0; k < d; ++k) m.tensor("wte")[2 * d + k] *= 20;
    const std::vector<bool> ok = proposable(m);
    CHECK(ok == std::vector<bool>{false, true, false, false, true, false, true});
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const std::string out = generate(m, "ab", {16, 2.0, seed});
        CHECK(out.find_first_of("\x07\x08") == std::string::npos);
        CHECK(out.find("\xC2\x85") == std::string::npos);
    }
    for (const candidate& c : next(m, "ab", 3)) CHECK((c.ch == "a" || c.ch == "b" || c.ch == "\n"));
}
