// The stage registry: symbols, titles, explanations, axes, formulas and operands of every stage.
// The explanations follow the two source articles (docs/sources.md: seeds 000 and 002) and say
// why each step is there, not only what it does.
//
// [SECTION] the registry's rows
// [SECTION] lookups by id and name
// [SECTION] formulas, terms and operands for a spec
// [SECTION] colour scales and axes
#include "attn/stages.hpp"

#include <algorithm>

#include "attn/online_softmax.hpp"

namespace attn {
// [SECTION] the registry's rows

namespace {

// One row per stage, in trace order: id, name, symbol, title, explanation, per head, row and column
// axes, formula-map term and group, colour scale.
const std::array<stage_info, 23> registry{{
    {stage_id::pe, "pe", "PE", {"Positional encoding", "位置编码"},
     {"Attention by itself ignores order: shuffle the tokens and every score stays the same. So a position "
      "signal is added to each input row: sines and cosines of different frequencies (Transformer), or a learned table.",
      "注意力本身与位置无关：打乱 token 顺序，每个分数都不变。因此要给每个输入行加上位置信号："
      "不同频率的正弦和余弦（Transformer 的做法），或一张可学习的位置表。"},
     false, axis_kind::position, axis_kind::feature, "PE +", "", color_scale::signed_values},
    {stage_id::x, "x", "X", {"Inputs X", "输入 X"},
     {"One row per token: the vectors the query side is made of (after the positional encoding, if any). "
      "In self-attention, queries, keys and values all come from these rows.",
      "每个 token 一行：查询一侧的输入向量（若有位置编码，则已加上）。自注意力中，Q、K、V 都来自这些行。"},
     false, axis_kind::query, axis_kind::feature, "X", "", color_scale::signed_values},
    {stage_id::memory, "memory", "M", {"Source sequence (memory)", "源序列（memory）"},
     {"Cross-attention: keys and values come from another sequence, e.g. the encoder's states of the source "
      "sentence in machine translation, while queries come from the target side.",
      "交叉注意力：Key 和 Value 来自另一个序列（例如机器翻译中源句子的编码器状态），Query 来自目标一侧。"},
     false, axis_kind::key, axis_kind::feature, "M", "", color_scale::signed_values},
    {stage_id::q, "q", "Q", {"Queries Q", "查询 Q"},
     {"Q = X·W_q: what each position is looking for (\"what do I need?\"). Split into heads, each head gets its own "
      "slice of the columns.",
      "Q = X·W_q：每个位置想找什么（“我需要什么？”）。多头时按列切分，每个头得到自己的一段。"},
     true, axis_kind::query, axis_kind::head_feature, "Q = XW_q", "", color_scale::signed_values},
    {stage_id::k, "k", "K", {"Keys K", "键 K"},
     {"K = X·W_k: what each position offers to be matched against (\"what am I?\"), like the titles and tags of "
      "web pages in a search engine.",
      "K = X·W_k：每个位置可供匹配的内容（“我是什么？”），好比搜索引擎里网页的标题和标签。"},
     true, axis_kind::key, axis_kind::head_feature, "K", "", color_scale::signed_values},
    {stage_id::v, "v", "V", {"Values V", "值 V"},
     {"V = X·W_v: the content each position hands over when it is matched (\"what do I have?\"), like the body "
      "of a web page.",
      "V = X·W_v：匹配上之后每个位置提供的内容（“我有什么？”），好比网页正文。"},
     true, axis_kind::key, axis_kind::head_feature, "V", "", color_scale::signed_values},
    {stage_id::q_rot, "q_rot", "Q_rot", {"Queries rotated by position", "按位置旋转后的 Query"},
     {"Rotary positions (RoPE, as Llama and Qwen use them): each pair of columns (i, i + d_k/2) of the query at "
      "position p is turned by the angle p·θᵢ, θᵢ = θ^(−2i/d_k). Nothing is added to X: the score of two rotated "
      "vectors depends on how far apart their positions are, not on where they stand.",
      "旋转位置编码（RoPE，Llama 和 Qwen 的做法）：位置 p 上 query 的每一对列 (i, i + d_k/2) 旋转角度 p·θᵢ，"
      "θᵢ = θ^(−2i/d_k)。X 上什么也不加：两个旋转后向量的分数只取决于它们相隔多远，而不取决于各自在哪里。"},
     true, axis_kind::query, axis_kind::head_feature, "Q", "RoPE", color_scale::signed_values},
    {stage_id::k_rot, "k_rot", "K_rot", {"Keys rotated by position", "按位置旋转后的 Key"},
     {"The same rotation on the keys, by each key's own position (with shared key/value heads, once per key head, "
      "for every query head that reads it).",
      "对 key 做同样的旋转，按每个 key 自己的位置（共享键值头时，每个键头只转一次，供读它的所有查询头使用）。"},
     true, axis_kind::key, axis_kind::head_feature, "K", "RoPE", color_scale::signed_values},
    {stage_id::scores, "scores", "E", {"Similarity scores", "相似度分数"},
     {"Step 1: how well query i matches key j. Every query meets every key directly, however far apart, which "
      "is why attention handles long-range dependencies, and why it costs O(n²).",
      "第 1 步：查询 i 与键 j 的匹配程度。每个查询都直接与每个键相遇，无论相隔多远：这就是注意力能处理长距离依赖的原因，"
      "也是 O(n²) 代价的来源。"},
     true, axis_kind::query, axis_kind::key, "QKᵀ", "", color_scale::signed_values},
    {stage_id::scaled, "scaled", "E / √d_k", {"Scaled by √d_k", "除以 √d_k 缩放"},
     {"Dot products grow with the vector width d_k; large scores push softmax towards one-hot, where gradients "
      "vanish. Dividing by √d_k brings them back to a gentle range.",
      "点积随向量维度 d_k 增大而变大；分数过大时 softmax 趋向 one-hot 分布，梯度很小，不利于训练。除以 √d_k "
      "把数值拉回平缓区间。"},
     true, axis_kind::query, axis_kind::key, "÷ √d_k", "", color_scale::signed_values},
    {stage_id::masked, "masked", "masked", {"Masked", "掩码"},
     {"Positions a query must not see (the future in a decoder, padding, outside a context window) get a huge "
      "negative score, −1e9 in the first article's code, so softmax gives them weight 0.",
      "查询不应看到的位置（解码器中的未来位置、padding、上下文窗口之外）被写入一个极大的负数（文中代码为 −1e9），"
      "softmax 之后它们的权重为 0。"},
     true, axis_kind::query, axis_kind::key, "+ mask", "", color_scale::signed_values},
    {stage_id::row_max, "row_max", "m", {"Row maximum", "行最大值"},
     {"Numerically stable softmax, first sub-step: subtract each row's maximum so no exponential overflows. "
      "The result is unchanged, since softmax ignores a constant shift.",
      "数值稳定的 softmax 第一步：每行减去最大值，避免指数溢出。softmax 对整行平移不变，结果不受影响。"},
     true, axis_kind::query, axis_kind::single, "max", "softmax", color_scale::signed_values},
    {stage_id::exp, "exp", "exp", {"Exponentials", "指数"},
     {"exp(e_ij − max): every score becomes positive; the largest becomes 1, masked ones become 0.",
      "exp(e_ij − max)：每个分数变为正数；最大者变为 1，被掩码的变为 0。"},
     true, axis_kind::query, axis_kind::key, "exp", "softmax", color_scale::positive},
    {stage_id::row_sum, "row_sum", "s", {"Row sum", "行求和"},
     {"The sum of each row of exponentials: the normaliser of softmax.", "每行指数之和：softmax 的归一化分母。"},
     true, axis_kind::query, axis_kind::single, "Σ", "softmax", color_scale::positive},
    {stage_id::weights, "weights", "α", {"Attention weights α", "注意力权重 α"},
     {"Step 2: softmax turns scores into a probability distribution: each row sums to 1. This decides whom the "
      "model attends to and whom it ignores, and it is what attention heatmaps show.",
      "第 2 步：softmax 把分数变成概率分布，每一行之和为 1。它决定模型“关注谁、忽略谁”，也是注意力可解释性的来源。"},
     true, axis_kind::query, axis_kind::key, "÷", "softmax", color_scale::probability},
    {stage_id::context, "context", "C", {"Weighted sum (context)", "加权求和（上下文向量）"},
     {"Step 3: c_i = Σ_j α_ij v_j. Each output row is a mix of the value rows, weighted by relevance: "
      "\"weight information by relevance and sum it up\".",
      "第 3 步：c_i = Σ_j α_ij v_j。每个输出行是各 Value 行按相关性加权的混合：按相关性加权汇总信息。"},
     true, axis_kind::query, axis_kind::head_feature, "· V", "", color_scale::signed_values},
    {stage_id::online_max, "online_max", "m⁽ᵗ⁾", {"Online softmax: running maximum", "在线 softmax：运行最大值"},
     {"The same softmax, computed a tile of keys at a time without ever holding a whole row (FlashAttention's "
      "idea, how long sequences fit in memory). Column t is the largest score seen after tile t.",
      "同一个 softmax，按块逐个处理键，从不保存完整的一行（FlashAttention 的思路，长序列因此放得进内存）。"
      "第 t 列是处理完第 t 块后见过的最大分数。"},
     true, axis_kind::query, axis_kind::tile, "m⁽ᵗ⁾", "online", color_scale::signed_values},
    {stage_id::online_rescale, "online_rescale", "r⁽ᵗ⁾", {"Online softmax: rescale factor", "在线 softmax：重新缩放因子"},
     {"When a tile raises the maximum, everything summed so far was measured against the old one: multiplying by "
      "e^(m_old − m_new) corrects it. 1 when the maximum stays; 0 before the first tile (nothing to correct).",
      "某一块抬高了最大值时，之前累加的结果都是以旧最大值为基准的：乘以 e^(m_旧 − m_新) 即可修正。最大值不变时为 1；"
      "第一块之前没有可修正的内容，为 0。"},
     true, axis_kind::query, axis_kind::tile, "e^(m_old − m_new)", "online", color_scale::probability},
    {stage_id::online_sum, "online_sum", "ℓ⁽ᵗ⁾", {"Online softmax: running sum", "在线 softmax：运行和"},
     {"The softmax's denominator, kept up to date: the old sum rescaled, plus this tile's exponentials. After the "
      "last tile it equals the row sum s.",
      "softmax 的分母，随块更新：旧的和乘以缩放因子，再加上本块的指数。最后一块之后它等于行求和 s。"},
     true, axis_kind::query, axis_kind::tile, "ℓ⁽ᵗ⁾", "online", color_scale::positive},
    {stage_id::online_acc, "online_acc", "a⁽ᵗ⁾", {"Online softmax: accumulator", "在线 softmax：累加器"},
     {"The weighted sum of values, not yet divided: the old accumulator rescaled, plus exp(e_ij − m)·v_j for this "
      "tile's keys. Columns tᵢ·dⱼ are dimension j after tile i.",
      "尚未除以分母的 Value 加权和：旧累加器乘以缩放因子，再加上本块各键的 exp(e_ij − m)·v_j。"
      "列 tᵢ·dⱼ 是第 i 块之后的第 j 维。"},
     true, axis_kind::query, axis_kind::tile_feature, "a⁽ᵗ⁾", "online", color_scale::signed_values},
    {stage_id::online_output, "online_output", "a / ℓ", {"Online softmax: result", "在线 softmax：结果"},
     {"Divide once at the end: a⁽ᵀ⁾ / ℓ⁽ᵀ⁾. It equals the context α·V computed above, up to float rounding, "
      "although no n × n matrix was ever kept.",
      "最后只做一次除法：a⁽ᵀ⁾ / ℓ⁽ᵀ⁾。它与上面算出的上下文 α·V 相等（仅有浮点舍入误差），而整个过程从未保存 n × n 的矩阵。"},
     true, axis_kind::query, axis_kind::head_feature, "÷ ℓ", "online", color_scale::signed_values},
    {stage_id::concat, "concat", "concat", {"Heads merged (concat)", "合并多头（concat）"},
     {"The heads' contexts placed side by side again, back to d_model columns. With several heads, each head can "
      "capture a different relation.",
      "各头的上下文向量重新并排拼接，回到 d_model 列。多个头可以各自捕获不同的关系。"},
     false, axis_kind::query, axis_kind::feature, "concat", "", color_scale::signed_values},
    {stage_id::output, "output", "output", {"Output projection", "输出投影"},
     {"output = concat·W_o + b_o mixes what the heads found into one representation per position.",
      "output = concat·W_o + b_o，把各头的发现融合为每个位置的一个表示。"},
     false, axis_kind::query, axis_kind::feature, "· W_o", "", color_scale::signed_values},
}};

std::vector<std::string> numbered(const std::string& prefix, std::size_t n, std::size_t first = 1) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(first + i));
    return out;
}

}  // namespace

const std::array<stage_info, 23>& stage_registry() { return registry; }

// [SECTION] lookups by id and name

const stage_info& stage_info_of(stage_id id) {
    return registry[static_cast<std::size_t>(id)];  // the rows follow the enum's order (a test checks)
}

const char* stage_name(stage_id id) { return stage_info_of(id).name; }

std::optional<stage_id> stage_from_name(std::string_view name) {
    for (const stage_info& t : registry)
        if (name == t.name) return t.id;
    return std::nullopt;
}

bilingual stage_title(stage_id id) { return stage_info_of(id).title; }

bilingual stage_explanation(stage_id id) { return stage_info_of(id).explanation; }

// [SECTION] formulas, terms and operands for a spec

std::string stage_formula(stage_id id, const spec& s) {
    switch (id) {
        case stage_id::pe:
            return s.positional == positional_kind::learned
                       ? "PE = table[pos]"
                       : "PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))";
        case stage_id::x: return s.adds_positions() ? "X + PE" : "X";
        case stage_id::memory: return s.adds_positions() ? "M + PE" : "M";
        case stage_id::q: return std::string("Q = X") + (s.wq.w ? "·W_q" : "") + (s.wq.b ? " + b_q" : "");
        case stage_id::k: {
            const std::string in = s.memory ? "M" : "X";
            return "K = " + in + (s.wk.w ? "·W_k" : "") + (s.wk.b ? " + b_k" : "");
        }
        case stage_id::v: {
            const std::string in = s.memory ? "M" : "X";
            return "V = " + in + (s.wv.w ? "·W_v" : "") + (s.wv.b ? " + b_v" : "");
        }
        case stage_id::q_rot: return "q_rot = q·cos(pθᵢ) + rotate_half(q)·sin(pθᵢ), θᵢ = θ^(−2i/d_k)";
        case stage_id::k_rot: return "k_rot = k·cos(pθᵢ) + rotate_half(k)·sin(pθᵢ), θᵢ = θ^(−2i/d_k)";
        case stage_id::scores:
            switch (s.score) {
                case score_kind::additive: return "e_ij = tanh(q_i·W1 + k_j·W2)·v";
                case score_kind::bilinear: return "e_ij = q_i·W·k_jᵀ";
                case score_kind::dot:
                case score_kind::scaled_dot: break;
            }
            return "e_ij = q_i·k_jᵀ";
        case stage_id::scaled: return "e_ij / √d_k";
        case stage_id::masked: return "e_ij = mask_value (mask_ij = 0)";
        case stage_id::row_max: return "m_i = max_j e_ij";
        case stage_id::exp: return "exp(e_ij − m_i)";
        case stage_id::row_sum: return "s_i = Σ_j exp(e_ij − m_i)";
        case stage_id::weights: return "α_ij = exp(e_ij − m_i) / s_i";
        case stage_id::context: return "c_i = Σ_j α_ij v_j";
        case stage_id::online_max: return "m⁽ᵗ⁾ = max(m⁽ᵗ⁻¹⁾, max_{j ∈ tile t} e_ij)";
        case stage_id::online_rescale: return "r⁽ᵗ⁾ = exp(m⁽ᵗ⁻¹⁾ − m⁽ᵗ⁾)";
        case stage_id::online_sum: return "ℓ⁽ᵗ⁾ = ℓ⁽ᵗ⁻¹⁾·r⁽ᵗ⁾ + Σ_{j ∈ tile t} exp(e_ij − m⁽ᵗ⁾)";
        case stage_id::online_acc: return "a⁽ᵗ⁾ = a⁽ᵗ⁻¹⁾·r⁽ᵗ⁾ + Σ_{j ∈ tile t} exp(e_ij − m⁽ᵗ⁾)·v_j";
        case stage_id::online_output: return "o_i = a⁽ᵀ⁾ / ℓ⁽ᵀ⁾ = c_i";
        case stage_id::concat: return "concat(head_1, …, head_h)";
        case stage_id::output: return s.wo.b ? "output = concat·W_o + b_o" : "output = concat·W_o";
    }
    return "";
}

std::string stage_term(stage_id id, const spec& s) {
    if (id == stage_id::q && !s.wq.w) return "Q = X";
    return stage_info_of(id).term;
}

std::vector<stage_id> stage_operands(stage_id id, const spec& s) {
    const stage_id source = s.memory ? stage_id::memory : stage_id::x;
    // the input of the softmax: the last of scores, scaled, masked that the spec has
    const stage_id before_mask = s.score == score_kind::scaled_dot ? stage_id::scaled : stage_id::scores;
    const stage_id softmax_in = s.mask != mask_kind::none ? stage_id::masked : before_mask;
    switch (id) {
        case stage_id::pe: return {};
        case stage_id::x:
        case stage_id::memory:
            if (!s.adds_positions()) return {};
            return {stage_id::pe};
        case stage_id::q: return {stage_id::x};
        case stage_id::k:
        case stage_id::v: return {source};
        case stage_id::q_rot: return {stage_id::q};
        case stage_id::k_rot: return {stage_id::k};
        case stage_id::scores:
            if (s.positional == positional_kind::rotary) return {stage_id::q_rot, stage_id::k_rot};
            return {stage_id::q, stage_id::k};
        case stage_id::scaled: return {stage_id::scores};
        case stage_id::masked: return {before_mask};
        case stage_id::row_max: return {softmax_in};
        case stage_id::exp: return {softmax_in, stage_id::row_max};
        case stage_id::row_sum: return {stage_id::exp};
        case stage_id::weights: return {stage_id::exp, stage_id::row_sum};
        case stage_id::context: return {stage_id::weights, stage_id::v};
        case stage_id::online_max: return {softmax_in};
        case stage_id::online_rescale: return {stage_id::online_max};
        case stage_id::online_sum: return {softmax_in, stage_id::online_max, stage_id::online_rescale};
        case stage_id::online_acc: return {softmax_in, stage_id::online_max, stage_id::online_rescale, stage_id::v};
        case stage_id::online_output: return {stage_id::online_acc, stage_id::online_sum};
        case stage_id::concat: return {stage_id::context};
        case stage_id::output: return {stage_id::concat};
    }
    return {};
}

// [SECTION] colour scales and axes

const char* color_scale_name(color_scale scale) {
    switch (scale) {
        case color_scale::signed_values: return "signed";
        case color_scale::positive: return "positive";
        case color_scale::probability: return "probability";
    }
    return "";
}

const char* axis_name(axis_kind kind) {
    switch (kind) {
        case axis_kind::query: return "query";
        case axis_kind::key: return "key";
        case axis_kind::position: return "position";
        case axis_kind::feature: return "feature";
        case axis_kind::head_feature: return "head_feature";
        case axis_kind::single: return "single";
        case axis_kind::tile: return "tile";
        case axis_kind::tile_feature: return "tile_feature";
        case axis_kind::hidden: return "hidden";
        case axis_kind::vocab: return "vocab";
    }
    return "";
}

std::size_t axis_length(axis_kind kind, const spec& s) {
    const std::size_t tiles = s.online_block < 1 ? 0 : tile_count(s.n_k(), std::size_t(s.online_block));
    switch (kind) {
        case axis_kind::query: return s.n_q();
        case axis_kind::key: return s.n_k();
        case axis_kind::position: return std::max(s.n_q(), s.n_k());
        case axis_kind::feature: return s.d_model();
        case axis_kind::head_feature: return s.d_head();
        case axis_kind::single: return 1;
        case axis_kind::tile: return tiles;
        case axis_kind::tile_feature: return tiles * s.d_head();
        case axis_kind::hidden:
        case axis_kind::vocab: return 0;  // the language model's axes: a sequence spec has none
    }
    return 0;
}

std::vector<std::string> axis_labels(axis_kind kind, const stage_info& stage, const spec& s) {
    switch (kind) {
        case axis_kind::query: return s.query_tokens.empty() ? numbered("q", s.n_q()) : s.query_tokens;
        case axis_kind::key:
            if (!s.key_tokens.empty()) return s.key_tokens;
            if (!s.memory && !s.query_tokens.empty()) return s.query_tokens;  // self-attention: the same tokens
            return numbered("k", s.n_k());
        case axis_kind::position: return numbered("pos ", std::max(s.n_q(), s.n_k()), 0);
        case axis_kind::feature: return numbered("d", s.d_model());
        case axis_kind::head_feature: return numbered("d", s.d_head());
        case axis_kind::single: return {stage.symbol};
        case axis_kind::tile:
        case axis_kind::tile_feature: {
            if (s.online_block < 1) return {};
            const std::vector<std::string> tiles = numbered("t", tile_count(s.n_k(), std::size_t(s.online_block)));
            if (kind == axis_kind::tile) return tiles;
            std::vector<std::string> out;
            for (const std::string& t : tiles)
                for (const std::string& d : numbered("d", s.d_head())) out.push_back(t + "·" + d);
            return out;
        }
        case axis_kind::hidden:
        case axis_kind::vocab: return {};  // the language model's axes: a sequence spec has none
    }
    return {};
}

}  // namespace attn
