// Titles, formulas and explanations of every stage. The explanations follow the two
// source articles (seeds 000 and 002) and say why each step is there, not only what it does.
#include "attn/stages.hpp"

namespace attn {
namespace {

struct stage_text {
    stage_id id;
    const char* name;
    bilingual title;
    bilingual explanation;
};

// One row per stage, in trace order; the names are DESIGN.md's ids.
const stage_text texts[] = {
    {stage_id::pe, "pe", {"Positional encoding", "位置编码"},
     {"Attention by itself ignores order: shuffle the tokens and every score stays the same. So a position "
      "signal is added to each input row: sines and cosines of different frequencies (Transformer), or a learned table.",
      "Attention 本身与位置无关：打乱 token 顺序，每个分数都不变。因此要给每个输入行加上位置信号："
      "不同频率的正弦和余弦（Transformer 的做法），或一张可学习的位置表。"}},
    {stage_id::x, "x", {"Inputs X", "输入 X"},
     {"One row per token: the vectors the query side is made of (after the positional encoding, if any). "
      "In self-attention, queries, keys and values all come from these rows.",
      "每个 token 一行：查询一侧的输入向量（若有位置编码，则已加上）。自注意力中，Q、K、V 都来自这些行。"}},
    {stage_id::memory, "memory", {"Source sequence (memory)", "源序列（memory）"},
     {"Cross-attention: keys and values come from another sequence, e.g. the encoder's states of the source "
      "sentence in machine translation, while queries come from the target side.",
      "交叉注意力：Key 和 Value 来自另一个序列（例如机器翻译中源句子的编码器状态），Query 来自目标一侧。"}},
    {stage_id::q, "q", {"Queries Q", "查询 Q"},
     {"Q = X·W_q: what each position is looking for (\"what do I need?\"). Split into heads, each head gets its own "
      "slice of the columns.",
      "Q = X·W_q：每个位置想找什么（“我需要什么？”）。多头时按列切分，每个头得到自己的一段。"}},
    {stage_id::k, "k", {"Keys K", "键 K"},
     {"K = X·W_k: what each position offers to be matched against (\"what am I?\"), like the titles and tags of "
      "web pages in a search engine.",
      "K = X·W_k：每个位置可供匹配的内容（“我是什么？”），好比搜索引擎里网页的标题和标签。"}},
    {stage_id::v, "v", {"Values V", "值 V"},
     {"V = X·W_v: the content each position hands over when it is matched (\"what do I have?\"), like the body "
      "of a web page.",
      "V = X·W_v：匹配上之后每个位置提供的内容（“我有什么？”），好比网页正文。"}},
    {stage_id::scores, "scores", {"Similarity scores", "相似度分数"},
     {"Step 1: how well query i matches key j. Every query meets every key directly, however far apart, which "
      "is why attention handles long-range dependencies, and why it costs O(n²).",
      "第 1 步：查询 i 与键 j 的匹配程度。每个查询都直接与每个键相遇，无论相隔多远：这就是注意力能处理长距离依赖的原因，"
      "也是 O(n²) 代价的来源。"}},
    {stage_id::scaled, "scaled", {"Scaled by √d_k", "除以 √d_k 缩放"},
     {"Dot products grow with the vector width d_k; large scores push softmax towards one-hot, where gradients "
      "vanish. Dividing by √d_k brings them back to a gentle range.",
      "点积随向量维度 d_k 增大而变大；分数过大时 softmax 趋向 one-hot 分布，梯度很小，不利于训练。除以 √d_k "
      "把数值拉回平缓区间。"}},
    {stage_id::masked, "masked", {"Masked", "掩码"},
     {"Positions a query must not see (the future in a decoder, padding, outside a context window) get a huge "
      "negative score, −1e9 in seed 000's code, so softmax gives them weight 0.",
      "查询不应看到的位置（解码器中的未来位置、padding、上下文窗口之外）被写入一个极大的负数（文中代码为 −1e9），"
      "softmax 之后它们的权重为 0。"}},
    {stage_id::row_max, "row_max", {"Row maximum", "行最大值"},
     {"Numerically stable softmax, first sub-step: subtract each row's maximum so no exponential overflows. "
      "The result is unchanged, since softmax ignores a constant shift.",
      "数值稳定的 softmax 第一步：每行减去最大值，避免指数溢出。softmax 对整行平移不变，结果不受影响。"}},
    {stage_id::exp, "exp", {"Exponentials", "指数"},
     {"exp(e_ij − max): every score becomes positive; the largest becomes 1, masked ones become 0.",
      "exp(e_ij − max)：每个分数变为正数；最大者变为 1，被掩码的变为 0。"}},
    {stage_id::row_sum, "row_sum", {"Row sum", "行求和"},
     {"The sum of each row of exponentials: the normaliser of softmax.", "每行指数之和：softmax 的归一化分母。"}},
    {stage_id::weights, "weights", {"Attention weights α", "注意力权重 α"},
     {"Step 2: softmax turns scores into a probability distribution: each row sums to 1. This decides whom the "
      "model attends to and whom it ignores, and it is what attention heatmaps show.",
      "第 2 步：softmax 把分数变成概率分布，每一行之和为 1。它决定模型“关注谁、忽略谁”，也是注意力可解释性的来源。"}},
    {stage_id::context, "context", {"Weighted sum (context)", "加权求和（上下文向量）"},
     {"Step 3: c_i = Σ_j α_ij v_j. Each output row is a mix of the value rows, weighted by relevance: "
      "\"weight information by relevance and sum it up\".",
      "第 3 步：c_i = Σ_j α_ij v_j。每个输出行是各 Value 行按相关性加权的混合：按相关性加权汇总信息。"}},
    {stage_id::concat, "concat", {"Heads merged (concat)", "合并多头（concat）"},
     {"The heads' contexts placed side by side again, back to d_model columns. With several heads, each head can "
      "capture a different relation.",
      "各头的上下文向量重新并排拼接，回到 d_model 列。多个头可以各自捕获不同的关系。"}},
    {stage_id::output, "output", {"Output projection", "输出投影"},
     {"output = concat·W_o + b_o mixes what the heads found into one representation per position.",
      "output = concat·W_o + b_o，把各头的发现融合为每个位置的一个表示。"}},
};

const stage_text& text_of(stage_id id) {
    for (const stage_text& t : texts)
        if (t.id == id) return t;
    return texts[0];  // unreachable: every enumerator has a row
}

}  // namespace

const char* stage_name(stage_id id) { return text_of(id).name; }

std::optional<stage_id> stage_from_name(std::string_view name) {
    for (const stage_text& t : texts)
        if (name == t.name) return t.id;
    return std::nullopt;
}

bilingual stage_title(stage_id id) { return text_of(id).title; }

bilingual stage_explanation(stage_id id) { return text_of(id).explanation; }

std::string stage_formula(stage_id id, const spec& s) {
    switch (id) {
        case stage_id::pe:
            return s.positional == positional_kind::learned
                       ? "PE = table[pos]"
                       : "PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))";
        case stage_id::x: return s.positional == positional_kind::none ? "X" : "X + PE";
        case stage_id::memory: return s.positional == positional_kind::none ? "M" : "M + PE";
        case stage_id::q: return s.wq.w ? (s.wq.b ? "Q = X·W_q + b_q" : "Q = X·W_q") : (s.wq.b ? "Q = X + b_q" : "Q = X");
        case stage_id::k: {
            const std::string in = s.memory ? "M" : "X";
            return "K = " + in + (s.wk.w ? "·W_k" : "") + (s.wk.b ? " + b_k" : "");
        }
        case stage_id::v: {
            const std::string in = s.memory ? "M" : "X";
            return "V = " + in + (s.wv.w ? "·W_v" : "") + (s.wv.b ? " + b_v" : "");
        }
        case stage_id::scores:
            switch (s.score) {
                case score_kind::additive: return "e_ij = tanh(q_i·W1 + k_j·W2)·v";
                case score_kind::bilinear: return "e_ij = q_i·W·k_jᵀ";
                case score_kind::dot:
                case score_kind::scaled_dot: break;
            }
            return "e_ij = q_i·k_jᵀ";
        case stage_id::scaled: return "e_ij / √d_k";
        case stage_id::masked: return "e_ij = mask_value where mask_ij = 0";
        case stage_id::row_max: return "m_i = max_j e_ij";
        case stage_id::exp: return "exp(e_ij − m_i)";
        case stage_id::row_sum: return "s_i = Σ_j exp(e_ij − m_i)";
        case stage_id::weights: return "α_ij = exp(e_ij − m_i) / s_i";
        case stage_id::context: return "c_i = Σ_j α_ij v_j";
        case stage_id::concat: return "concat(head_1, …, head_h)";
        case stage_id::output: return s.wo.b ? "output = concat·W_o + b_o" : "output = concat·W_o";
    }
    return "";
}

}  // namespace attn
