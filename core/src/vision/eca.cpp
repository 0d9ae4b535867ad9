#include "attn/eca.hpp"

#include "vision/vision_common.hpp"

namespace attn {

using namespace vision_detail;

void eca_stages(vision_trace& t, const vision_kernel_set& k) {
    const vision_spec& s = t.spec;
    const std::size_t hw = s.h * s.w, taps = s.eca.size(), pad = (taps - 1) / 2;
    std::vector<float> z(s.c);
    k.row_mean(z.data(), s.feature.data(), s.c, hw);
    add_stage(t, "pool_avg", {s.c}, z);
    // cross-correlation with zero padding: a_c = Σ_t w_t·z_{c+t−pad}, as one shifted row per tap
    std::vector<float> padded(s.c + 2 * pad, 0.0f);
    std::copy(z.begin(), z.end(), padded.begin() + std::ptrdiff_t(pad));
    std::vector<float> a(s.c, 0.0f);
    for (std::size_t tap = 0; tap < taps; ++tap) k.axpy(a.data(), padded.data() + tap, s.eca[tap], s.c);
    add_stage(t, "conv1d", {s.c}, a);
    const std::vector<float> gate = map(a, sigmoid);
    add_stage(t, "gate", {s.c}, gate);
    std::vector<float> y(s.feature.size());
    k.scale_rows(y.data(), s.feature.data(), gate.data(), s.c, hw);
    add_stage(t, "output", {s.c, s.h, s.w}, std::move(y));
}

}  // namespace attn
