// attn lm …: the tiny language model from the command line (docs/model.md).
//   attn lm train --recipe zh|en --out FILE [--steps N] [--dtype f16|f32] [--batch B] [--lr X] [--repeat F] [--seed S] [--parts P]
//   attn lm trace --model M --text T          every stage of every layer, as JSON
//   attn lm next --model M --text T [--k 10]
//   attn lm step --model M --text T           one generation step: the key/value cache, the new row
//   attn lm grad --model M --text T           the mean cross-entropy of each next character, d loss / d every tensor
//   attn lm generate --model M --prompt P [--n 100] [--temperature 0.8] [--seed 0]
//   attn lm eval --model M (--text-file F | --heldout)
//   attn lm heads --model M [--text T]
//   attn lm attribute --model M --text T [--k 10]   which heads pushed each of the top-k next characters
//   attn lm stages                            every stage of a model trace with its facts (as attn stages)
//   attn lm explain --model M --text T --stage ID [--layer L] [--head H]   every cell's arithmetic
//   attn lm info --model M | attn lm recipe zh|en
// M is zh, en (the models the build trained, beside the CLI) or a .safetensors file.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"
#include "cli.hpp"

namespace attn::cli {
namespace {

using namespace attn::lm;

struct flags {
    std::map<std::string, std::string> values;
    bool has(const std::string& k) const { return values.count(k) != 0; }
    std::string get(const std::string& k, const std::string& fallback = "") const {
        const auto it = values.find(k);
        return it == values.end() ? fallback : it->second;
    }
};

flags parse_flags(const std::vector<std::string>& args, std::size_t from, std::initializer_list<const char*> known) {
    flags f;
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& a = args[i];
        bool ok = false;
        for (const char* k : known) ok = ok || a == k;
        if (!ok) throw spec_error("lm " + args[0] + " does not know the argument \"" + user_text(a) + "\".");
        if (a == "--heldout") {
            f.values[a] = "1";
            continue;
        }
        if (i + 1 >= args.size()) throw spec_error("lm " + args[0] + ": " + a + " needs a value.");
        f.values[a] = args[++i];
    }
    return f;
}

/// A whole number in [lo, hi] from a flag, or one sentence naming the flag.
long long int_flag(const flags& f, const std::string& name, long long fallback, long long lo, long long hi) {
    return f.has(name) ? whole_number(f.get(name), name, lo, hi) : fallback;
}

double number_flag(const flags& f, const std::string& name, double fallback) {
    if (!f.has(name)) return fallback;
    const std::string v = f.get(name);
    std::size_t used = 0;
    double x = NAN;
    try {
        x = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (v.empty() || used != v.size() || !std::isfinite(x)) throw spec_error(name + " is \"" + user_text(v) + "\" but must be a number.");
    return x;
}

std::string models_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::canonical("/proc/self/exe", ec);
    return ec ? std::string("models") : (exe.parent_path().parent_path() / "models").string();
}

model load(const flags& f) {
    if (!f.has("--model")) throw spec_error("give the model with --model zh, --model en or --model FILE.safetensors.");
    const std::string name = f.get("--model");
    if (name == "zh" || name == "en") {
        const std::string path = models_dir() + "/" + name + ".safetensors";
        if (!std::filesystem::exists(path))
            throw spec_error("the " + name + " model is not built yet (" + path + "): run bash scripts/build.sh.");
        return read_safetensors_file(path);
    }
    return read_safetensors_file(name);
}

std::string text_flag(const flags& f, const char* name) {
    if (!f.has(name)) throw spec_error(std::string("give the text with ") + name + ".");
    return f.get(name);
}

int train(const std::vector<std::string>& args) {
    const flags f = parse_flags(args, 1, {"--recipe", "--out", "--steps", "--dtype", "--batch", "--lr", "--repeat", "--seed", "--parts"});
    const recipe& r = recipe_of(f.get("--recipe", "en"));
    if (!f.has("--out")) throw spec_error("lm train needs --out FILE.safetensors.");
    const std::string dt = f.get("--dtype", "f16");
    if (dt != "f16" && dt != "f32") throw spec_error("--dtype must be f16 or f32.");
    train_settings s = r.training;
    s.steps = static_cast<int>(int_flag(f, "--steps", s.steps, lm_bound_of("steps").lo, lm_bound_of("steps").hi));
    s.batch = static_cast<int>(int_flag(f, "--batch", s.batch, lm_bound_of("batch").lo, lm_bound_of("batch").hi));
    s.seed = static_cast<std::uint64_t>(int_flag(f, "--seed", static_cast<long long>(s.seed), 0, 9007199254740991LL));
    s.lr = number_flag(f, "--lr", s.lr);
    s.parts = static_cast<int>(int_flag(f, "--parts", s.parts, 1, 64));
    s.repeat_fraction = number_flag(f, "--repeat", s.repeat_fraction);
    std::vector<std::pair<std::vector<std::string>, double>> mix = r.mix;
    if (mix.empty()) mix = {{r.corpus, 1.0}};
    std::vector<std::u32string> texts;
    std::vector<double> weights;
    std::u32string probe;
    for (const auto& [files, weight] : mix) {
        const corpus_split part = read_corpus(files);
        if (probe.empty()) probe = part.heldout.substr(0, 1024);  // the head scores' probe text
        texts.push_back(part.train);
        weights.push_back(weight);
    }
    model m = make_model(r.model_config, build_vocab(texts, weights, r.vocab_cap), s.seed);
    m.corpus = r.corpus;
    for (char32_t c : probe) m.probe += encode_utf8(c);
    std::vector<std::vector<int>> streams;
    for (const std::u32string& t : texts) streams.push_back(to_ids(m, t));
    trainer run(m, std::move(streams), weights, s);
    const auto start = std::chrono::steady_clock::now();
    const double tokens_per_step = static_cast<double>(s.batch) * m.config.n_ctx;
    for (int k = 1; k <= s.steps; ++k) {
        const double loss = run.step();
        if (k == 1 || k % 50 == 0 || k == s.steps) {
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::cout << json({{"step", k}, {"loss", std::round(loss * 1e4) / 1e4}, {"seconds", std::round(secs * 10) / 10},
                               {"tokens_per_second", std::round(tokens_per_step * k / secs)}}).dump()
                      << std::endl;
        }
    }
    const auto bytes = write_safetensors(m, dt == "f16" ? dtype::f16 : dtype::f32);
    std::ofstream out(f.get("--out"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw spec_error("cannot write " + user_text(f.get("--out")) + ".");
    return 0;
}

int eval(const std::vector<std::string>& args) {
    const flags f = parse_flags(args, 1, {"--model", "--text-file", "--heldout"});
    const model m = load(f);
    if (f.has("--heldout")) {  // the model's own held-out split, beside the two baselines on the same split
        const corpus_split data = read_corpus(m.corpus);
        const eval_result e = evaluate(m, to_ids(m, data.heldout));
        const baselines b = baseline_bits(m, data.train, data.heldout);
        std::cout << json({{"corpus", m.corpus}, {"characters", e.predicted}, {"bits_per_char", e.bits_per_char},
                           {"unigram_bits_per_char", b.unigram}, {"bigram_bits_per_char", b.bigram}, {"bigram_lambda", b.lambda}}).dump()
                  << '\n';
        return 0;
    }
    if (!f.has("--text-file")) throw spec_error("lm eval needs --text-file F or --heldout.");
    std::ifstream in(f.get("--text-file"), std::ios::binary);
    std::stringstream text;
    if (!in || !(text << in.rdbuf())) throw spec_error("cannot read the text file \"" + user_text(f.get("--text-file")) + "\".");
    const std::u32string t = decode_utf8(text.str(), "the text file");
    if (t.size() < 2) throw spec_error("the text file needs at least 2 characters to predict one.");
    const eval_result e = evaluate(m, to_ids(m, t));
    std::cout << json({{"characters", e.predicted}, {"bits_per_char", e.bits_per_char}}).dump() << '\n';
    return 0;
}

}  // namespace

int run_lm(const std::vector<std::string>& args) {
    const std::string sub = args.empty() ? "" : args[0];
    if (sub == "train") return train(args);
    if (sub == "eval") return eval(args);
    if (sub == "recipe") {
        if (args.size() != 2) throw spec_error("lm recipe takes one name: zh or en.");
        std::cout << recipe_json(recipe_of(args[1])).dump() << '\n';
        return 0;
    }
    if (sub == "trace") {
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const model m = load(f);
        std::cout << trace_to_json(lm::trace(m, text_flag(f, "--text"))).dump() << '\n';
        return 0;
    }
    if (sub == "grad") {  // the loss of predicting each next character of the text, and its gradient for every tensor
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const model m = load(f);
        const tokens t = tokenize(m, text_flag(f, "--text"), static_cast<std::size_t>(m.config.n_ctx) + 1);
        if (t.ids.size() < 2) throw spec_error("lm grad needs a text of at least 2 characters: each is predicted from those before it.");
        const std::vector<int> in(t.ids.begin(), t.ids.end() - 1), target(t.ids.begin() + 1, t.ids.end());
        std::vector<float> grad;
        const double loss = loss_and_grad(m, in, target, 1, static_cast<int>(in.size()), &grad);
        json grads = json::object();
        for (const param& p : m.table) {
            json g = json::array();
            for (std::size_t i = 0; i < p.size; ++i) g.push_back(shortest_decimal(grad[p.offset + i]));
            grads[p.name] = std::move(g);
        }
        std::cout << json({{"loss", loss}, {"grads", std::move(grads)}}).dump() << '\n';
        return 0;
    }
    if (sub == "layer-grad") {  // one layer's attention with the model's loss above it: a grad spec for attn grad
        const flags f = parse_flags(args, 1, {"--model", "--text", "--layer"});
        const model m = load(f);
        const model_trace t = lm::trace(m, text_flag(f, "--text"));
        const int layer = static_cast<int>(int_flag(f, "--layer", 1, 1, m.config.n_layer)) - 1;
        std::cout << layer_grad_json(layer_grad_of(m, t, layer)).dump() << '\n';
        return 0;
    }
    if (sub == "step") {  // one generation step through the key/value cache, its own stages
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const model m = load(f);
        std::cout << trace_to_json(lm::step_trace(m, text_flag(f, "--text"))).dump() << '\n';
        return 0;
    }
    if (sub == "next") {
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k"});
        const model m = load(f);
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        json out = json::array();
        for (const candidate& c : lm::next(m, text_flag(f, "--text"), k)) out.push_back({{"char", c.ch}, {"p", shortest_decimal(c.p)}});
        std::cout << out.dump() << '\n';
        return 0;
    }
    if (sub == "generate") {
        const flags f = parse_flags(args, 1, {"--model", "--prompt", "--n", "--temperature", "--seed"});
        const model m = load(f);
        generate_options o;
        o.n = static_cast<int>(int_flag(f, "--n", 100, 1, max_generate));
        o.temperature = number_flag(f, "--temperature", 0.8);
        o.seed = static_cast<std::uint64_t>(int_flag(f, "--seed", 0, 0, 9007199254740991LL));
        std::cout << lm::generate(m, text_flag(f, "--prompt"), o) << '\n';
        return 0;
    }
    if (sub == "attribute") {  // which heads pushed each of the top-k next characters (direct logit attribution)
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k"});
        const model m = load(f);
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        const json out = attribution_json(m, lm::trace(m, text_flag(f, "--text")), k);
        std::cout << out.dump() << '\n';
        return 0;
    }
    if (sub == "heads") {
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const model m = load(f);
        std::cout << heads_to_json(head_scores(m, f.get("--text"))).dump() << '\n';
        return 0;
    }
    if (sub == "stages") {  // every stage of a model trace in trace order, each layer's attention stages among them
        std::cout << model_stage_registry_json().dump() << '\n';
        return 0;
    }
    if (sub == "explain") {  // every cell of one stage, one JSON line each, as the page's captions say it
        const flags f = parse_flags(args, 1, {"--model", "--text", "--stage", "--layer", "--head"});
        const model m = load(f);
        const model_trace t = lm::trace(m, text_flag(f, "--text"));
        const std::string id = f.get("--stage");
        const bool global = model_stage_of(id) && !model_stage_of(id)->per_layer;
        const std::optional<int> layer = global ? std::nullopt
            : std::optional<int>(static_cast<int>(int_flag(f, "--layer", 1, 1, m.config.n_layer)) - 1);
        const std::size_t head = static_cast<std::size_t>(int_flag(f, "--head", 1, 1, m.config.n_head) - 1);
        const stage* s = t.find(id, layer);
        if (!s) throw spec_error("the trace has no stage \"" + user_text(id) + "\" (see attn lm stages).");
        const bool per_head = s->shape.size() == 3;
        const std::size_t rows = s->shape[per_head ? 1 : 0], cols = s->shape.back() * (per_head && (id == "q" || id == "k" || id == "v") ? m.config.n_head : 1);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                std::cout << json({{"i", i}, {"j", j}, {"text", explain_model_cell(m, t, id, layer, i, j, head)}}).dump() << '\n';
        return 0;
    }
    if (sub == "info") {
        const flags f = parse_flags(args, 1, {"--model"});
        std::cout << about_json(load(f)).dump() << '\n';
        return 0;
    }
    throw spec_error("lm needs one of train, trace, step, next, generate, eval, heads, attribute, grad, layer-grad, explain, stages, info, recipe.");
}

}  // namespace attn::cli
