// The trainer of model folders (attn/hf_train.hpp), for each of GPT-2, Llama (shared key/value heads) and
// Qwen2: its gradient against central finite differences of its own loss, the folder it writes read back by
// the loader and run by the forward pass to the same loss (the layouts, the transposes, GPT-2's fused q|k|v,
// the rows shared by rare and unseen tokens; and the pass for the next token alone, which skips the last
// layer's other rows, gives the trace's last row), the loss falling, and its refusals.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "attn/hf.hpp"
#include "attn/hf_train.hpp"
#include "attn/lm.hpp"
#include "attn/spec.hpp"
#include "check.hpp"

namespace {

using attn::hf::architecture;

attn::hf::train_shape tiny(architecture a) {
    attn::hf::train_shape s;
    s.arch = a;
    s.d_model = 8;
    s.n_head = 2;
    s.n_kv_head = a == architecture::gpt2 ? 2 : 1;
    s.n_layer = 2;
    s.d_mlp = 12;
    s.n_ctx = 8;
    s.vocab_rows = 24;  // ids 0 … 19 are the tokenizer's; 20 … 23 padding (never seen)
    s.rope_theta = 100.0;
    return s;
}

/// Ids 0 … 14 often, 15 … 17 once each (rare: one shared row), 18 … 23 never (unseen: another).
std::vector<int> stream() {
    std::vector<int> ids;
    attn::lm::rng r(7);
    for (int i = 0; i < 300; ++i) ids.push_back(static_cast<int>(r.below(15)));
    ids[40] = 15, ids[90] = 16, ids[150] = 17;
    return ids;
}

attn::lm::train_settings settings(int steps) {
    attn::lm::train_settings s;
    s.steps = steps;
    s.batch = 4;
    s.parts = 2;
    s.lr = 1e-2;
    s.warmup = 5;
    s.seed = 3;
    return s;
}

std::string name_of(architecture a) { return attn::hf::architecture_name(a); }

}  // namespace

TEST_CASE("hf train: the gradient of every weight kind equals central finite differences of the loss") {
    for (architecture a : {architecture::gpt2, architecture::llama, architecture::qwen2}) {
        CAPTURE(name_of(a));
        attn::hf::folder_trainer t(tiny(a), stream(), settings(1), 2, 6);
        // weights far from their initial 0.02, so that every nonlinearity is exercised
        attn::lm::rng r(11);
        for (float& w : t.weights()) w += static_cast<float>(r.normal() * 0.4);
        const std::vector<int> in = {1, 15, 3, 19, 2, 4, 5, 6, 7, 8, 9, 17}, tg = {15, 3, 19, 2, 4, 0, 6, 7, 8, 9, 17, 22};
        std::vector<float> grad;
        t.loss(in, tg, 2, 6, &grad);
        // every weight of a model this small: norms, q/k/v (and their biases), o, the MLP, the embedding rows
        // (own, rare, unseen), the positions
        double diff2 = 0, fd2 = 0, worst = 0, largest = 0;
        std::vector<double> fd(t.weights().size());
        for (std::size_t i = 0; i < t.weights().size(); ++i) {
            float& w = t.weights()[i];
            const float keep = w, h = 5e-3f;
            w = keep + h;
            const double up = t.loss(in, tg, 2, 6, nullptr);
            w = keep - h;
            const double down = t.loss(in, tg, 2, 6, nullptr);
            w = keep;
            fd[i] = (up - down) / (2.0 * h);
            diff2 += (fd[i] - grad[i]) * (fd[i] - grad[i]);
            fd2 += fd[i] * fd[i];
            largest = std::max(largest, std::abs(fd[i]));
        }
        // each weight within 5% of its own size or 1% of the largest gradient (float32 losses: their
        // differences over 2h carry about 1e-5 of noise), and all of them together within 1%
        for (std::size_t i = 0; i < fd.size(); ++i)
            worst = std::max(worst, std::abs(fd[i] - grad[i]) / (0.01 * largest + 0.05 * std::abs(fd[i])));
        const double overall = std::sqrt(diff2 / fd2);
        MESSAGE(name_of(a) << ": " << fd.size() << " weights, |fd − grad| / |fd| over all " << overall << ", worst single one "
                           << worst << " of its tolerance");
        CHECK(overall < 0.01);
        CHECK(worst < 1.0);
    }
}

TEST_CASE("hf train: the written folder, read by the loader, gives the trainer's own loss") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / "attn-hf-train-test";
    fs::create_directories(root / "tok");
    {  // a byte-level tokenizer of the 256 bytes alone (GPT-2's files, no merges): GPT-2's byte → character map
        attn::json vocab = attn::json::object();
        int next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            const char32_t c = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(next++);
            vocab[attn::lm::encode_utf8(c)] = b;
        }
        std::ofstream(root / "tok" / "vocab.json") << vocab.dump();
        std::ofstream(root / "tok" / "merges.txt") << "#version: 0.2\n";
    }
    for (architecture a : {architecture::gpt2, architecture::llama, architecture::qwen2}) {
        for (attn::hf::dtype type : {attn::hf::dtype::f32, attn::hf::dtype::bf16}) {
            CAPTURE(name_of(a));
            CAPTURE(attn::hf::dtype_name(type));
            attn::hf::train_shape shape = tiny(a);
            shape.vocab_rows = 260;  // the tokenizer's 256 and 4 rows of padding
            attn::hf::folder_trainer t(shape, stream(), settings(30), 2, 6);
            for (int k = 0; k < 30; ++k) t.step();
            const fs::path dir = root / (std::string(name_of(a)) + attn::hf::dtype_name(type));
            attn::hf::write_trained_folder(dir.string(), t, type, (root / "tok").string());
            const attn::hf::model m = attn::hf::load(*attn::hf::folder(dir.string()));
            CHECK(m.c.arch == a);
            CHECK(m.c.n_kv_head == tiny(a).n_kv_head);
            CHECK(m.c.n_vocab == 260);
            const std::vector<int> ids = {1, 15, 3, 19, 2, 258, 5, 6};  // a rare, a never-seen and a padding id among them
            std::vector<float> logits;
            attn::hf::kv_cache cache;
            attn::hf::forward(m, ids, cache, [&](const attn::hf::stage_view& s) {
                if (std::string(s.id) == "logits") logits.assign(s.data, s.data + s.shape[0] * s.shape[1]);
            });
            REQUIRE(logits.size() == ids.size() * 260);
            // the pass for the next token alone (no tap: the last layer runs its last row only) gives the trace's last row
            attn::hf::kv_cache fresh;
            const std::vector<float> next = attn::hf::forward(m, ids, fresh);
            attn_test::check_close(next.data(), logits.data() + (ids.size() - 1) * 260, 260, 1e-5, "the next token's logits");
            CHECK(fresh.k.back().size() == cache.k.back().size());  // every position's key in the last layer's cache
            attn_test::check_close(fresh.k.back().data(), cache.k.back().data(), cache.k.back().size(), 1e-6, "the last layer's keys");
            double folder_loss = 0;
            for (std::size_t p = 0; p + 1 < ids.size(); ++p) {
                const float* z = logits.data() + p * 260;
                double mx = z[0], sum = 0;
                for (int j = 1; j < 260; ++j) mx = std::max(mx, static_cast<double>(z[j]));
                for (int j = 0; j < 260; ++j) sum += std::exp(z[j] - mx);
                folder_loss += std::log(sum) + mx - z[ids[p + 1]];
            }
            folder_loss /= static_cast<double>(ids.size() - 1);
            const std::vector<int> in(ids.begin(), ids.end() - 1), tg(ids.begin() + 1, ids.end());
            const double own = t.loss(in, tg, 1, 7, nullptr);
            MESSAGE(name_of(a) << " " << std::string(attn::hf::dtype_name(type)) << ": the folder's loss " << folder_loss << ", the trainer's " << own);
            // BF16 rounds every weight to 8 significant bits
            CHECK(std::abs(folder_loss - own) <= (type == attn::hf::dtype::f32 ? 1e-4 : 3e-2) * (1 + own));
        }
    }
    fs::remove_all(root);
}

TEST_CASE("hf train: the loss falls, the same seed gives the same weights, and bad shapes are refused") {
    for (architecture a : {architecture::gpt2, architecture::llama, architecture::qwen2}) {
        CAPTURE(name_of(a));
        attn::hf::folder_trainer t(tiny(a), stream(), settings(60), 2, 6);
        const double first = t.mean_loss(stream());
        for (int k = 0; k < 60; ++k) t.step();
        const double last = t.mean_loss(stream());
        CHECK(last < first - 0.2);
        attn::hf::folder_trainer again(tiny(a), stream(), settings(60), 2, 6);
        for (int k = 0; k < 60; ++k) again.step();
        CHECK(again.weights() == t.weights());
    }
    auto refusal = [](attn::hf::train_shape s, std::vector<int> ids, int window) -> std::string {
        try {
            attn::hf::folder_trainer t(s, std::move(ids), settings(1), 2, window);
        } catch (const attn::spec_error& e) {
            return e.what();
        }
        return "";
    };
    attn::hf::train_shape odd = tiny(architecture::llama);
    odd.n_kv_head = 3;
    CHECK(refusal(odd, stream(), 6).find("key/value heads") != std::string::npos);
    attn::hf::train_shape g2 = tiny(architecture::gpt2);
    g2.n_kv_head = 1;
    CHECK(refusal(g2, stream(), 6) == "GPT-2 has as many key/value heads as heads.");
    CHECK(refusal(tiny(architecture::llama), stream(), 9).find("training window") != std::string::npos);
    CHECK(refusal(tiny(architecture::llama), {1, 2, 30, 4, 5, 6, 7, 8, 9}, 6).find("outside the embedding") != std::string::npos);
    CHECK(refusal(tiny(architecture::llama), {1, 2, 3}, 6).find("fewer tokens than one window") != std::string::npos);
}
