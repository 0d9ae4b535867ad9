// attn lm …: the tiny language model from the command line (docs/model.md).
//   attn lm train --recipe zh|en --out FILE [--steps N] [--dtype f16|f32] [--batch B] [--lr X] [--repeat F] [--repeat-alphabet-min N] [--long-repeat-alphabet N] [--repeat-text F] [--seed S] [--parts P]
//   attn lm train --arch gpt2|llama|qwen2 --tokenizer DIR --out DIR …   a model folder (hf_train.cpp)
//   attn lm trace --model M --text T          every stage of every layer, as JSON
//   attn lm step --model M --text T           one generation step: the key/value cache, the new row
//   attn lm grad --model M --text T           the mean cross-entropy of each next character, d loss / d every tensor
//   attn lm next --model M --text T [--k 10] [--temperature T] [--top-k K] [--top-p P]   (shaped as sampling draws)
//   attn lm sample --model M --text T [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0] [--k 10]
//   attn lm generate --model M --prompt P [--n 100] [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0]
//   attn lm eval --model M (--text-file F | --heldout)
//   attn lm heads --model M [--text T]         scores on the standard probes, and on the text
//   attn lm lens --model M --text T [--k 5]    the logit lens: each layer's top k
//   attn lm attribute --model M --text T [--k 10]   which heads pushed each of the top-k next characters
//   attn lm stages                            every stage of a model trace with its facts (as attn stages)
//   attn lm explain --model M --text T --stage ID [--layer L] [--head H]   every cell's arithmetic
//   attn lm info --model M | attn lm recipe zh|en
// M is zh, en (the models the build trained, beside the CLI) or a .safetensors file. Each call's cost is checked
// against lm_bounds() from the file's header, before its weights are read (docs/limits.md, "The language model").
//
// [SECTION] loading and checks · train · eval · the other commands
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"
#include "cli.hpp"
#include "flags.hpp"

namespace attn::cli {
namespace {

using namespace attn::lm;

// ---- [SECTION] loading and checks ----

std::string models_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::canonical("/proc/self/exe", ec);
    return ec ? std::string("models") : (exe.parent_path().parent_path() / "models").string();
}

/// The model named by --model. check, when given, sees it before its weights are read (its header alone): a
/// call's cost is refused there, in well under a second, before a large file's data is read.
model load(const flags& f, const std::function<void(const model&)>& check = {}) {
    if (!f.has("--model")) throw spec_error("give the model with --model zh, --model en or --model FILE.safetensors.");
    const std::string name = f.get("--model");
    if (name == "zh" || name == "en") {
        const std::string path = models_dir() + "/" + name + ".safetensors";
        if (!std::filesystem::exists(path))
            throw spec_error("the " + name + " model is not built yet (" + path + "): run bash scripts/build.sh.");
        return read_safetensors_file(path, check);
    }
    return read_safetensors_file(name, check);
}



/// Refuses an --out path that cannot be written, before a training run of minutes (it used to fail after it).
void check_writable(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw spec_error("cannot write --out \"" + user_text(path) + "\": it is a folder.");
    const bool existed = std::filesystem::exists(path, ec);
    std::ofstream probe(path, std::ios::binary | std::ios::app);  // app: an existing model is not emptied
    if (!probe) throw spec_error("cannot write --out \"" + user_text(path) + "\": is its folder there, and writable?");
    probe.close();
    if (!existed) std::filesystem::remove(path, ec);
}

/// How many cells `attn lm explain` writes for a stage (rows: the text's characters; its columns by the axis kind
/// the registries give it; q, k and v as whole rows of d_model), before the trace is made; 0 for an unknown id.
std::size_t explain_cells(const model& m, const std::string& id, std::size_t n) {
    const config& c = m.config;
    axis_kind cols;
    if (const model_stage_info* own = model_stage_of(id)) cols = own->cols;
    else if (const auto seq = stage_from_name(id)) cols = (id == "q" || id == "k" || id == "v") ? axis_kind::feature : stage_info_of(*seq).cols;
    else return 0;
    const std::size_t width = cols == axis_kind::key ? n
                            : cols == axis_kind::hidden ? static_cast<std::size_t>(c.d_mlp)
                            : cols == axis_kind::vocab ? m.vocab.size()
                            : cols == axis_kind::single ? 1
                            : cols == axis_kind::head_feature ? static_cast<std::size_t>(c.d_model / c.n_head)
                                                              : static_cast<std::size_t>(c.d_model);
    return n * width;
}

/// The gradient of every weight on text of n characters (n − 1 predictions): refused when over the budget.
void check_grad(const model& m, std::size_t n) {
    if (n < 2 || n > static_cast<std::size_t>(m.config.n_ctx) + 1) return;  // refused later with their own sentences
    const auto cost_of = [&](std::size_t chars) { return grad_cost(m, std::max<std::size_t>(chars, 2) - 1); };
    if (within_budget(cost_of(n))) return;
    const std::size_t most = most_that_fit(n - 1, cost_of);
    check_cost(cost_of(n), "the gradient on " + std::to_string(n) + " characters",
               most > 1 ? "give it at most " + std::to_string(most) + " characters" : "this model is too large for it");
}

// ---- [SECTION] train ----

int train(const std::vector<std::string>& args) {
    const flags f = parse_flags(args, 1, {"--recipe", "--out", "--steps", "--dtype", "--batch", "--lr", "--repeat", "--repeat-alphabet", "--repeat-alphabet-min", "--long-repeat-alphabet", "--repeat-text", "--short-steps", "--short-ctx", "--long-repeat", "--vocab-cap", "--vocab-min-count", "--seed", "--parts"});
    const recipe& r = recipe_of(f.get("--recipe", "en"));
    if (!f.has("--out")) throw spec_error("lm train needs --out FILE.safetensors.");
    const std::string dt = f.get("--dtype", "f16");
    if (dt != "f16" && dt != "f32") throw spec_error("--dtype must be f16 or f32.");
    train_settings s = r.training;
    s.steps = static_cast<int>(int_flag(f, "--steps", s.steps, "steps"));
    s.batch = static_cast<int>(int_flag(f, "--batch", s.batch, "batch"));
    s.seed = static_cast<std::uint64_t>(int_flag(f, "--seed", static_cast<long long>(s.seed), "seed"));
    s.lr = number_flag(f, "--lr", s.lr);
    s.parts = static_cast<int>(int_flag(f, "--parts", s.parts, 1, 64));
    s.repeat_fraction = number_flag(f, "--repeat", s.repeat_fraction);
    s.repeat_alphabet = static_cast<int>(int_flag(f, "--repeat-alphabet", s.repeat_alphabet, 2, static_cast<long long>(lm_bound_of("vocab").hi)));
    s.repeat_alphabet_min = static_cast<int>(int_flag(f, "--repeat-alphabet-min", s.repeat_alphabet_min, 0, s.repeat_alphabet));
    s.long_repeat_alphabet = static_cast<int>(int_flag(f, "--long-repeat-alphabet", s.long_repeat_alphabet, 0, static_cast<long long>(lm_bound_of("vocab").hi)));
    s.repeat_text_fraction = number_flag(f, "--repeat-text", s.repeat_text_fraction);
    s.short_steps = static_cast<int>(int_flag(f, "--short-steps", s.short_steps, 0, max_train_steps));
    s.long_repeat_fraction = number_flag(f, "--long-repeat", s.long_repeat_fraction);
    s.short_ctx = static_cast<int>(int_flag(f, "--short-ctx", s.short_ctx, 0, static_cast<long long>(lm_bound_of("n_ctx").hi)));
    const auto vocab_cap = static_cast<std::size_t>(int_flag(f, "--vocab-cap", static_cast<long long>(r.vocab_cap), "vocab"));
    const auto vocab_min_count = static_cast<std::size_t>(int_flag(f, "--vocab-min-count", static_cast<long long>(r.vocab_min_count), 1, 1 << 30));
    check_writable(f.get("--out"));
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
    model m = make_model(r.model_config, build_vocab(texts, weights, vocab_cap, vocab_min_count), s.seed);
    m.corpus = r.corpus;
    for (char32_t c : probe) m.probe += encode_utf8(c);
    std::vector<std::vector<int>> streams;
    for (const std::u32string& t : texts) streams.push_back(to_ids(m, t));
    trainer run(m, std::move(streams), weights, s);  // refuses a step over one call's budget
    const auto start = std::chrono::steady_clock::now();
    double tokens = 0;
    for (int k = 1; k <= s.steps; ++k) {
        tokens += static_cast<double>(s.batch) * static_cast<double>(run.window());
        const double loss = run.step();
        if (k == 1 || k % 50 == 0 || k == s.steps) {
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::cout << json({{"step", k}, {"loss", std::round(loss * 1e4) / 1e4}, {"seconds", std::round(secs * 10) / 10},
                               {"tokens_per_second", std::round(tokens / secs)}}).dump()
                      << std::endl;
        }
    }
    const auto bytes = write_safetensors(m, dt == "f16" ? dtype::f16 : dtype::f32);
    std::ofstream out(f.get("--out"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw spec_error("cannot write " + user_text(f.get("--out")) + ".");
    return 0;
}

// ---- [SECTION] eval ----

int eval(const std::vector<std::string>& args) {
    const flags f = parse_flags(args, 1, {"--model", "--text-file", "--heldout"});
    if (f.has("--heldout") == f.has("--text-file")) throw spec_error("lm eval needs one of --text-file F or --heldout.");
    if (f.has("--heldout")) {  // the model's own held-out split, beside the two baselines on the same split
        corpus_split data;
        const model m = load(f, [&](const model& h) {  // the corpus and the cost, before the weights are read
            if (h.corpus.empty())
                throw spec_error("the model names no corpus (its __metadata__.corpus is empty): evaluate it with --text-file.");
            data = read_corpus(h.corpus);
            if (data.heldout.size() < 2) throw spec_error("the model's held-out text has fewer than 2 characters to predict one.");
            if (const cost c = eval_cost(h, data.heldout.size()); !within_budget(c, "eval_work"))
                check_cost(c, "evaluating the " + std::to_string(data.heldout.size()) + " held-out characters",
                           "evaluate a part of them with --text-file", "eval_work");
            check_cost(baseline_cost(h, data.train.size(), data.heldout.size()), "the bigram baseline of " +
                       std::to_string(h.vocab.size()) + " characters", "evaluate with --text-file, without the baselines");
        });
        const eval_result e = evaluate(m, to_ids(m, data.heldout));
        const baselines b = baseline_bits(m, data.train, data.heldout);
        std::cout << json({{"corpus", m.corpus}, {"characters", e.predicted}, {"bits_per_char", e.bits_per_char},
                           {"unigram_bits_per_char", b.unigram}, {"bigram_bits_per_char", b.bigram}, {"bigram_lambda", b.lambda}}).dump()
                  << '\n';
        return 0;
    }
    const std::string text = read_text_file(f.get("--text-file"));
    const std::size_t chars = count_chars(text, "the text file");
    if (chars < 2) throw spec_error("the text file needs at least 2 characters to predict one.");
    const model m = load(f, [&](const model& h) {
        if (const cost c = eval_cost(h, chars); !within_budget(c, "eval_work")) {
            const std::size_t most = most_that_fit(chars, [&](std::size_t k) { return eval_cost(h, k); }, "eval_work");
            check_cost(c, "evaluating " + std::to_string(chars) + " characters",
                       most > 1 ? "evaluate at most " + std::to_string(most) + " at once" : "this model is too large for it", "eval_work");
        }
    });
    const eval_result e = evaluate(m, to_ids(m, decode_utf8(text, "the text file")));
    std::cout << json({{"characters", e.predicted}, {"bits_per_char", e.bits_per_char}}).dump() << '\n';
    return 0;
}

}  // namespace

// ---- [SECTION] the other commands ----

int run_lm(const std::vector<std::string>& args) {
    const std::string sub = args.empty() ? "" : args[0];
    if (is_model_folder(args)) return run_hf(args);
    if (sub == "tokenize") throw spec_error("lm tokenize reads a model folder: give it with --model DIR (docs/models-you-bring.md).");
    if (sub == "train") return std::find(args.begin(), args.end(), "--arch") != args.end() ? train_folder(args) : train(args);
    if (sub == "eval") return eval(args);
    if (sub == "recipe") {
        if (args.size() != 2) throw spec_error("lm recipe takes one name: zh or en.");
        std::cout << recipe_json(recipe_of(args[1])).dump() << '\n';
        return 0;
    }
    if (sub == "trace") {
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_text_cost(h, n, "a trace", trace_cost); });
        write_trace_json(std::cout, lm::trace(m, text));  // streamed: no tree of every number
        std::cout << '\n';
        return 0;
    }
    if (sub == "grad") {  // the loss of predicting each next character of the text, and its gradient for every tensor
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_grad(h, n); });
        const tokens t = tokenize(m, text, static_cast<std::size_t>(m.config.n_ctx) + 1);
        if (t.ids.size() < 2) throw spec_error("lm grad needs a text of at least 2 characters: each is predicted from those before it.");
        const std::vector<int> in(t.ids.begin(), t.ids.end() - 1), target(t.ids.begin() + 1, t.ids.end());
        std::vector<float> grad;
        const double loss = loss_and_grad(m, in, target, 1, static_cast<int>(in.size()), &grad);
        check_finite(loss, "loss");
        check_finite(grad.data(), grad.size(), "gradient");
        std::cout << "{\"loss\":" << json(loss).dump() << ",\"grads\":{";
        for (std::size_t k = 0; k < m.table.size(); ++k) {
            const param& p = m.table[k];
            std::cout << (k ? "," : "") << json(p.name).dump() << ':';
            write_floats_json(std::cout, grad.data() + p.offset, p.size);
        }
        std::cout << "}}\n";
        return 0;
    }
    if (sub == "layer-grad") {  // one layer's attention with the model's loss above it: a grad spec for attn grad
        const flags f = parse_flags(args, 1, {"--model", "--text", "--layer"});
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_text_cost(h, n, "a layer's gradient", layer_grad_cost); });
        const model_trace t = lm::trace(m, text);
        const int layer = static_cast<int>(int_flag(f, "--layer", 1, 1, m.config.n_layer)) - 1;
        std::cout << layer_grad_json(layer_grad_of(m, t, layer)).dump() << '\n';
        return 0;
    }
    if (sub == "step") {  // one generation step through the key/value cache, its own stages
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_text_cost(h, n, "a generation step", step_cost); });
        write_trace_json(std::cout, lm::step_trace(m, text));
        std::cout << '\n';
        return 0;
    }
    if (sub == "next") {  // with --temperature, --top-k or --top-p: the distribution as sampling draws from it
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k", "--temperature", "--top-k", "--top-p"});
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        const bool shaped = f.has("--temperature") || f.has("--top-k") || f.has("--top-p");
        const generate_options o = sampling_flags(f);
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) {
            if (shaped) check_sampling(h, o);
            check_text_cost(h, n, "next", next_cost);
        });
        json out = json::array();
        if (shaped) {
            const sampling s = sample_next(m, text, o);
            for (const candidate& c : likeliest_of(m, s.top_p, k)) out.push_back({{"char", c.ch}, {"p", shortest_decimal(c.p)}});
        } else {
            for (const candidate& c : lm::next(m, text, k)) out.push_back({{"char", c.ch}, {"p", shortest_decimal(c.p)}});
        }
        std::cout << out.dump() << '\n';
        return 0;
    }
    if (sub == "generate") {
        const flags f = parse_flags(args, 1, {"--model", "--prompt", "--n", "--temperature", "--seed", "--top-k", "--top-p"});
        generate_options o = sampling_flags(f);  // the temperature and top-p checked before the model is read
        o.n = static_cast<int>(int_flag(f, "--n", 100, "n"));
        const std::string prompt = text_flag(f, "--prompt");
        const std::size_t n = count_chars(prompt, "the text");
        const model m = load(f, [&](const model& h) {
            if (n <= static_cast<std::size_t>(h.config.n_ctx)) check_generate(h, n, o);  // else tokenize's own sentence
        });
        std::cout << lm::generate(m, prompt, o) << '\n';
        return 0;
    }
    if (sub == "attribute") {  // which heads pushed each of the top-k next characters (direct logit attribution)
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k"});
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_text_cost(h, n, "a trace", trace_cost); });
        const json out = attribution_json(m, lm::trace(m, text), k);
        std::cout << out.dump() << '\n';
        return 0;
    }
    if (sub == "heads") {  // on the model's standard probes, and with --text on that text too
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = f.get("--text");
        if (f.has("--text") && text.empty()) throw spec_error("give --text a text of at least 1 character.");
        const std::size_t n = f.has("--text") ? count_chars(text, "the text") : 0;
        // a file without a probe of its own (its metadata has none) is measured on the text, as before there were two
        const auto probe_of = [&](const model& h) { return h.probe.empty() ? std::string_view(text) : std::string_view(h.probe); };
        const model m = load(f, [&](const model& h) {
            check_heads(h, probe_of(h));
            if (n) check_text_cost(h, n, "a trace", trace_cost);
        });
        const std::vector<head_score> probe = head_scores(m, probe_of(m));
        if (!n) {
            std::cout << heads_json(probe, nullptr).dump() << '\n';
            return 0;
        }
        const std::vector<text_head_score> on_text = text_head_scores(m, lm::trace(m, text));
        std::cout << heads_json(probe, &on_text).dump() << '\n';
        return 0;
    }
    if (sub == "lens") {  // what each layer predicts: ln_f and the unembedding after each attention and MLP
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k"});
        const int k = static_cast<int>(int_flag(f, "--k", 5, 1, 100000));
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) { check_text_cost(h, n, "a trace", trace_cost); });
        std::cout << lens_json(m, lm::trace(m, text), k).dump() << '\n';
        return 0;
    }
    if (sub == "sample") {  // the distribution after the temperature, top-k and top-p, and the character the seed draws
        const flags f = parse_flags(args, 1, {"--model", "--text", "--k", "--temperature", "--top-k", "--top-p", "--seed"});
        const generate_options o = sampling_flags(f);
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        const std::string text = text_flag(f, "--text");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) {
            check_sampling(h, o);
            check_text_cost(h, n, "next", next_cost);
        });
        std::cout << sampling_json(m, sample_next(m, text, o), k).dump() << '\n';
        return 0;
    }
    if (sub == "stages") {  // every stage of a model trace in trace order, each layer's attention stages among them
        std::cout << model_stage_registry_json().dump() << '\n';
        return 0;
    }
    if (sub == "explain") {  // every cell of one stage, one JSON line each, as the page's captions say it
        const flags f = parse_flags(args, 1, {"--model", "--text", "--stage", "--layer", "--head"});
        const std::string text = text_flag(f, "--text"), id = f.get("--stage");
        const std::size_t n = count_chars(text, "the text");
        const model m = load(f, [&](const model& h) {  // the lines it would write, before the trace is made
            check_text_cost(h, n, "a trace", trace_cost);
            const std::size_t cells = explain_cells(h, id, n);
            check_cost(explain_cost(h, n, cells), "explaining the " + std::to_string(cells) + " cells of stage " + user_text(id),
                       "explain single cells through the npm module's m.explain(), or a shorter text");
        });
        const model_trace t = lm::trace(m, text);
        const bool global = model_stage_of(id) && !model_stage_of(id)->per_layer;
        const std::optional<int> layer = global ? std::nullopt
            : std::optional<int>(static_cast<int>(int_flag(f, "--layer", 1, 1, m.config.n_layer)) - 1);
        const std::size_t head = static_cast<std::size_t>(int_flag(f, "--head", 1, 1, m.config.n_head) - 1);
        const stage* s = t.find(id, layer);
        if (!s) throw spec_error("the trace has no stage \"" + user_text(id) + "\" (see attn lm stages).");
        const bool per_head = s->shape.size() == 3;
        const std::size_t rows = s->shape[per_head ? 1 : 0], cols = s->shape.back() * (per_head && (id == "q" || id == "k" || id == "v") ? m.config.n_head : 1);
        // a layer's attention stage: its sequence trace made once for every cell, not once a cell
        const std::optional<attn::trace> attention = layer && !model_stage_of(id) ? std::optional<attn::trace>(attention_trace_of(m, t, *layer))
                                                                                   : std::nullopt;
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                std::cout << json({{"i", i}, {"j", j}, {"text", explain_model_cell(m, t, id, layer, i, j, head, attention ? &*attention : nullptr)}}).dump()
                          << '\n';
        return 0;
    }
    if (sub == "info") {
        const flags f = parse_flags(args, 1, {"--model"});
        std::cout << about_json(load(f)).dump() << '\n';
        return 0;
    }
    throw spec_error("lm needs one of train, trace, step, next, sample, generate, eval, heads, lens, attribute, grad, layer-grad, explain, stages, info, recipe.");
}

}  // namespace attn::cli
