// What each stage of a model folder's trace is, in the words the page shows: the rows only real architectures
// have (RMS norms, the SwiGLU MLP, GPT-2's tanh GELU), and for every other id the character
// model's or the sequence core's own registry row, so that a stage both share is described once.
#include "attn/hf_calls.hpp"
#include "attn/lm_stages.hpp"
#include "attn/stages.hpp"
#include "attn/text.hpp"

namespace attn::hf {
namespace {

struct own_stage {
    const char* id;
    const char* symbol;
    bilingual title, explanation;
    const char* formula;
};

/// The real architectures' own rows; an id here wins over the other registries (GPT-2's GELU is the tanh form).
const own_stage* own_stage_of(std::string_view id, architecture arch) {
    static const own_stage gelu_tanh = {"mlp_act", "GELU", {"MLP: GELU (tanh form)", "MLP：GELU（tanh 近似）"},
        {"GPT-2's GELU, the tanh approximation: negative values mostly switched off.", "GPT-2 的 GELU（tanh 近似）：负值大多被关掉。"},
        "GELU(z) = ½·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))"};
    static const own_stage rows[] = {
        {"rms_1", "RMS₁", {"RMS norm before attention", "注意力之前的 RMS 归一化"},
         {"Each row divided by its root mean square, then ·w: no centring, no bias.", "每一行除以它的均方根，再 ·w：不减均值，没有偏置。"},
         "RMS(x) = x ÷ √(mean(x²) + ε) · w₁"},
        {"rms_2", "RMS₂", {"RMS norm before the MLP", "MLP 之前的 RMS 归一化"},
         {"The same normalisation with the MLP's own weights.", "同样的归一化，用 MLP 自己的权重。"}, "RMS(x′) = x′ ÷ √(mean(x′²) + ε) · w₂"},
        {"mlp_gate", "g", {"MLP: gate", "MLP：门"}, {"g = RMS₂(x′)·W_gateᵀ.", "g = RMS₂(x′)·W_gateᵀ。"}, "g = RMS₂(x′)·W_gateᵀ"},
        {"mlp_up", "u", {"MLP: up", "MLP：上投影"}, {"u = RMS₂(x′)·W_upᵀ.", "u = RMS₂(x′)·W_upᵀ。"}, "u = RMS₂(x′)·W_upᵀ"},
        {"mlp_act", "silu(g)⊙u", {"MLP: SwiGLU", "MLP：SwiGLU"},
         {"The gate through SiLU (z·σ(z)), times the up projection, element by element.", "门经过 SiLU（z·σ(z)），再与上投影逐元素相乘。"},
         "a = silu(g) ⊙ u, silu(z) = z·σ(z)"},
        {"norm_f", "RMS_f", {"Final RMS norm", "最后的 RMS 归一化"}, {"The last layer's output, normalised once more.", "最后一层的输出，再归一化一次。"},
         "RMS_f(x″) = x″ ÷ √(mean(x″²) + ε) · w_f"},
    };
    if (arch == architecture::gpt2) return id == "mlp_act" ? &gelu_tanh : nullptr;
    for (const own_stage& s : rows)
        if (id == s.id) return &s;
    return nullptr;
}

json bilingual_json(bilingual b) { return {{"en", b.en}, {"zh", b.zh}}; }

}  // namespace

json stage_facts(const std::string& id, architecture arch) {
    if (const own_stage* s = own_stage_of(id, arch))
        return {{"id", s->id}, {"symbol", s->symbol}, {"title", bilingual_json(s->title)}, {"explain", bilingual_json(s->explanation)}, {"formula", s->formula},
                {"scale", color_scale_name(color_scale::signed_values)}};
    if (const lm::model_stage_info* s = lm::model_stage_of(id))
        return {{"id", s->id}, {"symbol", s->symbol}, {"title", bilingual_json(s->title)}, {"explain", bilingual_json(s->explanation)}, {"formula", s->formula},
                {"scale", color_scale_name(s->scale)}};
    const auto seq = stage_from_name(id);
    // the rotation's formula is the same for every spec; the other rows' own is the formula map's term
    const bool rotation = seq && (*seq == stage_id::q_rot || *seq == stage_id::k_rot);
    if (seq && !(rotation && arch == architecture::gpt2)) {  // GPT-2 adds learned positions: nothing is rotated
        const stage_info& s = stage_info_of(*seq);
        return {{"id", s.name}, {"symbol", s.symbol}, {"title", bilingual_json(s.title)}, {"explain", bilingual_json(s.explanation)},
                {"formula", rotation ? stage_formula(*seq, spec{}) : std::string(s.term)}, {"scale", color_scale_name(s.scale)}};
    }
    throw spec_error("\"" + user_text(id) + "\" is not a stage of a " + architecture_name(arch) + " model's trace.");
}

}  // namespace attn::hf
