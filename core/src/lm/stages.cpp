// The language model's own stages (docs/model.md), beside the sequence registry whose attention stages
// (q … output) every layer reuses: their ids, symbols, titles and explanations in English and Chinese,
// and the arithmetic of one cell as the page's captions say it.
#include <cmath>
#include <cstdio>

#include "attn/explain.hpp"
#include "attn/format.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"

namespace attn::lm {

const std::vector<model_stage_info>& model_stage_registry() {
    static const std::vector<model_stage_info> registry = {
        {"embed", "E", false, {"Character embeddings", "字符嵌入"},
         {"Each character's row of wte: the vector the model learned for it.", "每个字符在 wte 中的那一行：模型为它学到的向量。"}},
        {"pe", "PE", false, {"Positions", "位置编码"},
         {"The position's row (learned wpe, or seed 000's sinusoids), added so attention can tell order.",
          "位置的那一行（学到的 wpe，或 seed 000 的正弦编码），加上去，注意力才分得清先后。"}},
        {"x", "x", false, {"Input to layer 1", "第 1 层的输入"}, {"x = embedding + position.", "x = 嵌入 + 位置。"}},
        {"ln_1", "LN₁", true, {"LayerNorm before attention", "注意力之前的 LayerNorm"},
         {"Each row centred and scaled to unit variance, then ·γ + β: attention reads this.",
          "每一行减去均值、除以标准差，再 ·γ + β：注意力读的是它。"}},
        {"resid_mid", "x′", true, {"Residual after attention", "注意力后的残差"},
         {"x′ = x + attention(LN₁(x)): attention adds to the stream, it does not replace it.",
          "x′ = x + attention(LN₁(x))：注意力是往残差流里加东西，而不是替换它。"}},
        {"ln_2", "LN₂", true, {"LayerNorm before the MLP", "MLP 之前的 LayerNorm"},
         {"The same normalisation with the MLP's own γ and β.", "同样的归一化，用 MLP 自己的 γ 和 β。"}},
        {"mlp_pre", "z", true, {"MLP: first layer", "MLP：第一层"}, {"z = LN₂(x′)·W₁ + b₁.", "z = LN₂(x′)·W₁ + b₁。"}},
        {"mlp_act", "GELU", true, {"MLP: GELU", "MLP：GELU 激活"},
         {"GELU(z) = ½·z·(1 + erf(z/√2)): negative values mostly switched off.", "GELU(z) = ½·z·(1 + erf(z/√2))：负值大多被关掉。"}},
        {"mlp_out", "m", true, {"MLP: second layer", "MLP：第二层"}, {"m = GELU(z)·W₂ + b₂.", "m = GELU(z)·W₂ + b₂。"}},
        {"resid_post", "x″", true, {"Residual after the MLP", "MLP 后的残差"},
         {"x″ = x′ + m: the next layer's input.", "x″ = x′ + m：下一层的输入。"}},
        {"ln_f", "LN_f", false, {"Final LayerNorm", "最后的 LayerNorm"},
         {"The last layer's output, normalised once more.", "最后一层的输出，再归一化一次。"}},
        {"logits", "z", false, {"Logits", "logits（未归一化分数）"},
         {"Each row · every character's embedding (wteᵀ, tied): how well the next character fits.",
          "每一行与每个字符的嵌入做点积（wteᵀ，与输入共享）：下一个字符有多合适。"}},
        {"probs", "p", false, {"Next-character probabilities", "下一个字符的概率"},
         {"softmax of each row of logits.", "对每一行 logits 做 softmax。"}},
    };
    return registry;
}

const model_stage_info* model_stage_of(std::string_view id) {
    for (const model_stage_info& s : model_stage_registry())
        if (id == s.id) return &s;
    return nullptr;
}

namespace {

std::string num(double v) { return format_cell(static_cast<float>(v)); }

/// A character as a caption shows it: a space and a newline made visible.
std::string shown(const std::string& ch) { return ch == " " ? "␣" : ch == "\n" ? "⏎" : ch == "\t" ? "⇥" : ch; }

const float* row(const stage& s, std::size_t i) { return s.data.data() + i * s.shape.back(); }

}  // namespace

std::string explain_model_cell(const model& m, const model_trace& t, std::string_view id, std::optional<int> layer,
                               std::size_t i, std::size_t j, std::size_t head) {
    if (const auto seq = stage_from_name(id); seq && layer && *seq != stage_id::x) {  // a layer's attention stage
        const stage* ln = t.find("ln_1", layer);
        if (!ln) throw spec_error("this trace has no layer " + std::to_string(*layer + 1) + ".");
        spec ls = layer_spec(m, *layer, ln->data.data(), ln->shape[0]);
        for (const std::string& ch : t.tokens.chars) ls.query_tokens.push_back(shown(ch));  // captions in the text's characters
        const attn::trace at = compute_trace(ls);
        if (head >= static_cast<std::size_t>(m.config.n_head)) throw spec_error("head " + std::to_string(head + 1) + " is not a head of this model.");
        return explain_cell(at, *seq, head, i, j, false);
    }
    const stage* s = t.find(id, layer);
    if (!s) throw spec_error("this trace has no stage \"" + user_text(id) + "\"" + (layer ? " in layer " + std::to_string(*layer + 1) : "") + ".");
    if (s->shape.size() != 2 || i >= s->shape[0] || j >= s->shape[1])
        throw spec_error("stage " + std::string(id) + " has no cell (" + std::to_string(i) + ", " + std::to_string(j) + ").");
    const std::string ch = shown(t.tokens.chars[i]);
    const float value = row(*s, i)[j];
    const std::size_t d = static_cast<std::size_t>(m.config.d_model);
    auto layernorm = [&](const stage& in, const char* sym, const float* w, const float* b) {
        const float* x = row(in, i);
        const auto [mu, var] = moments(x, d);
        return std::string(sym) + "[" + ch + ", d" + std::to_string(j + 1) + "] = (" + num(x[j]) + " − μ " + num(mu) + ") ÷ √(σ² " +
               num(var) + " + ε) · γ " + num(w[j]) + " + β " + num(b[j]) + " = " + num(value);
    };
    if (id == "ln_1") return layernorm(*t.find(*layer == 0 ? "x" : "resid_post", *layer == 0 ? std::nullopt : std::optional<int>(*layer - 1)),
                                       "LN₁", m.tensor(*layer, "ln_1.weight"), m.tensor(*layer, "ln_1.bias"));
    if (id == "ln_2") return layernorm(*t.find("resid_mid", layer), "LN₂", m.tensor(*layer, "ln_2.weight"), m.tensor(*layer, "ln_2.bias"));
    if (id == "ln_f")
        return layernorm(*t.find("resid_post", m.config.n_layer - 1), "LN_f", m.tensor("ln_f.weight"), m.tensor("ln_f.bias"));
    if (id == "mlp_act") {
        const float z = row(*t.find("mlp_pre", layer), i)[j];
        return "GELU(z[" + ch + ", " + std::to_string(j + 1) + "]) = ½ · " + num(z) + " · (1 + erf(" + num(z) + " ÷ √2)) = " + num(value);
    }
    if (id == "logits" || id == "probs") {
        const std::string target = shown(m.vocab[j]);
        if (id == "probs")
            return "p[" + ch + " → " + target + "] = exp(z " + num(row(*t.find("logits", std::nullopt), i)[j]) + " − max) ÷ Σ = " + num(value);
        const float* f = row(*t.find("ln_f", std::nullopt), i);
        const float* e = m.tensor("wte") + j * d;
        std::string terms;
        for (std::size_t k = 0; k < std::min<std::size_t>(d, 3); ++k) terms += (k ? " + " : "") + num(f[k]) + "·" + num(e[k]);
        return "z[" + ch + " → " + target + "] = LN_f(x)_" + ch + " · wte_" + target + " = " + terms + " + … (" + std::to_string(d) +
               " terms) = " + num(value);
    }
    if (id == "resid_mid" || id == "resid_post") {
        const stage* before = id == "resid_mid"
            ? (*layer == 0 ? t.find("x", std::nullopt) : t.find("resid_post", *layer - 1))
            : t.find("resid_mid", layer);
        const stage* added = id == "resid_mid" ? t.find("output", layer) : t.find("mlp_out", layer);
        if (!added) return "x″[" + ch + ", d" + std::to_string(j + 1) + "] = x′ = " + num(value) + " (attention-only: no MLP)";
        return std::string(id == "resid_mid" ? "x′" : "x″") + "[" + ch + ", d" + std::to_string(j + 1) + "] = " + num(row(*before, i)[j]) +
               " + " + num(row(*added, i)[j]) + " = " + num(value);
    }
    if (id == "x")
        return "x[" + ch + ", d" + std::to_string(j + 1) + "] = E " + num(row(*t.find("embed", std::nullopt), i)[j]) + " + PE " +
               num(row(*t.find("pe", std::nullopt), i)[j]) + " = " + num(value);
    return std::string(id) + "[" + ch + ", " + std::to_string(j + 1) + "] = " + num(value);
}

row_moments moments(const float* x, std::size_t d) {
    double mean = 0, var = 0;
    for (std::size_t k = 0; k < d; ++k) mean += x[k];
    mean /= static_cast<double>(d);
    for (std::size_t k = 0; k < d; ++k) var += (x[k] - mean) * (x[k] - mean);
    return {mean, var / static_cast<double>(d)};
}

}  // namespace attn::lm
