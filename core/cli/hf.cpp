// attn lm … --model DIR: a model folder as Hugging Face writes it (GPT-2, Llama, Qwen2; docs/models-you-bring.md).
//   attn lm tokenize --model DIR (--text T | --text-file F)     {"ids", "tokens", "pieces"}: ids as Hugging Face's tokenizers give them
//   attn lm trace --model DIR --text T         every stage of every layer, as JSON
//   attn lm step --model DIR --text T          the last token's pass through the key/value cache (kv_cache per layer)
//   attn lm next --model DIR --text T [--k 10] [--temperature T] [--top-k K] [--top-p P]
//   attn lm sample --model DIR --text T [--k 10] [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0]
//   attn lm generate --model DIR --prompt P [--n 20] [--temperature 0.8] [--top-k 0] [--top-p 1] [--seed 0]
//   attn lm bench --model DIR [--n 64,256] [--repeat 3]   load, forward without and with the trace, a cached step (best of)
//   attn lm layer-spec --model DIR --text T [--layer 1]   a GPT-2 layer's attention as a spec (attn trace traces it)
//   attn lm info --model DIR
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "attn/hf.hpp"
#include "attn/hf_calls.hpp"
#include "attn/json.hpp"
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

/// The text's ids for a trace or a step, refused before the weights are read when the model cannot read them
/// or the trace would keep too many numbers.
std::vector<int> tokens_for_trace(const hf::model& h, const std::string& text) {
    std::vector<int> ids = hf::ids_to_run(h, text);
    hf::check_trace_size(h, ids.size(), most_trace_floats);
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
        std::cout << hf::tokenized(tok, tok.encode(text)).dump() << '\n';
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
            ids = hf::ids_to_run(h, text, one ? 0 : o.n);
            if (o.top_k > h.c.n_vocab) throw spec_error("--top-k is " + std::to_string(o.top_k) + " but the model has " + std::to_string(h.c.n_vocab) + " tokens.");
        });
        hf::kv_cache cache;
        std::vector<float> logits = hf::forward(m, ids, cache);
        if (next) {
            std::cout << hf::next_tokens(m, logits, k, o).dump() << '\n';
            return 0;
        }
        if (sample) {  // the distribution after the temperature, after top-k and after top-p, and generate's first draw
            std::cout << hf::sample_tokens(m, logits, k, o).dump() << '\n';
            return 0;
        }
        std::string out;
        for (const int id : hf::generate(m, std::move(logits), cache, o)) out += m.tok.bytes_of(id);
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
                    if (s.spare) stages.emplace_back().swap(*s.spare);  // taken, as the folders' module takes it
                    else stages.emplace_back(s.data, s.data + count);
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
    if (sub == "layer-spec") {  // a GPT-2 layer's attention as a spec for attn trace (the page's stepper)
        const flags f = parse_flags(args, 1, {"--model", "--text", "--layer"});
        const std::string text = text_flag(f, "--text");
        std::vector<int> ids;
        int layer = 0;
        const hf::model m = load_folder(f, [&](const hf::model& h) {
            ids = tokens_for_trace(h, text);
            layer = static_cast<int>(int_flag(f, "--layer", 1, 1, h.c.n_layer)) - 1;
        });
        std::cout << spec_to_json(hf::layer_spec(m, ids, layer)).dump() << '\n';
        return 0;
    }
    if (sub == "info") {
        const flags f = parse_flags(args, 1, {"--model"});
        const hf::model m = load_folder(f);
        std::cout << hf::about(m).dump() << '\n';
        return 0;
    }
    throw spec_error("lm " + user_text(sub) + " does not read a model folder yet; tokenize, trace, step, next, sample, generate, layer-spec and info do.");
}

}  // namespace attn::cli
