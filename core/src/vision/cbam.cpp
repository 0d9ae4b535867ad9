#include "attn/cbam.hpp"

#include "vision/vision_common.hpp"

namespace attn {

using namespace vision_detail;

namespace {

/// The shared MLP: relu(p·W1 + b1)·W2 + b2.
std::vector<float> mlp(const std::vector<float>& p, const vision_spec& s) {
    const std::vector<float> hidden = map(dense(p.data(), s.fc1), relu);
    return dense(hidden.data(), s.fc2);
}

}  // namespace

void cbam_stages(vision_trace& t, const vision_kernel_set& k) {
    const vision_spec& s = t.spec;
    const std::size_t hw = s.h * s.w;
    // channel attention: both poolings through one MLP, added, then a sigmoid
    std::vector<float> avg(s.c), max(s.c);
    k.row_mean(avg.data(), s.feature.data(), s.c, hw);
    k.row_max(max.data(), s.feature.data(), s.c, hw);
    add_stage(t, "pool_avg", {s.c}, avg);
    add_stage(t, "pool_max", {s.c}, max);
    const std::vector<float> ma = mlp(avg, s), mm = mlp(max, s);
    add_stage(t, "mlp_avg", {s.c}, ma);
    add_stage(t, "mlp_max", {s.c}, mm);
    std::vector<float> channel(s.c);
    for (std::size_t c = 0; c < s.c; ++c) channel[c] = sigmoid(ma[c] + mm[c]);
    add_stage(t, "channel_gate", {s.c}, channel);
    std::vector<float> refined(s.feature.size());
    k.scale_rows(refined.data(), s.feature.data(), channel.data(), s.c, hw);
    add_stage(t, "channel_refined", {s.c, s.h, s.w}, refined);
    // spatial attention: mean and max over the channels at every pixel, a K × K convolution of the two maps
    std::vector<float> smean(hw), smax(hw);
    k.col_mean(smean.data(), refined.data(), s.c, hw);
    k.col_max(smax.data(), refined.data(), s.c, hw);
    add_stage(t, "spatial_avg", {s.h, s.w}, smean);
    add_stage(t, "spatial_max", {s.h, s.w}, smax);
    // S = bias + Σ_ch Σ_taps w[ch][di][dj] · the map shifted by (di, dj), with zero padding. The sums run on
    // maps laid out W + 2·pad wide (the padding's stride), so that one tap adds one shifted copy of the whole
    // map in one axpy (a row at a time was K²·H calls of W values each; the extra columns are dropped after)
    const std::size_t K = s.kernel, pad = (K - 1) / 2, pw = s.w + 2 * pad, span = (s.h - 1) * pw + s.w;
    std::vector<float> wide(s.h * pw, s.spatial_bias);
    const std::vector<float>* maps[] = {&smean, &smax};
    std::vector<float> padded((s.h + 2 * pad) * pw);
    for (std::size_t ch = 0; ch < 2; ++ch) {
        std::fill(padded.begin(), padded.end(), 0.0f);  // zero padding around the map
        for (std::size_t i = 0; i < s.h; ++i)
            std::copy_n(maps[ch]->data() + i * s.w, s.w, padded.data() + (i + pad) * pw + pad);
        // each pixel sums its taps in the order (ch, di, dj), as a row-at-a-time loop would
        for (std::size_t di = 0; di < K; ++di)
            for (std::size_t dj = 0; dj < K; ++dj)
                k.axpy(wide.data(), padded.data() + di * pw + dj, s.spatial[(ch * K + di) * K + dj], span);
    }
    std::vector<float> conv(hw);
    for (std::size_t i = 0; i < s.h; ++i) std::copy_n(wide.data() + i * pw, s.w, conv.data() + i * s.w);
    add_stage(t, "spatial_conv", {s.h, s.w}, conv);
    const std::vector<float> spatial = map(conv, sigmoid);
    add_stage(t, "spatial_gate", {s.h, s.w}, spatial);
    std::vector<float> y(s.feature.size());
    k.mul_rows(y.data(), refined.data(), spatial.data(), s.c, hw);
    add_stage(t, "output", {s.c, s.h, s.w}, std::move(y));
}

}  // namespace attn
