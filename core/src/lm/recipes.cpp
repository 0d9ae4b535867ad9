// The two shipped models' recipes and their corpora from Debian's fortunes packages (docs/model.md,
// docs/sources.md), the JSON of traces and head scores, and the baselines a model must beat.
#include <cmath>
#include <fstream>
#include <sstream>

#include "attn/lm_json.hpp"
#include "attn/text.hpp"

namespace attn::lm {

json trace_to_json(const model_trace& t) {
    json stages = json::array();
    for (const stage& s : t.stages) {
        json data = json::array();
        for (float v : s.data) data.push_back(shortest_decimal(v));
        stages.push_back({{"id", s.id}, {"layer", s.layer ? json(*s.layer) : json(nullptr)}, {"shape", s.shape}, {"data", std::move(data)}});
    }
    return {{"tokens", t.tokens.chars}, {"ids", t.tokens.ids}, {"unknown", t.tokens.unknown}, {"stages", std::move(stages)}};
}

json heads_to_json(const std::vector<head_score>& scores) {
    json out = json::array();
    auto r = [](double v) { return std::round(v * 1e4) / 1e4; };
    for (const head_score& s : scores) {
        json h = {{"layer", s.layer}, {"head", s.head}, {"previous_token", r(s.previous_token)}, {"induction", r(s.induction)},
                  {"first_token", r(s.first_token)}};
        if (s.line_alignment) h["line_alignment"] = r(*s.line_alignment);
        out.push_back(h);
    }
    return out;
}

json about_json(const model& m) {
    const config& c = m.config;
    return {{"config", {{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp},
                        {"n_ctx", c.n_ctx}, {"positional", c.learned_positions ? "learned" : "sinusoidal"}, {"ln_eps", c.ln_eps}}},
            {"vocab_size", m.vocab.size()}, {"corpus", m.corpus}, {"parameters", m.weights.size()}};
}

std::string corpus_path(const std::string& name) {
    const auto colon = name.find(':');
    const std::string package = name.substr(0, colon), file = colon == std::string::npos ? "" : name.substr(colon + 1);
    if ((package != "fortunes" && package != "fortunes-zh") || file.empty() || file.find('/') != std::string::npos || file[0] == '.')
        throw spec_error("corpus \"" + user_text(name) + "\" is not a file of Debian's fortunes or fortunes-zh (e.g. fortunes-zh:tang300).");
    return "/usr/share/games/fortunes/" + file;  // where both packages install their files
}

corpus_split read_corpus(const std::vector<std::string>& names) {
    corpus_split all;
    for (const std::string& name : names) {
        std::ifstream in(corpus_path(name), std::ios::binary);
        if (!in)
            throw spec_error("cannot read corpus " + user_text(name) + " at " + corpus_path(name) +
                             ": install it with apt-get install " + name.substr(0, name.find(':')) + ".");
        std::stringstream text;
        text << in.rdbuf();
        const corpus_split part = split_fortunes(text.str());
        all.train += part.train;
        all.heldout += part.heldout;
    }
    return all;
}

namespace {

/// The shipped models' training, but for its length and seed: batches of 16 windows in 2 parts, lr 3e-3,
/// half of each batch repeated random strings.
train_settings shipped_training(int steps, std::uint64_t seed) {
    train_settings t;
    t.steps = steps;
    t.batch = 16;
    t.parts = 2;
    t.lr = 3e-3;
    t.repeat_fraction = 0.5;
    t.seed = seed;
    return t;
}

}  // namespace

const recipe& recipe_of(const std::string& name) {
    // Both: nanoGPT's shape at its smallest that still grows an induction head (2 layers: 4 heads, d_model 64,
    // d_mlp 256, 64 characters of context, learned positions), batches of 16 windows so that more steps fit
    // in the build's time, and half of each batch repeated random strings, from which copying (induction)
    // is learned: with 16-window batches the en model's induction heads formed between steps 1500 and 1850.
    static const recipe zh = [] {
        recipe r;
        r.name = "zh";
        r.corpus = {"fortunes-zh:tang300", "fortunes-zh:song100", "fortunes-zh:chinese"};
        // the poems are 4 % of the text: half the windows are drawn from them, or the model would hardly
        // see regulated verse (and its vocabulary would miss 床, 疑, 举 …)
        r.mix = {{{"fortunes-zh:tang300", "fortunes-zh:song100"}, 0.5}, {{"fortunes-zh:chinese"}, 0.5}};
        r.vocab_cap = 1500;  // the 1499 most frequent characters as drawn (93 % of the poems' characters, 96 % of the rest)
        r.training = shipped_training(6000, 7);
        return r;
    }();
    static const recipe en = [] {
        recipe r;
        r.name = "en";
        r.corpus = {"fortunes:art", "fortunes:education", "fortunes:humorists", "fortunes:literature", "fortunes:people",
                    "fortunes:science", "fortunes:wisdom"};
        r.vocab_cap = 128;
        r.training = shipped_training(5000, 11);
        return r;
    }();
    if (name == "zh") return zh;
    if (name == "en") return en;
    throw spec_error("there is no model recipe \"" + user_text(name) + "\": zh and en are built.");
}

json recipe_json(const recipe& r) {
    const config& c = r.model_config;
    const train_settings& t = r.training;
    json mix = json::array();
    for (const auto& [files, weight] : r.mix) mix.push_back({{"files", files}, {"weight", weight}});
    return {{"name", r.name}, {"corpus", r.corpus}, {"mix", mix}, {"vocab_cap", r.vocab_cap},
            {"config", {{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp},
                        {"n_ctx", c.n_ctx}, {"positional", c.learned_positions ? "learned" : "sinusoidal"}, {"ln_eps", c.ln_eps}}},
            {"training", {{"steps", t.steps}, {"batch", t.batch}, {"lr", t.lr}, {"warmup", t.warmup}, {"min_lr_ratio", t.min_lr_ratio},
                          {"weight_decay", t.weight_decay}, {"beta1", t.beta1}, {"beta2", t.beta2}, {"eps", t.eps}, {"clip", t.clip},
                          {"repeat_fraction", t.repeat_fraction}, {"repeat_alphabet", t.repeat_alphabet}, {"seed", t.seed}, {"parts", t.parts}}}};
}

baselines baseline_bits(const model& m, const std::u32string& train, const std::u32string& heldout) {
    const std::vector<int> a = to_ids(m, train), b = to_ids(m, heldout);
    const std::size_t V = m.vocab.size();
    std::vector<double> uni(V, 1.0);  // add-one
    std::vector<std::vector<double>> bi(V, std::vector<double>(V, 0.0));
    std::vector<double> from(V, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        uni[static_cast<std::size_t>(a[i])] += 1;
        if (i > 0) {
            bi[static_cast<std::size_t>(a[i - 1])][static_cast<std::size_t>(a[i])] += 1;
            from[static_cast<std::size_t>(a[i - 1])] += 1;
        }
    }
    const double total = static_cast<double>(a.size() + V);
    auto bits = [&](double lambda) {
        double sum = 0.0;
        for (std::size_t i = 1; i < b.size(); ++i) {
            const std::size_t p = static_cast<std::size_t>(b[i - 1]), c = static_cast<std::size_t>(b[i]);
            const double pu = uni[c] / total;
            const double pb = from[p] > 0 ? bi[p][c] / from[p] : pu;
            sum -= std::log2(lambda * pb + (1 - lambda) * pu);
        }
        return sum / static_cast<double>(b.size() - 1);
    };
    baselines out{bits(0.0), 1e300, 0};
    for (int k = 1; k < 100; ++k) {  // λ from 0.01 to 0.99: the bigram at its best on this held-out text
        const double v = bits(k / 100.0);
        if (v < out.bigram) out = {out.unigram, v, k / 100.0};
    }
    return out;
}

}  // namespace attn::lm
