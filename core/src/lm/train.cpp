// Training data and the trainer: fortune-format corpora with the fixed held-out split, the vocabulary,
// mini-batches of random windows (some replaced by repeated random strings), AdamW (PyTorch's), the
// gradients' global norm clipped, a linear warm-up and a cosine decay.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <thread>

#include "attn/lm_train.hpp"

namespace attn::lm {

corpus_split split_fortunes(std::string_view raw) {
    const std::u32string text = decode_utf8(raw, "the corpus file");
    corpus_split out;
    std::u32string entry, line;
    std::size_t index = 0;
    auto finish_entry = [&] {
        // a blank line after each entry: where one fortune ends and the next begins
        if (!entry.empty()) (index % 10 == 9 ? out.heldout : out.train) += entry + U"\n";
        entry.clear();
        ++index;
    };
    auto finish_line = [&] {
        if (line == U"%") finish_entry();
        else entry += line + U"\n";
        line.clear();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (c == U'\x1b' && i + 1 < text.size() && text[i + 1] == U'[') {  // an ANSI colour code: ESC [ … letter
            std::size_t j = i + 2;
            while (j < text.size() && !((text[j] >= U'A' && text[j] <= U'Z') || (text[j] >= U'a' && text[j] <= U'z'))) ++j;
            i = j;
            continue;
        }
        if (c == U'\r') continue;
        if (c == U'\n') finish_line();
        else line += c;
    }
    if (!line.empty()) finish_line();
    if (!entry.empty()) finish_entry();
    return out;
}

std::vector<std::string> build_vocab(const std::u32string& train, std::size_t max_size) {
    return build_vocab(std::vector<std::u32string>{train}, {1.0}, max_size);
}

std::vector<std::string> build_vocab(const std::vector<std::u32string>& texts, const std::vector<double>& weights,
                                     std::size_t max_size, std::size_t min_count) {
    std::map<char32_t, double> counts;
    std::map<char32_t, std::size_t> seen;
    for (std::size_t k = 0; k < texts.size(); ++k)
        for (char32_t c : texts[k]) counts[c] += weights[k] / static_cast<double>(texts[k].size()), ++seen[c];
    std::vector<std::pair<double, char32_t>> order;
    for (const auto& [c, n] : counts)
        if (seen[c] >= min_count) order.push_back({n, c});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> vocab{"<unk>"};
    for (const auto& [n, c] : order) {
        if (vocab.size() >= max_size) break;
        vocab.push_back(encode_utf8(c));
    }
    return vocab;
}

trainer::trainer(model& m, std::vector<int> train_ids, const train_settings& s)
    : trainer(m, std::vector<std::vector<int>>{std::move(train_ids)}, {1.0}, s) {}

trainer::trainer(model& m, std::vector<std::vector<int>> streams, std::vector<double> weights, const train_settings& s)
    : m_(m), streams_(std::move(streams)), weights_(std::move(weights)), s_(s), rng_(s.seed) {
    check_bound("steps", s.steps);
    check_bound("batch", s.batch);
    check_bound("warmup", s.warmup);
    if (!(s.lr > 0 && s.lr < 1)) throw spec_error("lr must be between 0 and 1.");
    if (!(s.repeat_fraction >= 0 && s.repeat_fraction <= 1)) throw spec_error("repeat_fraction must be from 0 to 1.");
    if (s.repeat_alphabet_min != 0 && (s.repeat_alphabet_min < 2 || s.repeat_alphabet_min > s.repeat_alphabet))
        throw spec_error("repeat_alphabet_min must be 0 or from 2 to repeat_alphabet.");
    if (s.long_repeat_alphabet != 0 && s.long_repeat_alphabet < 2) throw spec_error("long_repeat_alphabet must be 0 or at least 2.");
    if (s.short_steps < 0) throw spec_error("short_steps must be 0 or more.");
    if (s.short_ctx != 0 && (s.short_ctx < 2 || s.short_ctx > m.config.n_ctx)) throw spec_error("short_ctx must be 0 or from 2 to n_ctx.");
    if (!(s.long_repeat_fraction <= 1) || (s.long_repeat_fraction >= 0 && s.long_repeat_fraction + s.repeat_text_fraction > 1))
        throw spec_error("long_repeat_fraction must be from 0 to 1 − repeat_text_fraction (or negative: as repeat_fraction).");
    if (!(s.repeat_text_fraction >= 0 && s.repeat_fraction + s.repeat_text_fraction <= 1))
        throw spec_error("repeat_text_fraction must be from 0 to 1 − repeat_fraction.");
    for (const std::vector<int>& data : streams_)
        if (data.size() < static_cast<std::size_t>(m.config.n_ctx) + 2 && s.repeat_fraction < 1)
            throw spec_error("the training text has fewer characters than one window (n_ctx + 1).");
    // one step must fit one call's budget (a whole CLI run is the build's job, step after step)
    const std::size_t parts = static_cast<std::size_t>(std::clamp(s.parts, 1, s.batch));
    const cost one = train_step_cost(m, static_cast<std::size_t>(s.batch), parts);
    if (!within_budget(one)) {
        const std::size_t most = most_that_fit(static_cast<std::size_t>(s.batch) - 1,
                                               [&](std::size_t b) { return train_step_cost(m, b, std::min(parts, b)); });
        check_cost(one, "a training step of " + std::to_string(s.batch) + (s.batch == 1 ? " window of " : " windows of ") +
                            std::to_string(m.config.n_ctx) + " characters",
                   most ? "give a batch of at most " + std::to_string(most) : "this model is too large to train here");
    }
    steps_per_call_ = static_cast<int>(std::min(static_cast<double>(max_train_steps), std::floor(lm_bound_of("train_work").hi / one.work)));
    grad_.assign(m.weights.size(), 0.0f);
    m1_.assign(m.weights.size(), 0.0f);
    m2_.assign(m.weights.size(), 0.0f);
}

std::size_t trainer::window() const {
    const std::size_t n = static_cast<std::size_t>(m_.config.n_ctx);
    return step_ < s_.short_steps ? (s_.short_ctx > 0 ? static_cast<std::size_t>(s_.short_ctx) : std::max<std::size_t>(n / 2, 2)) : n;
}

void trainer::sample_batch() {
    const std::size_t T = window();
    // after the short steps, the random strings' share and alphabet may change (long_repeat_*)
    const bool later = step_ >= s_.short_steps;
    const double random_share = later && s_.long_repeat_fraction >= 0 ? s_.long_repeat_fraction : s_.repeat_fraction;
    const int drawn_from = later && s_.long_repeat_alphabet > 0 ? s_.long_repeat_alphabet : s_.repeat_alphabet;
    const std::size_t alphabet = std::min<std::size_t>(static_cast<std::size_t>(drawn_from), m_.vocab.size() - 1);
    inputs_.resize(static_cast<std::size_t>(s_.batch) * T);
    targets_.resize(inputs_.size());
    std::vector<int> seq(T + 1);
    for (std::size_t b = 0; b < static_cast<std::size_t>(s_.batch); ++b) {
        if (rng_.uniform() < random_share) {
            // a random string of 4 … n_ctx/2 characters, repeated to fill the window: copying it needs a head that
            // finds the character after the last time the current one appeared (induction). With repeat_alphabet_min,
            // a string of few distinct characters repeats them, so the one after the current character's last copy
            // is often the wrong one: copying it needs the characters before to match too, as copying real text does
            const std::size_t least = std::min<std::size_t>(static_cast<std::size_t>(s_.repeat_alphabet_min), alphabet);
            const std::size_t alpha = least == 0 || least == alphabet ? alphabet : least + rng_.below(alphabet - least + 1);
            const std::size_t len = 4 + rng_.below(std::max<std::size_t>(T / 2, 5) - 3);
            std::vector<int> piece(len);
            for (int& id : piece) id = 1 + static_cast<int>(rng_.below(alpha));
            for (std::size_t t = 0; t <= T; ++t) seq[t] = piece[t % len];
        } else {
            const bool repeat_text = s_.repeat_text_fraction > 0 && rng_.uniform() < s_.repeat_text_fraction / (1 - random_share);
            std::size_t k = 0;  // which text: by the streams' weights
            for (double u = rng_.uniform() * std::accumulate(weights_.begin(), weights_.end(), 0.0); k + 1 < weights_.size() && u >= weights_[k]; ++k)
                u -= weights_[k];
            const std::vector<int>& data = streams_[k];
            const std::size_t start = rng_.below(data.size() - T);
            std::copy(data.begin() + static_cast<std::ptrdiff_t>(start), data.begin() + static_cast<std::ptrdiff_t>(start + T + 1), seq.begin());
            if (repeat_text && T >= 16) {
                // a passage of this window (8 … n_ctx/2 characters from position a) written again from a later
                // position b ≥ a + len, over the text that stood there: "The lazy dog sleeps. The lazy dog sl…"
                const std::size_t len = 8 + rng_.below(T / 2 - 7);
                const std::size_t a = rng_.below(T + 2 - 2 * len);
                const std::size_t b = a + len + rng_.below(T + 2 - 2 * len - a);
                std::copy(seq.begin() + static_cast<std::ptrdiff_t>(a), seq.begin() + static_cast<std::ptrdiff_t>(a + len),
                          seq.begin() + static_cast<std::ptrdiff_t>(b));
            }
        }
        for (std::size_t t = 0; t < T; ++t) {
            inputs_[b * T + t] = seq[t];
            targets_[b * T + t] = seq[t + 1];
        }
    }
}

double trainer::step() {
    sample_batch();
    const std::size_t T = window();
    const double loss = batch_gradient(s_.parts, static_cast<std::size_t>(s_.batch), T, inputs_, targets_,
                                       [&](const std::vector<int>& in, const std::vector<int>& tg, int B, std::vector<float>* g) {
                                           return loss_and_grad(m_, in, tg, B, static_cast<int>(T), g);
                                       },
                                       part_grads_, grad_);
    optimizer_step(m_.weights, grad_, m1_, m2_, m_.table, s_, loss, step_);
    return loss;
}

namespace {

void run_parts(std::size_t parts, const std::function<void(std::size_t)>& run) {
#if defined(__EMSCRIPTEN__)
    for (std::size_t p = 0; p < parts; ++p) run(p);  // one thread in the browser: the same parts, one after another
#else
    std::vector<std::thread> helpers;
    for (std::size_t p = 1; p < parts; ++p) helpers.emplace_back(run, p);
    run(0);
    for (std::thread& t : helpers) t.join();
#endif
}

double learning_rate(const train_settings& s, int step) {
    // warm-up, then a cosine from lr down to lr · min_lr_ratio at the last step; with short steps the cosine starts
    // after them (the copying heads form at the full rate, as in a long run)
    const int flat = std::max(s.warmup, s.short_steps);
    if (step < s.warmup) return s.lr * (step + 1) / s.warmup;
    if (s.steps > flat && step >= flat) {
        const double progress = static_cast<double>(step - flat) / std::max(1, s.steps - flat);
        return s.lr * (s.min_lr_ratio + (1 - s.min_lr_ratio) * 0.5 * (1 + std::cos(3.141592653589793 * std::min(progress, 1.0))));
    }
    return s.lr;
}

}  // namespace

double batch_gradient(int parts_wanted, std::size_t B, std::size_t T, const std::vector<int>& inputs, const std::vector<int>& targets,
                      const part_loss& loss, std::vector<std::vector<float>>& part_grads, std::vector<float>& grad) {
    // the batch in `parts` runs of whole sequences, each its own forward and backward pass; the loss is a
    // mean over the batch, so each part's loss and gradient count by its share of the sequences
    const std::size_t parts = static_cast<std::size_t>(std::clamp(parts_wanted, 1, static_cast<int>(B)));
    part_grads.resize(parts);
    std::vector<double> losses(parts);
    run_parts(parts, [&](std::size_t p) {
        const std::size_t b0 = p * B / parts, b1 = (p + 1) * B / parts;
        const std::vector<int> in(inputs.begin() + static_cast<std::ptrdiff_t>(b0 * T), inputs.begin() + static_cast<std::ptrdiff_t>(b1 * T));
        const std::vector<int> tg(targets.begin() + static_cast<std::ptrdiff_t>(b0 * T), targets.begin() + static_cast<std::ptrdiff_t>(b1 * T));
        losses[p] = loss(in, tg, static_cast<int>(b1 - b0), &part_grads[p]);
    });
    double total = 0.0;
    std::fill(grad.begin(), grad.end(), 0.0f);
    for (std::size_t p = 0; p < parts; ++p) {
        const float share = static_cast<float>((p + 1) * B / parts - p * B / parts) / static_cast<float>(B);
        total += losses[p] * share;
        for (std::size_t i = 0; i < grad.size(); ++i) grad[i] += part_grads[p][i] * share;
    }
    return total;
}

void optimizer_step(std::vector<float>& weights, const std::vector<float>& grad, std::vector<float>& m1, std::vector<float>& m2,
                    const std::vector<param>& table, const train_settings& s, double loss, int& step) {
    double norm2 = 0.0;
    for (float g : grad) norm2 += static_cast<double>(g) * g;
    const double norm = std::sqrt(norm2);
    // refused before the update: the weights stay as they were, never NaN
    check_finite(loss, "training loss");
    check_finite(norm, "gradient");
    const double clip = norm > s.clip ? s.clip / norm : 1.0;
    const double lr = learning_rate(s, step);
    ++step;
    const double c1 = 1 - std::pow(s.beta1, step), c2 = 1 - std::pow(s.beta2, step);
    for (const param& p : table) {
        const double decay = p.decay ? s.weight_decay : 0.0;
        for (std::size_t i = p.offset; i < p.offset + p.size; ++i) {
            const double g = grad[i] * clip;
            m1[i] = static_cast<float>(s.beta1 * m1[i] + (1 - s.beta1) * g);
            m2[i] = static_cast<float>(s.beta2 * m2[i] + (1 - s.beta2) * g * g);
            double w = weights[i] * (1 - lr * decay);  // AdamW: decay apart from the gradient
            w -= lr * (m1[i] / c1) / (std::sqrt(m2[i] / c2) + s.eps);
            weights[i] = static_cast<float>(w);
        }
    }
}

}  // namespace attn::lm
