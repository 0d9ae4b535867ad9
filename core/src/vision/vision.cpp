// The vision blocks' shared parts: the stage registry (titles and explanations, in both
// languages), the formulas per block, running a block, and the arithmetic of one value.
#include "attn/vision.hpp"

#include <cmath>
#include <numeric>

#include "attn/ca.hpp"
#include "attn/cbam.hpp"
#include "attn/eca.hpp"
#include "attn/se.hpp"
#include "attn/text.hpp"
#include "explain/explain_writer.hpp"
#include "vision/vision_common.hpp"

namespace attn {

const char* to_string(vision_block b) {
    switch (b) {
        case vision_block::se: return "se";
        case vision_block::eca: return "eca";
        case vision_block::cbam: return "cbam";
        case vision_block::ca: return "ca";
    }
    return "se";
}

const std::vector<vision_stage_info>& vision_stage_registry() {
    static const std::vector<vision_stage_info> rows{
        {"feature", "x", {"Feature map", "特征图"},
         {"C channels of H × W: what a convolutional layer hands the block. Each channel responds to one kind of pattern.",
          "C 个 H × W 的通道：卷积层交给注意力模块的特征图。每个通道对一种模式有响应。"}},
        {"pool_avg", "z", {"Average pooling", "平均池化"},
         {"Each channel squeezed to one number, its mean over all pixels: how strongly its pattern is present overall.",
          "每个通道压缩成一个数：所有像素的平均值，表示该模式整体上有多强。"}},
        {"pool_max", "z_max", {"Max pooling", "最大池化"},
         {"Each channel's largest value: its strongest single response, which an average can wash out.",
          "每个通道的最大值：最强的单点响应，平均值可能会把它冲淡。"}},
        {"fc1", "f1", {"Bottleneck layer", "降维全连接层"},
         {"z·W1 + b1: C numbers squeezed into m < C, so the layer must learn how the channels relate.",
          "z·W1 + b1：C 个数压缩成 m < C 个，迫使这一层学习通道之间的关系。"}},
        {"relu", "r", {"ReLU", "ReLU"}, {"Negative values become 0.", "负值变为 0。"}, color_scale::positive},
        {"fc2", "f2", {"Expansion layer", "升维全连接层"},
         {"r·W2 + b2: back to one number per channel.", "r·W2 + b2：恢复为每个通道一个数。"}},
        {"conv1d", "a", {"1-D convolution across channels", "跨通道一维卷积"},
         {"Each channel looks at its k neighbours' pooled values (zero padding at the ends): cross-channel interaction without a bottleneck.",
          "每个通道参考相邻 k 个通道的池化值（两端补零）：不降维也能让通道之间交互。"}},
        {"gate", "s", {"Channel gate", "通道权重"},
         {"σ squeezes each value into (0, 1): how much of each channel to keep. This is the attention, one weight per channel.",
          "σ 把每个值压到 (0, 1)：每个通道保留多少。这就是注意力：每个通道一个权重。"}, color_scale::probability},
        {"mlp_avg", "mlp(z)", {"MLP of the average", "平均池化的 MLP"},
         {"The shared MLP relu(p·W1 + b1)·W2 + b2 on the average-pooled channels.",
          "共享的 MLP relu(p·W1 + b1)·W2 + b2 作用于平均池化结果。"}},
        {"mlp_max", "mlp(z_max)", {"MLP of the maximum", "最大池化的 MLP"},
         {"The same MLP (same weights) on the max-pooled channels.", "同一个 MLP（同样的权重）作用于最大池化结果。"}},
        {"channel_gate", "M_c", {"Channel gate", "通道注意力"},
         {"σ(mlp(avg) + mlp(max)): one weight per channel from both poolings.", "σ(mlp(avg) + mlp(max))：两种池化共同给出每个通道的权重。"}, color_scale::probability},
        {"channel_refined", "x'", {"Channel-refined features", "通道加权后的特征"},
         {"x·M_c: every channel scaled by its gate, before the spatial gate decides where to look.",
          "x·M_c：每个通道乘以它的权重，然后再由空间注意力决定看哪里。"}},
        {"spatial_avg", "mean_c", {"Mean over channels", "通道平均"},
         {"At every pixel, the mean over the channels of x'.", "每个像素上，对 x' 的所有通道取平均。"}},
        {"spatial_max", "max_c", {"Max over channels", "通道最大值"},
         {"At every pixel, the largest value over the channels of x'.", "每个像素上，x' 所有通道中的最大值。"}},
        {"spatial_conv", "S", {"Spatial convolution", "空间卷积"},
         {"A K × K convolution over the two maps (zero padding) plus a bias: a score for every place in the image.",
          "在两张图上做 K × K 卷积（补零）再加偏置：给图像中每个位置打分。"}},
        {"spatial_gate", "σ(S)", {"Spatial gate", "空间注意力"},
         {"One weight in (0, 1) per pixel, shared by all channels: where to look.", "每个像素一个 (0, 1) 之间的权重，所有通道共享：看哪里。"}, color_scale::probability},
        {"pool_h", "z^h", {"Pooling along the width", "沿宽度池化"},
         {"Each row of each channel averaged: C × H, the vertical position kept.", "每个通道的每一行取平均：C × H，保留了竖直方向的位置。"}},
        {"pool_w", "z^w", {"Pooling along the height", "沿高度池化"},
         {"Each column of each channel averaged: C × W, the horizontal position kept.", "每个通道的每一列取平均：C × W，保留了水平方向的位置。"}},
        {"conv1", "f", {"Shared 1 × 1 convolution", "共享的 1 × 1 卷积"},
         {"Each of the H + W positions' channel vector through u·W1 + b1: m features per position.",
          "H + W 个位置各自的通道向量经过 u·W1 + b1：每个位置得到 m 个特征。"}},
        {"bn", "BN(f)", {"BatchNorm (inference)", "批归一化（推理）"},
         {"(f − mean)/√(var + eps)·γ + β with the stored statistics.", "用保存的统计量计算 (f − mean)/√(var + eps)·γ + β。"}},
        {"act", "h_swish", {"h_swish", "h_swish 激活"},
         {"f·relu6(f + 3)/6: a cheap, smooth nonlinearity.", "f·relu6(f + 3)/6：计算便宜又平滑的非线性。"}},
        {"gate_h", "g^h", {"Row gate", "行权重"},
         {"σ(act·Wh + bh) at the first H positions: for every channel, a weight for each row.",
          "前 H 个位置上的 σ(act·Wh + bh)：每个通道的每一行一个权重。"}, color_scale::probability},
        {"gate_w", "g^w", {"Column gate", "列权重"},
         {"σ(act·Ww + bw) at the last W positions: for every channel, a weight for each column.",
          "后 W 个位置上的 σ(act·Ww + bw)：每个通道的每一列一个权重。"}, color_scale::probability},
        {"output", "y", {"Output", "输出"},
         {"The feature map times its gates: the channels and places that matter are kept, the rest damped.",
          "特征图乘以注意力权重：重要的通道和位置被保留，其余被抑制。"}},
    };
    return rows;
}

const vision_stage_info& vision_stage_info_of(std::string_view id) {
    for (const vision_stage_info& info : vision_stage_registry())
        if (id == info.id) return info;
    throw spec_error("\"" + user_text(id) + "\" is not a vision stage id.");
}

namespace {

/// What each block computes at each stage: its formula and the stages it reads (the page draws a stage
/// after them, and lights the values one value reads). "bn|conv1": the first of these the trace has.
struct vision_step {
    std::string_view blocks, id, formula;
    std::vector<std::string_view> operands;
};
const std::vector<vision_step>& vision_steps() {
    static const std::vector<vision_step> rows{
        {"se eca cbam ca", "feature", "x: C × H × W", {}},
        {"se eca cbam", "pool_avg", "z_c = mean_hw x[c]", {"feature"}},
        {"se", "fc1", "f1 = z·W1 + b1", {"pool_avg"}},
        {"se", "relu", "r = relu(f1)", {"fc1"}},
        {"se", "fc2", "f2 = r·W2 + b2", {"relu"}},
        {"se", "gate", "s = σ(f2)", {"fc2"}},
        {"eca", "conv1d", "a_c = Σ_t w_t·z_{c+t−(k−1)/2}", {"pool_avg"}},
        {"eca", "gate", "s = σ(a)", {"conv1d"}},
        {"cbam", "pool_max", "z_max,c = max_hw x[c]", {"feature"}},
        {"cbam", "mlp_avg", "mlp(z) = relu(z·W1 + b1)·W2 + b2", {"pool_avg"}},
        {"cbam", "mlp_max", "mlp(z_max) = relu(z_max·W1 + b1)·W2 + b2", {"pool_max"}},
        {"cbam", "channel_gate", "M_c = σ(mlp(z) + mlp(z_max))", {"mlp_avg", "mlp_max"}},
        {"cbam", "channel_refined", "x' = x·M_c", {"feature", "channel_gate"}},
        {"cbam", "spatial_avg", "mean_c x'", {"channel_refined"}},
        {"cbam", "spatial_max", "max_c x'", {"channel_refined"}},
        {"cbam", "spatial_conv", "S = conv_K×K([mean_c x'; max_c x']) + b", {"spatial_avg", "spatial_max"}},
        {"cbam", "spatial_gate", "σ(S)", {"spatial_conv"}},
        {"ca", "pool_h", "z^h[c,i] = mean_j x[c,i,j]", {"feature"}},
        {"ca", "pool_w", "z^w[c,j] = mean_i x[c,i,j]", {"feature"}},
        {"ca", "conv1", "f = u·W1 + b1, u = [z^h | z^w] per position", {"pool_h", "pool_w"}},
        {"ca", "bn", "(f − μ)/√(σ² + ε)·γ + β", {"conv1"}},
        {"ca", "act", "h_swish(f) = f·relu6(f + 3)/6", {"bn|conv1"}},
        {"ca", "gate_h", "g^h[c,i] = σ(act_i·Wh + bh)_c", {"act"}},
        {"ca", "gate_w", "g^w[c,j] = σ(act_{H+j}·Ww + bw)_c", {"act"}},
        {"se eca", "output", "y[c] = x[c]·s_c", {"feature", "gate"}},
        {"cbam", "output", "y = x'·σ(S)", {"channel_refined", "spatial_gate"}},
        {"ca", "output", "y = x·g^h[c,i]·g^w[c,j]", {"feature", "gate_h", "gate_w"}},
    };
    return rows;
}

/// The names of a list written "a b c" (sep ' ') or "a|b" (sep '|'), in order.
std::vector<std::string_view> names_in(std::string_view list, char sep) {
    std::vector<std::string_view> out;
    for (std::size_t at = 0; at <= list.size();) {
        const std::size_t end = std::min(list.find(sep, at), list.size());
        out.push_back(list.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

const vision_step* step_of(vision_block b, std::string_view id) {
    for (const vision_step& st : vision_steps())
        if (st.id == id)
            for (std::string_view block : names_in(st.blocks, ' '))
                if (block == to_string(b)) return &st;
    return nullptr;
}

}  // namespace

std::string vision_formula(vision_block b, std::string_view id) {
    const vision_step* st = step_of(b, id);
    return std::string(st ? st->formula : id);
}

std::vector<std::string> vision_operands(const vision_trace& t, std::string_view id) {
    std::vector<std::string> out;
    const vision_step* st = step_of(t.spec.block, id);
    if (!st) return out;
    for (std::string_view choices : st->operands)
        for (std::string_view name : names_in(choices, '|'))  // "bn|conv1": the first the trace has
            if (t.stage(name)) {
                out.emplace_back(name);
                break;
            }
    return out;
}

const vision_stage* vision_trace::stage(std::string_view id) const {
    for (const vision_stage& s : stages)
        if (s.id == id) return &s;
    return nullptr;
}

std::size_t vision_trace::bytes() const {
    std::size_t n = 0;
    for (const vision_stage& s : stages) n += s.data.size() * sizeof(float);
    return n;
}

vision_trace compute_vision(const vision_spec& s) {
    vision_trace t{s, {}};
    t.stages.reserve(16);  // CBAM's 12 stages, the most, without moving them
    t.stages.push_back({"feature", {s.c, s.h, s.w}, s.feature});
    const vision_kernel_set& k = simd_vision_kernels();
    switch (s.block) {
        case vision_block::se: se_stages(t, k); break;
        case vision_block::eca: eca_stages(t, k); break;
        case vision_block::cbam: cbam_stages(t, k); break;
        case vision_block::ca: ca_stages(t, k); break;
    }
    for (const vision_stage& st : t.stages)
        for (float v : st.data)
            if (!std::isfinite(v)) throw spec_error("stage " + st.id + " overflows float with these values: make them smaller.");
    return t;
}

json vision_axes_json(const vision_trace& t, const vision_stage& st) {
    const vision_spec& s = t.spec;
    const auto numbered = [](std::size_t count, const char* prefix) {
        json out = json::array();
        for (std::size_t k = 1; k <= count; ++k) out.push_back(prefix + std::to_string(k));
        return out;
    };
    const json channels = s.channels;
    if (st.shape.size() == 1) return {{"cols", st.shape[0] == s.c ? channels : numbered(st.shape[0], "f")}};
    if (st.shape.size() == 3) return {{"channels", channels}, {"rows", numbered(s.h, "")}, {"cols", numbered(s.w, "")}};
    if (st.id == "conv1" || st.id == "bn" || st.id == "act") {  // m features × the H + W positions
        json cols = numbered(s.h, "h");
        for (json& c : numbered(s.w, "w")) cols.push_back(std::move(c));
        return {{"rows", numbered(st.shape[0], "f")}, {"cols", std::move(cols)}};
    }
    const bool per_channel = st.id == "pool_h" || st.id == "pool_w" || st.id == "gate_h" || st.id == "gate_w";  // C × H or C × W
    return {{"rows", per_channel ? channels : numbered(st.shape[0], "")}, {"cols", numbered(st.shape[1], "")}};
}

json vision_trace_to_json(const vision_trace& t) {
    json stages = json::array();
    for (const vision_stage& s : t.stages) {
        const vision_stage_info& info = vision_stage_info_of(s.id);
        json data = json::array();
        for (float v : s.data) data.push_back(shortest_decimal(v));
        json stage = stage_facts_json(info.id, info.symbol, info.title, info.explanation, info.scale);  // every registry's facts
        stage["formula"] = vision_formula(t.spec.block, s.id);
        stage["operands"] = vision_operands(t, s.id);
        stage["axes"] = vision_axes_json(t, s);
        stage["shape"] = s.shape;
        stage["data"] = std::move(data);
        stages.push_back(std::move(stage));
    }
    return {{"kind", "vision"}, {"spec", vision_spec_to_json(t.spec)}, {"stages", std::move(stages)}};
}

// [SECTION] the arithmetic of one value

namespace {

using namespace explain_detail;

/// The position (0-based, one per axis) of a flat row-major index into a stage's shape.
std::vector<std::size_t> split(const std::vector<std::size_t>& shape, std::size_t index) {
    std::vector<std::size_t> parts(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) parts[d] = index % shape[d], index /= shape[d];
    return parts;
}

/// "[c][i][j]" (1-based) of a flat index into a stage's shape.
std::string at(const std::vector<std::size_t>& shape, std::size_t index) {
    std::string out;
    for (std::size_t p : split(shape, index)) out += "[" + n1(p) + "]";
    return out;
}

/// "Σ in·W[·][o] + b[o] = a×b + … + b = v" for output o of a dense layer.
std::string dense_sum(const float* in, const dense_layer& l, std::size_t o, const char* in_name, const char* w_name,
                      const char* b_name, float result, const writer& f) {
    std::vector<std::pair<float, float>> pairs;
    for (std::size_t i = 0; i < l.in; ++i) pairs.emplace_back(in[i], l.w[i * l.out + o]);
    return std::string("Σ ") + in_name + "·" + w_name + "[·][" + n1(o) + "] + " + b_name + "[" + n1(o) + "] = " +
           f.products(pairs) + " + " + f.num(l.b[o]) + " = " + f.num(result);
}

}  // namespace

std::string explain_vision_cell(const vision_trace& t, std::string_view id, std::size_t index) {
    const vision_stage* st = t.stage(id);
    if (!st) throw spec_error("this vision trace has no stage \"" + user_text(id) + "\".");
    if (index >= st->data.size())
        throw spec_error("stage " + st->id + " has " + std::to_string(st->data.size()) + " values; there is no value " + std::to_string(index + 1) + ".");
    const writer f{false};
    const vision_spec& s = t.spec;
    const float v = st->data[index];
    const std::string name = std::string(vision_stage_info_of(id).symbol) + at(st->shape, index);
    // another stage's values, by reference: the sentences read a few of them, never a copy
    const auto data = [&](const char* other) -> const std::vector<float>& { return t.stage(other)->data; };
    const auto sigma = [&](const std::string& arg, float in) { return name + " = σ(" + arg + ") = σ(" + f.num(in) + ") = " + f.num(v); };
    const std::vector<std::size_t> p = split(st->shape, index);
    const std::size_t hw = s.h * s.w;
    if (id == "feature") return name + " = " + f.num(v);
    if (id == "pool_avg" || id == "pool_max") {
        const std::vector<float> channel(s.feature.begin() + std::ptrdiff_t(p[0] * hw), s.feature.begin() + std::ptrdiff_t((p[0] + 1) * hw));
        if (id == "pool_max") return name + " = max(" + f.list(channel, ", ") + ") = " + f.num(v);
        return name + " = (" + f.list(channel, " + ") + ") / " + std::to_string(hw) + " = " + f.num(v);
    }
    if (id == "fc1") return name + " = " + dense_sum(data("pool_avg").data(), s.fc1, p[0], "z", "W1", "b1", v, f);
    if (id == "fc2") return name + " = " + dense_sum(data("relu").data(), s.fc2, p[0], "r", "W2", "b2", v, f);
    if (id == "relu") return name + " = relu(" + f.num(data("fc1")[p[0]]) + ") = " + f.num(v);
    if (id == "conv1d") {
        const std::vector<float>& z = data("pool_avg");
        const std::size_t pad = (s.eca.size() - 1) / 2;
        std::vector<std::pair<float, float>> pairs;
        for (std::size_t tap = 0; tap < s.eca.size(); ++tap) {
            const std::ptrdiff_t c = std::ptrdiff_t(p[0] + tap) - std::ptrdiff_t(pad);
            pairs.emplace_back(s.eca[tap], c >= 0 && c < std::ptrdiff_t(s.c) ? z[std::size_t(c)] : 0.0f);
        }
        return name + " = Σ_t w_t·z[c+t] = " + f.products(pairs) + " = " + f.num(v);
    }
    if (id == "gate") return sigma(s.block == vision_block::se ? "f2" + at(st->shape, index) : "a" + at(st->shape, index),
                                   data(s.block == vision_block::se ? "fc2" : "conv1d")[p[0]]);
    if (id == "mlp_avg" || id == "mlp_max") return name + " = " + f.num(v) + " (the shared MLP on " + (id == "mlp_avg" ? "z" : "z_max") + ")";
    if (id == "channel_gate") {
        const float a = data("mlp_avg")[p[0]], b = data("mlp_max")[p[0]];
        return name + " = σ(mlp(z) + mlp(z_max)) = σ(" + f.num(a) + " + " + f.num(b) + ") = " + f.num(v);
    }
    if (id == "channel_refined") return name + " = x·M_c = " + f.num(s.feature[index]) + " × " + f.num(data("channel_gate")[p[0]]) + " = " + f.num(v);
    if (id == "spatial_avg" || id == "spatial_max") {
        const std::vector<float>& x = data("channel_refined");
        std::vector<float> column;
        for (std::size_t c = 0; c < s.c; ++c) column.push_back(x[c * hw + index]);
        if (id == "spatial_max") return name + " = max(" + f.list(column, ", ") + ") = " + f.num(v);
        return name + " = (" + f.list(column, " + ") + ") / " + std::to_string(s.c) + " = " + f.num(v);
    }
    if (id == "spatial_conv")
        return name + " = Σ over the 2 × " + std::to_string(s.kernel) + " × " + std::to_string(s.kernel) + " taps of w·[mean; max] + " +
               f.num(s.spatial_bias) + " = " + f.num(v);
    if (id == "spatial_gate") return sigma("S" + at(st->shape, index), data("spatial_conv")[index]);
    if (id == "pool_h" || id == "pool_w") {
        std::vector<float> line;
        const bool row = id == "pool_h";
        for (std::size_t q = 0; q < (row ? s.w : s.h); ++q)
            line.push_back(s.feature[p[0] * hw + (row ? p[1] * s.w + q : q * s.w + p[1])]);
        return name + " = (" + f.list(line, " + ") + ") / " + std::to_string(line.size()) + " = " + f.num(v);
    }
    if (id == "conv1") {
        const std::size_t pos = p[1];  // a row (pos < H) or a column (H + j)
        std::vector<float> u(s.c);
        for (std::size_t c = 0; c < s.c; ++c) u[c] = pos < s.h ? data("pool_h")[c * s.h + pos] : data("pool_w")[c * s.w + pos - s.h];
        return name + " = " + dense_sum(u.data(), s.fc1, p[0], "u", "W1", "b1", v, f);
    }
    if (id == "bn") {
        const batch_norm& bn = *s.bn;
        const std::size_t o = p[0];
        return name + " = (" + f.num(data("conv1")[index]) + " − " + f.num(bn.mean[o]) + ") / √(" + f.num(bn.var[o]) + " + " +
               f.num(bn.eps) + ") × " + f.num(bn.gamma[o]) + " + " + f.num(bn.beta[o]) + " = " + f.num(v);
    }
    if (id == "act") {
        const float in = data(s.bn ? "bn" : "conv1")[index];
        return name + " = " + f.num(in) + " × relu6(" + f.num(in) + " + 3) / 6 = " + f.num(v);
    }
    if (id == "gate_h" || id == "gate_w") {
        const bool row = id == "gate_h";
        const std::size_t P = s.h + s.w, pos = row ? p[1] : s.h + p[1];
        std::vector<float> a(s.hidden());
        for (std::size_t o = 0; o < a.size(); ++o) a[o] = data("act")[o * P + pos];
        const dense_layer& l = row ? s.gate_h : s.gate_w;
        const float g = vision_detail::dense(a.data(), l)[p[0]];  // the layer the block ran, before its σ
        return name + " = σ(" + dense_sum(a.data(), l, p[0], "act", row ? "Wh" : "Ww", row ? "bh" : "bw", g, f) + ") = " + f.num(v);
    }
    // output
    if (s.block == vision_block::cbam)
        return name + " = x'·σ(S) = " + f.num(data("channel_refined")[index]) + " × " + f.num(data("spatial_gate")[p[1] * s.w + p[2]]) + " = " + f.num(v);
    if (s.block == vision_block::ca)
        return name + " = x·g^h·g^w = " + f.num(s.feature[index]) + " × " + f.num(data("gate_h")[p[0] * s.h + p[1]]) + " × " +
               f.num(data("gate_w")[p[0] * s.w + p[2]]) + " = " + f.num(v);
    return name + " = x·s_c = " + f.num(s.feature[index]) + " × " + f.num(data("gate")[p[0]]) + " = " + f.num(v);
}

}  // namespace attn
