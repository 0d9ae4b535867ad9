#include "attn/ca.hpp"

#include "vision/vision_common.hpp"

namespace attn {

using namespace vision_detail;

void ca_stages(vision_trace& t, const vision_kernel_set& k) {
    const vision_spec& s = t.spec;
    const std::size_t H = s.h, W = s.w, m = s.hidden(), P = H + W;
    // pool along each axis: pool_h keeps the rows (mean over j), pool_w the columns (mean over i)
    std::vector<float> ph(s.c * H), pw(s.c * W);
    k.row_mean(ph.data(), s.feature.data(), s.c * H, W);
    for (std::size_t c = 0; c < s.c; ++c) k.col_mean(pw.data() + c * W, s.feature.data() + c * H * W, H, W);
    add_stage(t, "pool_h", {s.c, H}, ph);
    add_stage(t, "pool_w", {s.c, W}, pw);
    // the H + W positions, each a channel vector u, through the shared 1 × 1 convolution f = u·W1 + b1
    std::vector<float> f(m * P), u(s.c);
    for (std::size_t p = 0; p < P; ++p) {
        for (std::size_t c = 0; c < s.c; ++c) u[c] = p < H ? ph[c * H + p] : pw[c * W + (p - H)];
        const std::vector<float> out = dense(u.data(), s.fc1);
        for (std::size_t o = 0; o < m; ++o) f[o * P + p] = out[o];
    }
    add_stage(t, "conv1", {m, P}, f);
    if (s.bn) {
        const batch_norm& bn = *s.bn;
        for (std::size_t o = 0; o < m; ++o) {
            const float scale = bn.gamma[o] / std::sqrt(bn.var[o] + bn.eps);
            for (std::size_t p = 0; p < P; ++p) f[o * P + p] = (f[o * P + p] - bn.mean[o]) * scale + bn.beta[o];
        }
        add_stage(t, "bn", {m, P}, f);
    }
    const std::vector<float> act = map(f, h_swish);
    add_stage(t, "act", {m, P}, act);
    // one gate per row (the first H positions) and one per column (the last W), each through its own layer
    std::vector<float> gh(s.c * H), gw(s.c * W), a(m);
    for (std::size_t p = 0; p < P; ++p) {
        for (std::size_t o = 0; o < m; ++o) a[o] = act[o * P + p];
        const bool row = p < H;
        const std::vector<float> g = dense(a.data(), row ? s.gate_h : s.gate_w);
        for (std::size_t c = 0; c < s.c; ++c) (row ? gh[c * H + p] : gw[c * W + (p - H)]) = sigmoid(g[c]);
    }
    add_stage(t, "gate_h", {s.c, H}, gh);
    add_stage(t, "gate_w", {s.c, W}, gw);
    // y[c,i,j] = x[c,i,j]·gate_h[c,i]·gate_w[c,j]: rows scaled by gate_h, then every row times gate_w[c]
    std::vector<float> y(s.feature.size());
    k.scale_rows(y.data(), s.feature.data(), gh.data(), s.c * H, W);
    for (std::size_t c = 0; c < s.c; ++c) k.mul_rows(y.data() + c * H * W, y.data() + c * H * W, gw.data() + c * W, H, W);
    add_stage(t, "output", {s.c, H, W}, std::move(y));
}

}  // namespace attn
