// Squeeze-and-Excitation (Hu et al., 2018): squeeze each channel to its mean, excite through a
// bottleneck MLP, and gate the channels with the result.
//   z = mean_hw x;  s = σ(relu(z·W1 + b1)·W2 + b2);  y = x·s_c
// Stages: feature, pool_avg (C), fc1 (m), relu (m), fc2 (C), gate (C), output (C × H × W).
#pragma once

#include "attn/vision.hpp"
#include "attn/vision_kernels.hpp"

namespace attn {

/// @brief Appends SE's stages after `feature` to t (t.spec is the spec).
void se_stages(vision_trace& t, const vision_kernel_set& k);

}  // namespace attn
