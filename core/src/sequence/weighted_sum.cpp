#include "attn/weighted_sum.hpp"

namespace attn {

tensor3 weighted_sum(const tensor3& weights, const tensor3& v, const kernel_set& kernels) {
    const std::size_t heads = weights.shape(0), n_q = weights.shape(1), n_k = weights.shape(2), d_h = v.shape(2);
    tensor3 c = tensor3::from_shape({heads, n_q, d_h});
    for (std::size_t h = 0; h < heads; ++h)
        kernels.matmul(c.data() + h * n_q * d_h, weights.data() + h * n_q * n_k, v.data() + h * n_k * d_h, n_q, n_k, d_h);
    return c;
}

}  // namespace attn
