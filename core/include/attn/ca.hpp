// Coordinate Attention (Hou et al., 2021): pool along each axis separately, so the gates keep
// where things are. The H row means and W column means of every channel form H + W positions;
// each position's channel vector goes through a shared 1 × 1 convolution (u·W1 + b1), an optional
// inference-time BatchNorm and h_swish; then one gate per row and one per column.
//   pool_h[c,i] = mean_j x;  pool_w[c,j] = mean_i x;  f = u·W1 + b1;  act = h_swish(BN(f)) = f·relu6(f+3)/6
//   gate_h[c,i] = σ(act_i·Wh + bh)_c;  gate_w[c,j] = σ(act_{H+j}·Ww + bw)_c;  y = x·gate_h[c,i]·gate_w[c,j]
// Stages: feature, pool_h (C × H), pool_w (C × W), conv1, bn (with bn), act (m × (H+W)),
// gate_h (C × H), gate_w (C × W), output (C × H × W).
#pragma once

#include "attn/vision.hpp"
#include "attn/vision_kernels.hpp"

namespace attn {

void ca_stages(vision_trace& t, const vision_kernel_set& k);

}  // namespace attn
