// What each head does, measured: TransformerLens's detector scores ("mul"), score = Σ(A ⊙ P) / Σ A over
// the query rows measured (docs/model.md, "Head scores").
#include <algorithm>

#include <cmath>

#include "attn/lm.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_train.hpp"

namespace attn::lm {
namespace {

bool line_break(char32_t c) {
    return c == U'\n' || c == U'，' || c == U'。' || c == U'？' || c == U'！' || c == U'；' || c == U'、';
}

/// Scores of every (layer, head) for one batch: each pattern P row given by key_of(i) (−1: row not measured).
template <class KeyOf>
void accumulate(const std::vector<std::vector<float>>& weights, std::size_t B, std::size_t H, std::size_t T,
                KeyOf key_of, std::vector<double>& hit, std::vector<double>& rows) {
    for (std::size_t l = 0; l < weights.size(); ++l)
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t h = 0; h < H; ++h)
                for (std::size_t i = 0; i < T; ++i) {
                    const int j = key_of(b, i);
                    if (j < 0) continue;
                    hit[l * H + h] += weights[l][((b * H + h) * T + i) * T + static_cast<std::size_t>(j)];
                    rows[l * H + h] += 1.0;  // each row of A sums to 1, so Σ A over the row is 1
                }
}

}  // namespace

std::vector<int> line_alignment_targets(const std::u32string& text) {
    struct line { std::size_t start, length; };
    std::vector<line> lines;
    std::vector<int> line_of(text.size(), -1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (line_break(text[i])) continue;
        if (i == 0 || line_break(text[i - 1])) lines.push_back({i, 0});
        ++lines.back().length;
        line_of[i] = static_cast<int>(lines.size()) - 1;
    }
    std::vector<int> target(text.size(), -1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int L = line_of[i];
        if (L < 1) continue;
        const line& cur = lines[static_cast<std::size_t>(L)];
        const line& prev = lines[static_cast<std::size_t>(L) - 1];
        if (cur.length == prev.length && cur.length >= 4) target[i] = static_cast<int>(prev.start + (i - cur.start));
    }
    return target;
}

void check_heads(const model& m, std::string_view probe) {
    // counted before it is decoded: a probe of 10⁸ characters must not cost 400 MB first
    const std::size_t chars = count_chars(probe, "the probe text");
    const double most = lm_bound_of("probe").hi;
    if (chars < 2) throw spec_error("the head scores need a probe text of at least 2 characters.");
    if (static_cast<double>(chars) > most)
        throw spec_error("the probe text has " + std::to_string(chars) + " characters but the head scores read at most " +
                         std::to_string(static_cast<long long>(most)) + " (16 windows of the largest n_ctx).");
    if (const cost c = heads_cost(m, chars); !within_budget(c))
        check_cost(c, "the head scores", "this model is too large to measure in one call");
}

std::vector<head_score> head_scores(const model& m, std::string_view probe_text) {
    const std::size_t T = static_cast<std::size_t>(m.config.n_ctx), H = static_cast<std::size_t>(m.config.n_head),
                      L = static_cast<std::size_t>(m.config.n_layer);
    const std::string_view text = probe_text.empty() ? std::string_view(m.probe) : probe_text;
    check_heads(m, text);
    const std::u32string probe = decode_utf8(text, "the probe text");
    std::vector<double> prev(L * H), first(L * H), align(L * H), induct(L * H), rows_prev(L * H), rows_first(L * H),
        rows_align(L * H), rows_induct(L * H), heldout(L * H), rows_heldout(L * H);
    std::vector<std::vector<float>> weights;
    std::vector<float> logits;
    // previous-token, first-token and line-alignment on the probe text, in windows of n_ctx (at most 16)
    for (std::size_t start = 0, windows = 0; start + 1 < probe.size() && windows < 16; start += T, ++windows) {
        const std::size_t len = std::min(T, probe.size() - start);
        const std::u32string piece = probe.substr(start, len);
        const std::vector<int> ids = to_ids(m, piece), targets = line_alignment_targets(piece);
        forward_logits(m, ids, 1, static_cast<int>(len), logits, &weights);
        accumulate(weights, 1, H, len, [](std::size_t, std::size_t i) { return i >= 1 ? static_cast<int>(i) - 1 : -1; }, prev, rows_prev);
        accumulate(weights, 1, H, len, [](std::size_t, std::size_t i) { return i >= 1 ? 0 : -1; }, first, rows_first);
        accumulate(weights, 1, H, len, [&](std::size_t, std::size_t i) { return targets[i]; }, align, rows_align);
    }
    // induction: 16 strings of n_ctx/2 random characters (the 300 most frequent: vocabulary entries 1 … 300), each twice
    const std::size_t half = T / 2, alphabet = std::min<std::size_t>(300, m.vocab.size() - 1), B = 16;
    rng r(20240601);
    std::vector<int> ids(B * 2 * half);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < half; ++i)
            ids[b * 2 * half + i] = ids[b * 2 * half + half + i] = 1 + static_cast<int>(r.below(alphabet));
    forward_logits(m, ids, static_cast<int>(B), static_cast<int>(2 * half), logits, &weights);
    accumulate(weights, B, H, 2 * half,
               [&](std::size_t, std::size_t i) { return i >= half ? static_cast<int>(i - half + 1) : -1; }, induct, rows_induct);
    // induction on real text: consecutive passages of n_ctx/2 characters of the probe (held-out corpus text), at
    // most 16, each written twice (a probe shorter than one passage is one passage), P[i][i − len + 1] as above
    const std::size_t len = std::min(half, probe.size()), passages = std::clamp<std::size_t>(probe.size() / std::max<std::size_t>(len, 1), 1, 16);
    std::vector<int> twice(passages * 2 * len);
    for (std::size_t b = 0; b < passages; ++b) {
        const std::vector<int> piece = to_ids(m, probe.substr(b * len, len));
        std::copy(piece.begin(), piece.end(), twice.begin() + static_cast<std::ptrdiff_t>(b * 2 * len));
        std::copy(piece.begin(), piece.end(), twice.begin() + static_cast<std::ptrdiff_t>(b * 2 * len + len));
    }
    forward_logits(m, twice, static_cast<int>(passages), static_cast<int>(2 * len), logits, &weights);
    accumulate(weights, passages, H, 2 * len,
               [&](std::size_t, std::size_t i) { return i >= len ? static_cast<int>(i - len + 1) : -1; }, heldout, rows_heldout);
    std::vector<head_score> out;
    for (std::size_t l = 0; l < L; ++l)
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t k = l * H + h;
            head_score s{static_cast<int>(l), static_cast<int>(h), prev[k] / std::max(1.0, rows_prev[k]),
                         induct[k] / std::max(1.0, rows_induct[k]), first[k] / std::max(1.0, rows_first[k]), std::nullopt};
            if (rows_align[k] > 0) s.line_alignment = align[k] / rows_align[k];
            s.induction_heldout = heldout[k] / std::max(1.0, rows_heldout[k]);
            for (double v : {s.previous_token, s.induction, s.first_token, s.line_alignment.value_or(0.0), s.induction_heldout})
                check_finite(v, "head scores");
            out.push_back(s);
        }
    return out;
}

std::vector<text_head_score> text_head_scores(const model& m, const model_trace& t) {
    const std::size_t H = static_cast<std::size_t>(m.config.n_head), n = t.tokens.ids.size();
    std::u32string text;
    for (const std::string& ch : t.tokens.chars) text += decode_utf8(ch, "the text");
    const std::vector<int> align = line_alignment_targets(text);
    std::vector<text_head_score> out;
    for (int l = 0; l < m.config.n_layer; ++l) {
        const float* w = t.find("weights", l)->data.data();  // (H, n, n)
        for (std::size_t hd = 0; hd < H; ++hd) {
            text_head_score s{l, static_cast<int>(hd), 0, 0, 0, 0, 0, std::nullopt, false};
            double prev_rows = 0, induct_rows = 0, align_hit = 0, align_rows = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const float* a = w + (hd * n + i) * n;
                if (i >= 1) s.previous_token += a[i - 1], s.first_token += a[0], prev_rows += 1;
                s.self += a[i];
                double e = 0;
                for (std::size_t j = 0; j <= i; ++j)
                    if (a[j] > 0) e -= double(a[j]) * std::log2(double(a[j]));
                s.entropy += e;
                // induction on the text: the character after each earlier copy of the current one
                double hit = 0;
                bool any = false;
                for (std::size_t j = 0; j + 1 < i; ++j)
                    if (text[j] == text[i]) hit += a[j + 1], any = true;
                if (any) s.induction += hit, induct_rows += 1;
                if (align[i] >= 0) align_hit += a[align[i]], align_rows += 1;
            }
            s.previous_token /= std::max(1.0, prev_rows);
            s.first_token /= std::max(1.0, prev_rows);
            s.self /= double(n);
            s.entropy /= double(n);
            s.induction_measured = induct_rows > 0;
            s.induction /= std::max(1.0, induct_rows);
            if (align_rows > 0) s.line_alignment = align_hit / align_rows;
            for (double v : {s.previous_token, s.induction, s.first_token, s.self, s.entropy}) check_finite(v, "head scores");
            out.push_back(s);
        }
    }
    return out;
}

json heads_json(const std::vector<head_score>& probe, const std::vector<text_head_score>* text) {
    json out = heads_to_json(probe);
    auto r = [](double v) { return std::round(v * 1e4) / 1e4; };
    for (std::size_t k = 0; k < out.size(); ++k) {
        json& h = out[k];
        json p = {{"previous_token", h["previous_token"]}, {"induction", h["induction"]}, {"induction_heldout", h["induction_heldout"]},
                  {"first_token", h["first_token"]}};
        if (h.contains("line_alignment")) p["line_alignment"] = h["line_alignment"];
        h["probe"] = p;
        if (!text) continue;
        const text_head_score& s = (*text)[k];
        json x = {{"previous_token", r(s.previous_token)}, {"induction", s.induction_measured ? json(r(s.induction)) : json(nullptr)},
                  {"first_token", r(s.first_token)}, {"self", r(s.self)}, {"entropy", r(s.entropy)}};
        if (s.line_alignment) x["line_alignment"] = r(*s.line_alignment);
        h["text"] = x;
    }
    return out;
}

}  // namespace attn::lm
