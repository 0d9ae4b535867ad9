// The two shipped models' recipes and their corpora from Debian's fortunes packages (docs/model.md,
// docs/sources.md), the JSON of traces and head scores, and the baselines a model must beat.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
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

void write_floats_json(std::ostream& out, const float* values, std::size_t count) {
    char number[64];
    out.put('[');
    for (std::size_t i = 0; i < count; ++i) {
        if (i) out.put(',');
        // as dump() writes a double (its shortest decimal, "1.0" for a whole number): trace_to_json's text
        const char* end = nlohmann::detail::to_chars(number, number + sizeof number, shortest_decimal(values[i]));
        out.write(number, end - number);
    }
    out.put(']');
}

void write_trace_json(std::ostream& out, const model_trace& t) {
    out << "{\"tokens\":" << json(t.tokens.chars).dump() << ",\"ids\":" << json(t.tokens.ids).dump()
        << ",\"unknown\":" << json(t.tokens.unknown).dump() << ",\"stages\":[";
    for (std::size_t k = 0; k < t.stages.size(); ++k) {
        const stage& s = t.stages[k];
        out << (k ? "," : "") << "{\"id\":" << json(s.id).dump() << ",\"layer\":" << (s.layer ? json(*s.layer) : json(nullptr)).dump()
            << ",\"shape\":" << json(s.shape).dump() << ",\"data\":";
        write_floats_json(out, s.data.data(), s.data.size());
        out.put('}');
    }
    out << "]}";
}

json heads_to_json(const std::vector<head_score>& scores) {
    json out = json::array();
    auto r = [](double v) { return std::round(v * 1e4) / 1e4; };
    for (const head_score& s : scores) {
        json h = {{"layer", s.layer}, {"head", s.head}, {"previous_token", r(s.previous_token)}, {"induction", r(s.induction)},
                  {"induction_heldout", r(s.induction_heldout)}, {"first_token", r(s.first_token)}};
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
    // the list and the files' sizes first: a list naming one file 300 times was read 300 times
    if (names.empty()) throw spec_error("the corpus names no files.");
    check_bound("corpus_files", static_cast<double>(names.size()), "the corpus's files");
    std::uintmax_t bytes = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) != names.begin() + static_cast<std::ptrdiff_t>(i))
            throw spec_error("the corpus names \"" + user_text(names[i]) + "\" twice.");
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(corpus_path(names[i]), ec);
        if (!ec) bytes += size;
    }
    const double most = lm_bound_of("corpus_bytes").hi;
    if (static_cast<double>(bytes) > most)
        throw spec_error("the corpus's files hold " + std::to_string(bytes) + " bytes, over the limit of " +
                         std::to_string(static_cast<long long>(most) >> 20) + " MiB.");
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

/// The shipped models' training, but for its length, its first phase and seed: batches of 16 windows in 2 parts,
/// lr 3e-3. Copying is learned in two phases. In the first (`first` steps, windows of `first_ctx`), 4 windows in 10
/// are random strings repeated, each over 2 … 300 distinct characters (at most the vocabulary): from those the
/// induction heads form, and the small alphabets make them match the characters before the current one too,
/// not it alone (a string of 4 letters repeats each letter many times). After it, 2 in 10. Throughout, 1 window
/// in 4 is real text in which a passage is written again later: copying real text, which the page shows.
train_settings shipped_training(int steps, int first, int first_ctx, std::uint64_t seed) {
    train_settings t;
    t.steps = steps;
    t.batch = 16;
    t.parts = 2;
    t.lr = 3e-3;
    t.repeat_fraction = 0.4;
    t.repeat_alphabet_min = 2;
    t.long_repeat_fraction = 0.2;
    t.short_steps = first;
    t.short_ctx = first_ctx;
    t.repeat_text_fraction = 0.25;
    t.seed = seed;
    return t;
}

}  // namespace

const recipe& recipe_of(const std::string& name) {
    // Both: nanoGPT's shape at its smallest that still grows an induction head (2 layers: 4 heads, d_model 64,
    // d_mlp 256, learned positions) with 128 characters of context (room for a sentence and its repetition),
    // batches of 16 windows, and the two phases of shipped_training, from which copying (induction) is learned
    // on random strings and kept on real text (docs/model.md, "Copying real text").
    static const recipe zh = [] {
        recipe r;
        r.name = "zh";
        r.corpus = {"fortunes-zh:tang300", "fortunes-zh:song100", "fortunes-zh:chinese"};
        // the poems are 4 % of the text: 3 windows in 10 are drawn from them, or the model would hardly see
        // regulated verse; the rest is modern prose, which everyday sentences need
        r.mix = {{{"fortunes-zh:tang300", "fortunes-zh:song100"}, 0.3}, {{"fortunes-zh:chinese"}, 0.7}};
        // every character seen at least 4 times in the training split: the articles' 我今天去了火锅店，那家店需要提前预约吗
        // (锅 is there 4 times) and the poems' 床, 疑, 举 alike
        r.vocab_cap = 4096;
        r.vocab_min_count = 4;
        r.model_config.n_ctx = 128;
        r.training = shipped_training(6000, 3000, 64, 7);  // its first phase at 64: 90 s less of the build
        // after the first phase, 3 windows in 10 random strings drawn from the whole vocabulary: the heads formed on the
        // 300 most frequent characters copied only those (a held-out poem written twice: induction 0.03 → 0.44)
        r.training.long_repeat_fraction = 0.3;
        r.training.long_repeat_alphabet = 4096;
        return r;
    }();
    static const recipe en = [] {
        recipe r;
        r.name = "en";
        r.corpus = {"fortunes:art", "fortunes:education", "fortunes:humorists", "fortunes:literature", "fortunes:people",
                    "fortunes:science", "fortunes:wisdom"};
        r.vocab_cap = 128;
        r.model_config.n_ctx = 128;
        r.training = shipped_training(5000, 2500, 128, 11);
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
    return {{"name", r.name}, {"corpus", r.corpus}, {"mix", mix}, {"vocab_cap", r.vocab_cap}, {"vocab_min_count", r.vocab_min_count},
            {"config", {{"n_layer", c.n_layer}, {"n_head", c.n_head}, {"d_model", c.d_model}, {"d_mlp", c.d_mlp},
                        {"n_ctx", c.n_ctx}, {"positional", c.learned_positions ? "learned" : "sinusoidal"}, {"ln_eps", c.ln_eps}}},
            {"training", {{"steps", t.steps}, {"batch", t.batch}, {"lr", t.lr}, {"warmup", t.warmup}, {"min_lr_ratio", t.min_lr_ratio},
                          {"weight_decay", t.weight_decay}, {"beta1", t.beta1}, {"beta2", t.beta2}, {"eps", t.eps}, {"clip", t.clip},
                          {"repeat_fraction", t.repeat_fraction}, {"repeat_alphabet", t.repeat_alphabet}, {"repeat_alphabet_min", t.repeat_alphabet_min}, {"long_repeat_alphabet", t.long_repeat_alphabet},
                          {"repeat_text_fraction", t.repeat_text_fraction}, {"short_steps", t.short_steps}, {"short_ctx", t.short_ctx}, {"long_repeat_fraction", t.long_repeat_fraction}, {"seed", t.seed}, {"parts", t.parts}}}};
}

cost baseline_cost(const model& m, std::size_t train, std::size_t heldout) {
    const double V = static_cast<double>(m.vocab.size()), a = static_cast<double>(train), b = static_cast<double>(heldout);
    return {a + 100 * b, 8 * (V * V + 3 * V) + 4 * (a + b), 0};  // the bigram table V × V in double; λ tried 100 times
}

baselines baseline_bits(const model& m, const std::u32string& train, const std::u32string& heldout) {
    if (heldout.size() < 2) throw spec_error("the held-out text needs at least 2 characters to predict one.");
    check_cost(baseline_cost(m, train.size(), heldout.size()), "the bigram baseline of " + std::to_string(m.vocab.size()) + " characters",
               "evaluate with --text-file, without the baselines");
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
