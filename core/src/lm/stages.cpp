// The language model's own stages (docs/model.md), beside the sequence registry whose attention stages
// (q … output) every layer reuses: their ids, symbols, titles and explanations in English and Chinese,
// and the arithmetic of one cell as the page's captions say it.
#include <cmath>
#include <cstdio>

#include "attn/explain.hpp"
#include "attn/format.hpp"
#include "attn/lm_stages.hpp"
#include "attn/text.hpp"
#include "attn/trace.hpp"

namespace attn::lm {

const std::vector<model_stage_info>& model_stage_registry() {
    using a = axis_kind;
    constexpr color_scale signed_values = color_scale::signed_values;
    constexpr layer_ref global = layer_ref::global, same = layer_ref::same, previous = layer_ref::previous;
    // id, symbol, per layer, title, explanation, formula, rows, cols, scale, in the block strip, operands, and where
    // they are not false: needs an MLP, per head
    static const std::vector<model_stage_info> registry = {
        {"embed", "E", false, {"Character embeddings", "字符嵌入"},
         {"Each character's row of wte: the vector the model learned for it.", "每个字符在 wte 中的那一行：模型为它学到的向量。"},
         "E_i = wte[t_i]", a::query, a::feature, signed_values, false, {}},
        {"pe", "PE", false, {"Positions", "位置编码"},
         {"The position's row (learned wpe, or seed 000's sinusoids), added so attention can tell order.",
          "位置的那一行（学到的 wpe，或 seed 000 的正弦编码），加上去，注意力才分得清先后。"},
         "PE_i = wpe[i], or PE(i, 2k) = sin(i / 10000^(2k/d)), PE(i, 2k+1) = cos(i / 10000^(2k/d))", a::query, a::feature,
         signed_values, false, {}},
        {"x", "x", false, {"Input to layer 1", "第 1 层的输入"}, {"x = embedding + position.", "x = 嵌入 + 位置。"},
         "x = E + PE", a::query, a::feature, signed_values, false, {{"embed", global}, {"pe", global}}},
        {"ln_1", "LN₁", true, {"LayerNorm before attention", "注意力之前的 LayerNorm"},
         {"Each row centred and scaled to unit variance, then ·γ + β: attention reads this.",
          "每一行减去均值、除以标准差，再 ·γ + β：注意力读的是它。"},
         "LN₁(x) = (x − μ) ÷ √(σ² + ε) · γ₁ + β₁", a::query, a::feature, signed_values, true, {{"resid_post", previous}}},
        // here each layer's attention stages, q … output (model_stage_order)
        {"resid_mid", "x′", true, {"Residual after attention", "注意力后的残差"},
         {"x′ = x + attention(LN₁(x)): attention adds to the stream, it does not replace it.",
          "x′ = x + attention(LN₁(x))：注意力是往残差流里加东西，而不是替换它。"},
         "x′ = x + attention(LN₁(x))", a::query, a::feature, signed_values, true, {{"resid_post", previous}, {"output", same}}},
        {"ln_2", "LN₂", true, {"LayerNorm before the MLP", "MLP 之前的 LayerNorm"},
         {"The same normalisation with the MLP's own γ and β.", "同样的归一化，用 MLP 自己的 γ 和 β。"},
         "LN₂(x′) = (x′ − μ) ÷ √(σ² + ε) · γ₂ + β₂", a::query, a::feature, signed_values, true, {{"resid_mid", same}}, true},
        {"mlp_pre", "z", true, {"MLP: first layer", "MLP：第一层"}, {"z = LN₂(x′)·W₁ + b₁.", "z = LN₂(x′)·W₁ + b₁。"},
         "z = LN₂(x′)·W₁ + b₁", a::query, a::hidden, signed_values, true, {{"ln_2", same}}, true},
        {"mlp_act", "GELU", true, {"MLP: GELU", "MLP：GELU 激活"},
         {"GELU(z) = ½·z·(1 + erf(z/√2)): negative values mostly switched off.", "GELU(z) = ½·z·(1 + erf(z/√2))：负值大多被关掉。"},
         "GELU(z) = ½·z·(1 + erf(z/√2))", a::query, a::hidden, signed_values, true, {{"mlp_pre", same}}, true},
        {"mlp_out", "m", true, {"MLP: second layer", "MLP：第二层"}, {"m = GELU(z)·W₂ + b₂.", "m = GELU(z)·W₂ + b₂。"},
         "m = GELU(z)·W₂ + b₂", a::query, a::feature, signed_values, true, {{"mlp_act", same}}, true},
        {"resid_post", "x″", true, {"Residual after the MLP", "MLP 后的残差"},
         {"x″ = x′ + m: the next layer's input.", "x″ = x′ + m：下一层的输入。"},
         "x″ = x′ + m (x′ itself without an MLP)", a::query, a::feature, signed_values, true, {{"resid_mid", same}, {"mlp_out", same}}},
        {"ln_f", "LN_f", false, {"Final LayerNorm", "最后的 LayerNorm"},
         {"The last layer's output, normalised once more.", "最后一层的输出，再归一化一次。"},
         "LN_f(x″) = (x″ − μ) ÷ √(σ² + ε) · γ_f + β_f", a::query, a::feature, signed_values, false, {{"resid_post", layer_ref::last}}},
        {"logits", "z", false, {"Logits", "logits（未归一化分数）"},
         {"Each row · every character's embedding (wteᵀ, tied): how well the next character fits.",
          "每一行与每个字符的嵌入做点积（wteᵀ，与输入共享）：下一个字符有多合适。"},
         "z = LN_f(x″)·wteᵀ", a::query, a::vocab, signed_values, false, {{"ln_f", global}}},
        {"probs", "p", false, {"Next-character probabilities", "下一个字符的概率"},
         {"softmax of each row of logits.", "对每一行 logits 做 softmax。"},
         "p = softmax(z)", a::query, a::vocab, color_scale::probability, false, {{"logits", global}}},
        // only a generation step has it, computed from the layer's earlier keys and values
        {"kv_cache", "K, V", true, {"Key/value cache", "键值缓存"},
         {"While generating, each layer keeps the keys and values of the characters already seen: a new character "
          "costs one row of attention, not the whole square again.",
          "生成时，每一层保留已见字符的 Key 和 Value：新字符只需算一行注意力，而不必重算整个方阵。"},
         "cache = [K; V] of characters 1 … n: 2 × heads × n × d_h", a::key, a::head_feature, signed_values, false, {}, false, true},
    };
    return registry;
}

const model_stage_info* model_stage_of(std::string_view id) {
    for (const model_stage_info& s : model_stage_registry())
        if (id == s.id) return &s;
    return nullptr;
}

/// Which sequence stages a layer has and what each is computed from come from the sequence core itself, on a
/// layer spec of a tiny model, so they cannot drift from what a model trace holds.
const spec& layer_attention_shape() {
    static const spec s = [] {
        config c;
        c.n_layer = 1, c.n_head = 1, c.d_model = 4, c.d_mlp = 0, c.n_ctx = 4;
        const model m = make_model(c, {"<unk>", "a"}, 0);
        const std::vector<float> rows(4, 0.5f);
        return layer_spec(m, 0, rows.data(), 1);
    }();
    return s;
}

namespace {

/// True for the stages only a model with an MLP has.
bool mlp_only(std::string_view id) {
    const model_stage_info* own = model_stage_of(id);
    return own && own->needs_mlp;
}

}  // namespace

const std::vector<model_stage_row>& model_stage_order() {
    static const std::vector<model_stage_row> order = [] {
        std::vector<model_stage_row> rows;
        for (const model_stage_info& own : model_stage_registry()) {
            rows.push_back({&own, std::nullopt});
            if (std::string_view(own.id) != "ln_1") continue;
            for (const stage_view& v : compute_trace(layer_attention_shape()).stages())  // the layer's attention reads ln_1
                if (v.id != stage_id::x) rows.push_back({nullptr, v.id});
        }
        return rows;
    }();
    return order;
}

std::vector<std::pair<std::string, std::optional<int>>> model_stage_operands(std::string_view id, std::optional<int> layer,
                                                                             const config& c) {
    std::vector<std::pair<std::string, std::optional<int>>> out;
    if (const model_stage_info* own = model_stage_of(id)) {
        for (const model_operand& op : own->operands) {
            if (c.d_mlp == 0 && mlp_only(op.id)) continue;  // attention-only: resid_post is resid_mid itself
            switch (op.layer) {
                case layer_ref::global: out.emplace_back(op.id, std::nullopt); break;
                case layer_ref::same: out.emplace_back(op.id, layer); break;
                case layer_ref::previous:  // the residual stream before this layer
                    if (layer.value_or(0) == 0) out.emplace_back("x", std::nullopt);
                    else out.emplace_back(op.id, *layer - 1);
                    break;
                case layer_ref::last: out.emplace_back(op.id, c.n_layer - 1); break;
            }
        }
    } else if (const auto seq = stage_from_name(id)) {  // a layer's attention stage: the sequence core's operands
        for (const stage_id from : stage_operands(*seq, layer_attention_shape()))
            out.emplace_back(from == stage_id::x ? "ln_1" : stage_name(from), layer);
    }
    return out;
}

namespace {

std::string num(double v) { return format_cell(static_cast<float>(v)); }

/// A character as a caption shows it: a space and a newline made visible.
std::string shown(const std::string& ch) { return ch == " " ? "␣" : ch == "\n" ? "⏎" : ch == "\t" ? "⇥" : ch; }

const float* row(const stage& s, std::size_t i) { return s.data.data() + i * s.shape.back(); }

}  // namespace

attn::trace attention_trace_of(const model& m, const model_trace& t, int layer) {
    const stage* ln = t.find("ln_1", layer);
    if (!ln) throw spec_error("this trace has no layer " + std::to_string(layer + 1) + ".");
    spec ls = layer_spec(m, layer, ln->data.data(), ln->shape[0]);
    for (const std::string& ch : t.tokens.chars) ls.query_tokens.push_back(shown(ch));  // captions in the text's characters
    return compute_trace(ls);
}

std::string explain_model_cell(const model& m, const model_trace& t, std::string_view id, std::optional<int> layer,
                               std::size_t i, std::size_t j, std::size_t head, const attn::trace* attention) {
    if (const auto seq = stage_from_name(id); seq && layer && *seq != stage_id::x) {  // a layer's attention stage
        if (head >= static_cast<std::size_t>(m.config.n_head)) throw spec_error("head " + std::to_string(head + 1) + " is not a head of this model.");
        if (attention) return explain_cell(*attention, *seq, head, i, j, false);
        return explain_cell(attention_trace_of(m, t, *layer), *seq, head, i, j, false);
    }
    const stage* s = t.find(id, layer);
    if (!s) throw spec_error("this trace has no stage \"" + user_text(id) + "\"" + (layer ? " in layer " + std::to_string(*layer + 1) : "") + ".");
    if (s->shape.size() != 2 || i >= s->shape[0] || j >= s->shape[1])
        throw spec_error("stage " + std::string(id) + " has no cell (" + std::to_string(i) + ", " + std::to_string(j) + ").");
    const std::string ch = shown(t.tokens.chars[i]);
    const float value = row(*s, i)[j];
    const std::size_t d = static_cast<std::size_t>(m.config.d_model);
    const model_stage_info& own = *model_stage_of(id);  // t.find found it: an own stage (attention ones are above)
    // what the registry says this stage is computed from, as stages of this trace (absent ones null)
    std::vector<const stage*> in;
    for (const auto& [from, at] : model_stage_operands(id, layer, m.config)) in.push_back(t.find(from, at));
    const std::string cell = std::string(own.symbol) + "[" + ch + ", d" + std::to_string(j + 1) + "] = ";
    if (id == "ln_1" || id == "ln_2" || id == "ln_f") {  // γ and β are the parameters named after the stage
        const std::string gamma = std::string(id) + ".weight", beta = std::string(id) + ".bias";
        const float* w = layer ? m.tensor(*layer, gamma) : m.tensor(gamma);
        const float* b = layer ? m.tensor(*layer, beta) : m.tensor(beta);
        const float* x = row(*in[0], i);
        const auto [mu, var] = moments(x, d);
        return cell + "(" + num(x[j]) + " − μ " + num(mu) + ") ÷ √(σ² " + num(var) + " + ε) · γ " + num(w[j]) + " + β " + num(b[j]) +
               " = " + num(value);
    }
    if (id == "mlp_act") {
        const float z = row(*in[0], i)[j];
        return "GELU(z[" + ch + ", " + std::to_string(j + 1) + "]) = ½ · " + num(z) + " · (1 + erf(" + num(z) + " ÷ √2)) = " + num(value);
    }
    if (id == "logits" || id == "probs") {
        const std::string target = shown(m.vocab[j]);
        if (id == "probs") return "p[" + ch + " → " + target + "] = exp(z " + num(row(*in[0], i)[j]) + " − max) ÷ Σ = " + num(value);
        const float* f = row(*in[0], i);
        const float* e = m.tensor("wte") + j * d;
        std::string terms;
        for (std::size_t k = 0; k < std::min<std::size_t>(d, 3); ++k) terms += (k ? " + " : "") + num(f[k]) + "·" + num(e[k]);
        return "z[" + ch + " → " + target + "] = LN_f(x)_" + ch + " · wte_" + target + " = " + terms + " + … (" + std::to_string(d) +
               " terms) = " + num(value);
    }
    if (id == "resid_mid" || id == "resid_post" || id == "x") {  // sums of their operands
        if (in.size() == 1) return cell + "x′ = " + num(value) + " (attention-only: no MLP)";
        const char* first = id == "x" ? "E " : "";
        const char* second = id == "x" ? " + PE " : " + ";
        return cell + first + num(row(*in[0], i)[j]) + second + num(row(*in[1], i)[j]) + " = " + num(value);
    }
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
