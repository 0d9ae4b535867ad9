// attn lm train --arch gpt2|llama|qwen2 --tokenizer DIR --out DIR: a small model in a Hugging Face layout,
// trained on the English fortunes (the en recipe's files) and written as a model folder (docs/models-you-bring.md,
// "Test models").
//   [--steps 500] [--batch 8] [--window 128] [--lr 0.004] [--seed 1] [--min-count 2] [--parts 2]
//   [--vocab-rows N] [--dtype F32|F16|BF16[,…]]    several dtypes: one folder each, OUT-f32, OUT-f16, OUT-bf16
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include "attn/hf_train.hpp"
#include "attn/lm_json.hpp"
#include "attn/text.hpp"
#include "cli.hpp"
#include "flags.hpp"

namespace attn::cli {
namespace {

/// Each fortune on one line, its whitespace runs (indents, an attribution's tabs) one space, the fortunes apart
/// by a blank line: a model this small then spends its steps on words, not on layout.
std::string as_prose(const std::u32string& entries) {
    std::string out, word;
    bool pending_space = false;
    std::size_t newlines = 0;
    for (char32_t c : entries) {
        if (c == U'\n') ++newlines;
        if (c == U'\n' || c == U' ' || c == U'\t') {
            pending_space = !out.empty();
            continue;
        }
        if (newlines >= 2 && !out.empty()) out += "\n\n";  // an entry ends with a blank line
        else if (pending_space) out += ' ';
        pending_space = false;
        newlines = 0;
        out += lm::encode_utf8(c);
    }
    return out + "\n\n";
}

hf::architecture architecture_of(const std::string& name) {
    if (name == "gpt2") return hf::architecture::gpt2;
    if (name == "llama") return hf::architecture::llama;
    if (name == "qwen2") return hf::architecture::qwen2;
    throw spec_error("--arch must be gpt2, llama or qwen2.");
}

std::vector<hf::dtype> dtypes_of(const std::string& list) {
    std::vector<hf::dtype> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        const std::size_t end = std::min(list.find(',', at), list.size());
        const std::string t = list.substr(at, end - at);
        if (t == "F32") out.push_back(hf::dtype::f32);
        else if (t == "F16") out.push_back(hf::dtype::f16);
        else if (t == "BF16") out.push_back(hf::dtype::bf16);
        else throw spec_error("--dtype takes F32, F16 or BF16, or several of them with commas.");
        at = end + 1;
    }
    return out;
}

/// A folder that exists, or one that can be made: its nearest existing parent is a folder this process may write.
void check_can_make(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = fs::absolute(dir, ec);
    if (fs::exists(p, ec) && !fs::is_directory(p, ec)) throw spec_error("--out \"" + user_text(dir) + "\" is a file, not a folder.");
    while (!p.empty() && !fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
    if (!fs::is_directory(p, ec)) throw spec_error("cannot make the folder \"" + user_text(dir) + "\" (" + user_text(p.string()) + " is not a folder).");
    if (::access(p.c_str(), W_OK) != 0) throw spec_error("cannot make the folder \"" + user_text(dir) + "\" (" + user_text(p.string()) + " is not writable).");
}

}  // namespace

int train_folder(const std::vector<std::string>& args) {
    const flags f = parse_flags(args, 1, {"--arch", "--tokenizer", "--out", "--steps", "--batch", "--window", "--lr", "--seed",
                                          "--min-count", "--parts", "--vocab-rows", "--dtype"});
    hf::train_shape shape;
    shape.arch = architecture_of(f.get("--arch"));
    if (!f.has("--tokenizer")) throw spec_error("lm train --arch needs --tokenizer DIR (tokenizer.json, or vocab.json and merges.txt).");
    if (!f.has("--out")) throw spec_error("lm train --arch needs --out DIR.");
    const std::vector<hf::dtype> types = dtypes_of(f.get("--dtype", "F32"));
    if (shape.arch == hf::architecture::gpt2) shape.d_mlp = 4 * shape.d_model, shape.n_kv_head = shape.n_head;
    if (shape.arch == hf::architecture::qwen2) shape.eps = 1e-6f, shape.rope_theta = 1000000.0;
    lm::train_settings s;
    s.steps = static_cast<int>(int_flag(f, "--steps", 500, 1, 100000));
    s.batch = static_cast<int>(int_flag(f, "--batch", 8, 1, 256));
    s.parts = static_cast<int>(int_flag(f, "--parts", 2, 1, 64));
    s.lr = number_flag(f, "--lr", 4e-3);
    s.warmup = 50;
    s.seed = static_cast<std::uint64_t>(int_flag(f, "--seed", 1, 0, 1LL << 53));
    const int window = static_cast<int>(int_flag(f, "--window", 128, 2, shape.n_ctx));
    const int min_count = static_cast<int>(int_flag(f, "--min-count", 2, 1, 1 << 30));

    // the output is checked before the tokenizer is read and the folders made before any step: an output it
    // cannot write is refused at once
    std::vector<std::string> dirs;
    for (hf::dtype t : types) {
        std::string suffix = hf::dtype_name(t);
        for (char& ch : suffix) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        dirs.push_back(types.size() == 1 ? f.get("--out") : f.get("--out") + "-" + suffix);
    }
    for (const std::string& dir : dirs) check_can_make(dir);

    const hf::tokenizer tok = hf::load_tokenizer(*hf::folder(f.get("--tokenizer")));
    shape.vocab_rows = static_cast<int>(int_flag(f, "--vocab-rows", static_cast<long long>(tok.size()), static_cast<long long>(tok.size()), 1 << 20));
    for (const std::string& dir : dirs) {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec) throw spec_error("cannot make the folder \"" + user_text(dir) + "\" (" + ec.message() + ").");
    }
    const lm::corpus_split text = lm::read_corpus(lm::recipe_of("en").corpus);
    const std::vector<int> train_ids = tok.encode(as_prose(text.train)), held_ids = tok.encode(as_prose(text.heldout));
    hf::folder_trainer run(shape, train_ids, s, min_count, window);
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::round(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 10) / 10; };
    for (int k = 1; k <= s.steps; ++k) {
        const double loss = run.step();
        if (k == 1 || k % 50 == 0 || k == s.steps)
            std::cout << json({{"step", k}, {"loss", std::round(loss * 1e4) / 1e4}, {"seconds", seconds()}}).dump() << std::endl;
    }
    const hf::folder_trainer::vocabulary v = run.vocab();
    json done = {{"architecture", hf::architecture_name(shape.arch)}, {"corpus", lm::recipe_of("en").corpus},
                 {"train_tokens", train_ids.size()}, {"heldout_tokens", held_ids.size()},
                 {"heldout_nats_per_token", std::round(run.mean_loss(held_ids) * 1e4) / 1e4}, {"own_rows", v.own_rows},
                 {"rare_tokens", v.rare_tokens}, {"unseen_tokens", v.unseen_tokens}, {"seconds", seconds()}, {"folders", json::array()}};
    for (std::size_t k = 0; k < types.size(); ++k) {
        hf::write_trained_folder(dirs[k], run, types[k], f.get("--tokenizer"));
        done["folders"].push_back(dirs[k]);
    }
    std::cout << done.dump() << '\n';
    return 0;
}

}  // namespace attn::cli
