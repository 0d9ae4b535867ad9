// The trace: every stage of one attention computation, kept as evaluated tensors.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "attn/kernels.hpp"
#include "attn/spec.hpp"
#include "attn/stages.hpp"

namespace attn {

/// @brief A read-only look at one stage of a trace: id, shape and flat row-major data.
struct stage_view {
    stage_id id;
    std::vector<std::size_t> shape;
    const float* data;
    std::size_t size;
};

struct trace {
    attn::spec spec;                 // the spec this trace was computed from
    std::optional<matrix> pe;        // (max(n_q, n_k), d) positional encoding that was added
    matrix x;                        // (n_q, d) inputs after positional encoding
    std::optional<matrix> memory;    // (n_k, d) cross-attention inputs after positional encoding
    tensor3 q, k, v;                 // (h, n_q | n_k, d_h) projections split into heads (k, v: kv_heads heads)
    std::optional<tensor3> q_rot, k_rot;  // q and k turned by their positions, positional rotary only
    tensor3 scores;                  // (h, n_q, n_k) raw e_ij
    std::optional<tensor3> scaled;   // (h, n_q, n_k) e_ij / √d_h, scaled_dot only
    std::optional<tensor3> masked;   // (h, n_q, n_k) after writing mask_value; absent with mask none
    tensor3 row_max, exp, row_sum;   // (h, n_q, 1), (h, n_q, n_k), (h, n_q, 1) softmax sub-steps
    tensor3 weights;                 // (h, n_q, n_k) α_ij
    tensor3 context;                 // (h, n_q, d_h) α·V
    /// With spec.online_block: the online softmax's state after each of T tiles (attn/online_softmax.hpp):
    std::optional<tensor3> online_max, online_rescale, online_sum;  // (h, n_q, T)
    std::optional<tensor3> online_acc;                               // (h, n_q, T·d_h)
    std::optional<tensor3> online_output;                            // (h, n_q, d_h), equal to context
    matrix concat;                   // (n_q, d) heads merged back
    std::optional<matrix> output;    // (n_q, d) concat·W_o + b_o, only with wo
    /// (n_q, n_k) 1 where query i sees key j, 0 where it is masked; only with a mask. Not a
    /// stage (nothing is computed from it alone) but the page draws it beside `masked`.
    std::optional<xt::xtensor<std::uint8_t, 2>> mask;
    /// Query rows (0-based) that see no key: every score is mask_value and the softmax is uniform.
    std::vector<std::size_t> empty_rows;

    /// @brief The stages that apply, in docs/spec.md order.
    std::vector<stage_view> stages() const;
    /// @brief Bytes the stages hold (float32): the memory figure the complexity example plots.
    std::size_t bytes() const;
    /// @brief One stage by id, or nothing when it does not apply.
    std::optional<stage_view> stage(stage_id id) const;
};

/// @brief Validates s and computes every stage. Throws spec_error for a bad spec, and
/// when a value overflows float on the way (so no inf or NaN ever reaches a picture).
trace compute_trace(const spec& s, const kernel_set& kernels = simd_kernels());

}  // namespace attn
