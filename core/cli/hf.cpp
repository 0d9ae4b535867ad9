// attn lm … --model DIR: a model folder as Hugging Face writes it (GPT-2, Llama, Qwen2; docs/models-you-bring.md).
//   attn lm tokenize --model DIR (--text T | --text-file F)     {"ids", "tokens", "pieces"}: ids as Hugging Face's tokenizers give them
//   attn lm trace --model DIR --text T         every stage of every layer, as JSON
//   attn lm step --model DIR --text T          the last token's pass through the key/value cache (kv_cache per layer)
//   attn lm next --model DIR --text T [--k 10] [--temperature T] [--top-k K] [--top-p P]
//   attn lm sample --model DIR --text T [--k 10] [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0]
//   attn lm generate --model DIR --prompt P [--n 20] [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0]
//   attn lm bench --model DIR [--n 64,256] [--repeat 3]   load, forward without and with the trace, a cached step (best of)
//   attn lm info --model DIR
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "attn/hf.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_train.hpp"
#include "attn/text.hpp"
#include "cli.hpp"
#include "flags.hpp"

namespace attn::cli {
namespace {

// A trace keeps every stage of every layer, the logits and probabilities of every token among them: this many
// floats at most (2 GiB), refused before the model's weights are read.
constexpr double most_trace_floats = 512.0 * 1024 * 1024;

hf::model load_folder(const flags& f, const std::function<void(const hf::model&)>& check = {}) {
    return hf::load(*hf::folder(f.get("--model")), check);
}

/// The ids may be proposed: the tokenizer's own (an embedding padded past them has rows no text is made of).
std::vector<bool> proposable(const hf::model& m) {
    std::vector<bool> ok(static_cast<std::size_t>(m.c.n_vocab), false);
    for (std::size_t id = 0; id < m.tok.size() && id < ok.size(); ++id) ok[id] = !m.tok.pieces_[id].empty();
    return ok;
}

/// The text's ids for a trace or a step, refused before the weights are read when the model cannot read them
/// or the trace would keep too many numbers.
std::vector<int> tokens_for_trace(const hf::model& h, const std::string& text) {
    const std::vector<int> ids = h.tok.encode(text);
    if (ids.empty()) throw spec_error("the text makes no token: give at least one character.");
    if (ids.size() > static_cast<std::size_t>(h.c.n_ctx))
        throw spec_error("the text makes " + std::to_string(ids.size()) + " tokens but the model reads at most " + std::to_string(h.c.n_ctx) +
                         " tokens.");
    const double n = static_cast<double>(ids.size());
    const double floats = n * (2.0 * h.c.n_vocab + 40.0 * h.c.n_layer * (h.c.d_model + h.c.d_mlp + h.c.n_head * n));
    if (floats > most_trace_floats)
        throw spec_error("a trace of " + std::to_string(ids.size()) + " tokens would keep about " + std::to_string(static_cast<long long>(floats / 1e6)) +
                         " million numbers, over the 512 million a trace may keep: trace a shorter text.");
    return ids;
}

/// {"tokens", "ids", "stages": [{"id", "layer", "shape", "data"}]} with every stage `run` reports, streamed as it
/// comes (no tree of millions of numbers).
void write_stages(const hf::model& m, const std::vector<int>& ids, const std::function<void(const hf::tap&)>& run) {
    std::cout << "{\"tokens\":" << json(m.tok.readable(ids)).dump() << ",\"ids\":" << json(ids).dump() << ",\"stages\":[";
    bool first = true;
    run([&](const hf::stage_view& s) {
        std::size_t count = 1;
        for (std::size_t n : s.shape) count *= n;
        std::cout << (first ? "" : ",") << "{\"id\":\"" << s.id << "\",\"layer\":" << (s.layer < 0 ? json(nullptr) : json(s.layer)).dump()
                  << ",\"shape\":" << json(s.shape).dump() << ",\"data\":";
        lm::write_floats_json(std::cout, s.data, count);
        std::cout.put('}');
        first = false;
    });
    std::cout << "]}\n";
}

}  // namespace

bool is_model_folder(const std::vector<std::string>& args) {
    for (std::size_t i = 1; i + 1 < args.size(); ++i)
        if (args[i] == "--model") {
            std::error_code ec;
            return std::filesystem::is_directory(args[i + 1], ec);
        }
    return false;
}

int run_hf(const std::vector<std::string>& args) {
    const std::string sub = args[0];
    if (sub == "tokenize") {
        const flags f = parse_flags(args, 1, {"--model", "--text", "--text-file"});
        if (f.has("--text") == f.has("--text-file")) throw spec_error("lm tokenize takes the text with --text or --text-file (one of them).");
        const std::string text = f.has("--text") ? f.get("--text") : read_text_file(f.get("--text-file"));
        const hf::tokenizer tok = hf::load_tokenizer(*hf::folder(f.get("--model")));
        const std::vector<int> ids = tok.encode(text);
        json pieces = json::array();
        for (const int id : ids) pieces.push_back(tok.piece(id));
        std::cout << json({{"ids", ids}, {"tokens", tok.readable(ids)}, {"pieces", pieces}}).dump() << '\n';
        return 0;
    }
    if (sub == "trace") {
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = text_flag(f, "--text");
        std::vector<int> ids;
        const hf::model m = load_folder(f, [&](const hf::model& h) {
            ids = tokens_for_trace(h, text);
        });
        hf::kv_cache cache;
        write_stages(m, ids, [&](const hf::tap& t) { hf::forward(m, ids, cache, t); });
        return 0;
    }
    if (sub == "step") {  // the last token's pass through the key/value cache the others filled
        const flags f = parse_flags(args, 1, {"--model", "--text"});
        const std::string text = text_flag(f, "--text");
        std::vector<int> ids;
        const hf::model m = load_folder(f, [&](const hf::model& h) { ids = tokens_for_trace(h, text); });
        hf::kv_cache cache;
        if (ids.size() > 1) hf::forward(m, std::vector<int>(ids.begin(), ids.end() - 1), cache);
        write_stages(m, ids, [&](const hf::tap& t) { hf::forward(m, {ids.back()}, cache, t); });
        return 0;
    }
    if (sub == "next" || sub == "generate" || sub == "sample") {
        const bool next = sub == "next", sample = sub == "sample";
        const flags f = next     ? parse_flags(args, 1, {"--model", "--text", "--k", "--temperature", "--top-k", "--top-p"})
                        : sample ? parse_flags(args, 1, {"--model", "--text", "--k", "--temperature", "--top-k", "--top-p", "--seed"})
                                 : parse_flags(args, 1, {"--model", "--prompt", "--n", "--temperature", "--seed", "--top-k", "--top-p"});
        const bool one = next || sample;  // one distribution of the text's next token
        lm::generate_options o = sampling_flags(f);
        if (next && !(f.has("--temperature") || f.has("--top-k") || f.has("--top-p"))) o.temperature = 1;  // the model's own distribution
        const int k = static_cast<int>(int_flag(f, "--k", 10, 1, 100000));
        o.n = static_cast<int>(int_flag(f, "--n", 20, 1, 100000));
        const std::string text = text_flag(f, one ? "--text" : "--prompt");
        std::vector<int> ids;
        const hf::model m = load_folder(f, [&](const hf::model& h) {
            ids = h.tok.encode(text);
            if (ids.empty()) throw spec_error("the text makes no token: give at least one character.");
            if (o.top_k > h.c.n_vocab) throw spec_error("--top-k is " + std::to_string(o.top_k) + " but the model has " + std::to_string(h.c.n_vocab) + " tokens.");
            const long long total = static_cast<long long>(ids.size()) + (one ? 0 : o.n);
            if (total > h.c.n_ctx)
                throw spec_error("the prompt's " + std::to_string(ids.size()) + " tokens" + (one ? "" : " and " + std::to_string(o.n) + " more") +
                                 " are more than the model's context of " + std::to_string(h.c.n_ctx) + " tokens.");
        });
        const std::vector<bool> ok = proposable(m);
        hf::kv_cache cache;
        std::vector<float> logits = hf::forward(m, ids, cache);
        if (next) {
            const lm::sampling s = lm::sample_logits(logits.data(), ok, o, 0.0);
            std::vector<int> order;
            for (std::size_t j = 0; j < s.top_p.size(); ++j)
                if (s.top_p[j] > 0) order.push_back(static_cast<int>(j));
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.top_p[static_cast<std::size_t>(a)] > s.top_p[static_cast<std::size_t>(b)]; });
            json out = json::array();
            for (std::size_t r = 0; r < order.size() && r < static_cast<std::size_t>(k); ++r)
                out.push_back({{"id", order[r]}, {"token", m.tok.readable({order[r]})[0]}, {"p", shortest_decimal(s.top_p[static_cast<std::size_t>(order[r])])}});
            std::cout << out.dump() << '\n';
            return 0;
        }
        lm::rng r(o.seed);
        if (sample) {  // the distribution after the temperature, after top-k and after top-p, and generate's first draw
            const lm::sampling s = lm::sample_logits(logits.data(), ok, o, o.temperature == 0 ? 0.0 : r.uniform());
            std::vector<int> order(s.temperature.size());
            for (std::size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.temperature[static_cast<std::size_t>(a)] > s.temperature[static_cast<std::size_t>(b)]; });
            json out = json::array();
            for (std::size_t q = 0; q < order.size() && q < static_cast<std::size_t>(k); ++q) {
                const auto j = static_cast<std::size_t>(order[q]);
                out.push_back({{"id", order[q]}, {"token", m.tok.readable({order[q]})[0]}, {"temperature", s.temperature[j]}, {"top_k", s.top_k[j]},
                               {"top_p", s.top_p[j]}});
            }
            std::cout << json({{"candidates", out}, {"pick", {{"id", s.pick}, {"token", m.tok.readable({s.pick})[0]}}}}).dump() << '\n';
            return 0;
        }
        std::vector<int> made;
        for (int step = 0; step < o.n; ++step) {
            const int pick = lm::sample_logits(logits.data(), ok, o, o.temperature == 0 ? 0.0 : r.uniform()).pick;
            made.push_back(pick);
            if (step + 1 < o.n) logits = hf::forward(m, {pick}, cache);
        }
        std::string out;
        for (const int id : made) out += m.tok.bytes_of(id);
        std::cout << out << '\n';  // the bytes as the tokens make them (a character cut at the end stays cut)
        return 0;
    }
    if (sub == "bench") {  // our forward pass on n tokens without and with every stage kept, and a cached step
        const flags f = parse_flags(args, 1, {"--model", "--n", "--repeat"});
        const int repeat = static_cast<int>(int_flag(f, "--repeat", 3, 1, 1000));
        const std::vector<std::size_t> sizes = parse_list(f.get("--n", "64,256"), "--n");
        const auto start = std::chrono::steady_clock::now();
        const hf::model m = load_folder(f);
        const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
        json out = {{"load_ms", ms(start, std::chrono::steady_clock::now())}, {"weight_bytes", m.weight_bytes()}, {"runs", json::array()}};
        for (const std::size_t n : sizes) {
            if (n > static_cast<std::size_t>(m.c.n_ctx)) throw spec_error("--n " + std::to_string(n) + " is past the model's context of " + std::to_string(m.c.n_ctx) + " tokens.");
            std::vector<int> ids(n);
            for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>((i * 7919) % m.tok.size());
            double plain = 1e30, traced = 1e30, step = 1e30;
            for (int r = 0; r < repeat; ++r) {
                hf::kv_cache a, b;
                auto t0 = std::chrono::steady_clock::now();
                hf::forward(m, ids, a);
                auto t1 = std::chrono::steady_clock::now();
                std::size_t kept = 0;  // every stage copied out, as a trace keeps it
                std::vector<std::vector<float>> stages;
                hf::forward(m, ids, b, [&](const hf::stage_view& s) {
                    std::size_t count = 1;
                    for (std::size_t k : s.shape) count *= k;
                    stages.emplace_back(s.data, s.data + count);
                    kept += count;
                });
                auto t2 = std::chrono::steady_clock::now();
                if (n < static_cast<std::size_t>(m.c.n_ctx)) hf::forward(m, {ids[0]}, a);  // one generated token through the cache of n
                auto t3 = std::chrono::steady_clock::now();
                plain = std::min(plain, ms(t0, t1));
                traced = std::min(traced, ms(t1, t2));
                step = std::min(step, ms(t2, t3));
            }
            out["runs"].push_back({{"n", n}, {"forward_ms", plain}, {"trace_ms", traced}, {"trace_over_forward", traced / plain}, {"cached_step_ms", step}});
        }
        std::cout << out.dump() << '\n';
        return 0;
    }
    if (sub == "info") {
        const flags f = parse_flags(args, 1, {"--model"});
        const hf::model m = load_folder(f);
        const hf::config& c = m.c;
        std::cout << json({{"architecture", hf::architecture_name(c.arch)}, {"dtype", hf::dtype_name(m.at("embed").type)},
                           {"n_layer", c.n_layer}, {"n_head", c.n_head}, {"n_kv_head", c.n_kv_head}, {"d_model", c.d_model},
                           {"d_head", c.d_head}, {"d_mlp", c.d_mlp}, {"n_ctx", c.n_ctx}, {"n_vocab", c.n_vocab},
                           {"tokenizer_size", m.tok.size()}, {"tied", c.tied}, {"rope_theta", c.rope_theta},
                           {"weight_bytes", m.weight_bytes()}}).dump() << '\n';
        return 0;
    }
    throw spec_error("lm " + user_text(sub) + " does not read a model folder yet; tokenize, trace, step, next, sample, generate and info do.");
}

}  // namespace attn::cli
