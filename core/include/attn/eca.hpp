// Efficient Channel Attention (Wang et al., 2020): SE without the bottleneck. The pooled channels
// go through a 1-D convolution across neighbouring channels (k taps, zero padding, a
// cross-correlation as PyTorch's Conv1d computes it), then a sigmoid gate.
//   a_c = Σ_t w_t·z_{c+t−(k−1)/2};  s = σ(a);  y = x·s_c
// Stages: feature, pool_avg (C), conv1d (C), gate (C), output (C × H × W).
#pragma once

#include "attn/vision.hpp"
#include "attn/vision_kernels.hpp"

namespace attn {

void eca_stages(vision_trace& t, const vision_kernel_set& k);

}  // namespace attn
