// The forward and backward passes without their checks, for the trainer: it validates its data once
// when it starts and then checks each step's loss and gradients for overflow, instead of validating
// the spec and scanning every stage 16 times a step (a fifth of a step's time on the alignment task).
#pragma once
#include "attn/grad.hpp"
#include "attn/trace.hpp"

namespace attn {

/// Every stage of a spec already validated; no overflow check. Takes the spec by value so the
/// trainer's per-item spec moves into the trace instead of being copied.
trace forward_pass(spec s, const kernel_set& kernels);

/// The loss and the backward pass of a forward pass already computed.
grad_result backward_pass(trace forward, const loss_spec& loss, const kernel_set& kernels);

}  // namespace attn
