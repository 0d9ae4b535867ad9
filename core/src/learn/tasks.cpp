// The training tasks (attn/tasks.hpp), generated from a fixed seed so every run is the same.
#include "attn/tasks.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "attn/spec.hpp"
#include "attn/text.hpp"

namespace attn {
namespace {

constexpr std::size_t d = 16;     // the alignment and positions tasks
constexpr std::size_t d_wide = 64;  // the scaling tasks: wide enough that unscaled scores saturate the softmax

/// A uniform float in [−scale, scale) from the generator's raw bits: std::uniform_real_distribution is
/// not the same in libstdc++ (native) and libc++ (wasm), and the tasks must be the same data everywhere.
float uniform(std::mt19937& rng, float scale) { return (float(rng() >> 8) / 16777216.0f * 2.0f - 1.0f) * scale; }

/// A word's embedding: dim values in [−1, 1] from the word itself (the same word, the same vector).
std::vector<float> embedding(const std::string& word, std::size_t dim) {
    std::seed_seq seed(word.begin(), word.end());
    std::mt19937 rng(seed);
    std::vector<float> v(dim);
    for (float& x : v) x = uniform(rng, 1.0f);
    return v;
}

/// The words' embeddings as the rows of a matrix, written as the spec writes matrices.
json rows_of(const std::vector<std::string>& words, std::size_t dim = d) {
    matrix m = matrix::from_shape({words.size(), dim});
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::vector<float> v = embedding(words[i], dim);
        std::copy(v.begin(), v.end(), &m(i, 0));
    }
    return matrix_json(m);
}

json random_matrix(std::mt19937& rng, std::size_t r, std::size_t c, float scale) {
    matrix m = matrix::from_shape({r, c});
    for (float& x : m) x = uniform(rng, scale);  // row by row: the same draws, in the same order, as ever
    return matrix_json(m);
}

/// Each Chinese word should come to attend to its English word: the output row is the value of the
/// aligned English word. dim wide embeddings, W_q and W_k uniform in ±init, scores scaled or not.
json alignment_task(std::size_t dim, float init, bool scaled, float lr) {
    const std::vector<alignment_item> items = alignment_items();
    json data = json::array();
    for (const alignment_item& item : items) {
        std::vector<std::string> partners;  // each Chinese word's English word, by position
        for (int p : item.partner) partners.push_back("en:" + item.en[std::size_t(p)]);
        std::vector<std::string> zh_keys, en_keys;
        for (const std::string& w : item.zh) zh_keys.push_back("zh:" + w);
        for (const std::string& w : item.en) en_keys.push_back("en:" + w);
        data.push_back({{"x", rows_of(zh_keys, dim)}, {"memory", rows_of(en_keys, dim)}, {"target", rows_of(partners, dim)},
                        {"tokens", {{"query", item.zh}, {"key", item.en}}}});
    }
    std::mt19937 rng(2024);
    const alignment_item& first = items.front();
    return {{"x", data[0]["x"]}, {"memory", data[0]["memory"]}, {"tokens", {{"query", first.zh}, {"key", first.en}}},
            {"weights", {{"wq", random_matrix(rng, dim, dim, init)}, {"wk", random_matrix(rng, dim, dim, init)}}},
            {"score", scaled ? "scaled_dot" : "dot"}, {"loss", "mse"},
            {"train", {{"data", std::move(data)}, {"params", {"wq", "wk"}}, {"optimizer", {{"adam", {{"lr", lr}}}}}, {"steps", 300}}}};
}

json positions_task(bool with_pe) {
    // labels, not target vectors: the output row's largest column should be the reversed token's index.
    // (A target vector would be unreachable with PE: the values carry the positions' encodings too.)
    const std::vector<std::string> vocabulary{"a", "b", "c", "d", "e", "f", "g", "h"};
    std::mt19937 rng(7);
    const auto pick = [&] { return std::size_t(rng() % vocabulary.size()); };
    json data = json::array();
    for (int item = 0; item < 16; ++item) {
        std::vector<std::string> words, shown;
        std::vector<std::size_t> ids;
        for (int i = 0; i < 6; ++i) ids.push_back(pick()), words.push_back("token:" + vocabulary[ids.back()]), shown.push_back(vocabulary[ids.back()]);
        json labels = json::array();
        for (auto it = ids.rbegin(); it != ids.rend(); ++it) labels.push_back(*it);
        data.push_back({{"x", rows_of(words)}, {"labels", std::move(labels)}, {"tokens", {{"query", shown}, {"key", shown}}}});
    }
    std::mt19937 init(2025);
    return {{"x", data[0]["x"]}, {"tokens", data[0]["tokens"]},
            {"weights", {{"wq", random_matrix(init, d, d, 0.3f)}, {"wk", random_matrix(init, d, d, 0.3f)}, {"wv", random_matrix(init, d, d, 0.9f)}}},
            {"score", "scaled_dot"}, {"positional", with_pe ? "sinusoidal" : "none"}, {"loss", "cross_entropy"},
            {"train", {{"data", std::move(data)}, {"params", {"wq", "wk", "wv"}}, {"optimizer", {{"adam", {{"lr", 0.03}}}}}, {"steps", 300}}}};
}

}  // namespace

std::vector<alignment_item> alignment_items() {
    struct word {
        const char *zh, *en;
    };
    const word animals[] = {{"猫", "cat"}, {"狗", "dog"}, {"鸟", "bird"}}, verbs[] = {{"坐", "sat"}, {"跑", "ran"}, {"睡", "slept"}},
               places[] = {{"垫子", "mat"}, {"地毯", "rug"}, {"树", "tree"}};
    std::vector<alignment_item> items;
    for (int k = 0; k < 27 && items.size() < 16; k += 1) {
        const int a = k % 3, v = (k / 3) % 3, p = (k / 9) % 3;
        if ((a + v + p) % 3 == 2 && items.size() + (27 - k) > 16) continue;  // 16 of the 27, every word in several
        // 猫 坐 在 垫子 上 ↔ the cat sat on the mat: 在 and 上 both go with "on"
        alignment_item it;
        it.zh = {animals[a].zh, verbs[v].zh, "在", places[p].zh, "上"};
        it.en = {"the", animals[a].en, verbs[v].en, "on", "the", places[p].en};
        it.partner = {1, 2, 3, 5, 3};
        items.push_back(std::move(it));
    }
    return items;
}

const std::vector<std::string>& training_task_ids() {
    static const std::vector<std::string> ids{"alignment", "positions-pe", "positions-no-pe", "scaling-sqrt-dk", "scaling-none"};
    return ids;
}

json training_task_json(std::string_view id) {
    if (id == "alignment") return alignment_task(d, 0.1f, true, 0.05f);
    // d = 64 and W_q, W_k in ±0.3: unscaled, the scores are 8× larger, the softmax starts peaked (mean
    // largest weight 0.62 against 0.25) and saturates as it trains, its gradient vanishing: the loss stays
    // near 0.17. Divided by √d_k = 8 the same task trains to ~1e-7 in 300 steps.
    if (id == "scaling-sqrt-dk") return alignment_task(d_wide, 0.3f, true, 0.01f);
    if (id == "scaling-none") return alignment_task(d_wide, 0.3f, false, 0.01f);
    if (id == "positions-pe") return positions_task(true);
    if (id == "positions-no-pe") return positions_task(false);
    std::string known;
    for (const std::string& k : training_task_ids()) known += (known.empty() ? "" : ", ") + k;
    throw spec_error("training task \"" + user_text(id) + "\" is unknown: use one of " + known + ".");
}

}  // namespace attn
