#include "attn/se.hpp"

#include "vision/vision_common.hpp"

namespace attn {

using namespace vision_detail;

void se_stages(vision_trace& t, const vision_kernel_set& k) {
    const vision_spec& s = t.spec;
    const std::size_t hw = s.h * s.w;
    std::vector<float> z(s.c);
    k.row_mean(z.data(), s.feature.data(), s.c, hw);  // squeeze: one number per channel
    add_stage(t, "pool_avg", {s.c}, z);
    const std::vector<float> f1 = dense(z.data(), s.fc1);
    add_stage(t, "fc1", {s.hidden()}, f1);
    const std::vector<float> r = map(f1, relu);
    add_stage(t, "relu", {s.hidden()}, r);
    const std::vector<float> f2 = dense(r.data(), s.fc2);
    add_stage(t, "fc2", {s.c}, f2);
    const std::vector<float> gate = map(f2, sigmoid);  // excite: a weight in (0, 1) per channel
    add_stage(t, "gate", {s.c}, gate);
    std::vector<float> y(s.feature.size());
    k.scale_rows(y.data(), s.feature.data(), gate.data(), s.c, hw);
    add_stage(t, "output", {s.c, s.h, s.w}, std::move(y));
}

}  // namespace attn
