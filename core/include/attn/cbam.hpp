// Convolutional Block Attention Module (Woo et al., 2018): a channel gate from the average- and
// max-pooled channels through one shared MLP, then a spatial gate from a K × K convolution over
// the [mean over channels; max over channels] maps of the refined features.
//   mlp(p) = relu(p·W1 + b1)·W2 + b2;  M_c = σ(mlp(avg) + mlp(max));  x' = x·M_c
//   S = conv2d([mean_c x'; max_c x'], spatial, zero padding (K−1)/2) + spatial_bias;  y = x'·σ(S)
// Stages: feature, pool_avg, pool_max, mlp_avg, mlp_max, channel_gate (C), channel_refined (C × H × W),
// spatial_avg, spatial_max, spatial_conv, spatial_gate (H × W), output (C × H × W).
#pragma once

#include "attn/vision.hpp"
#include "attn/vision_kernels.hpp"

namespace attn {

void cbam_stages(vision_trace& t, const vision_kernel_set& k);

}  // namespace attn
