#include "attn/softmax.hpp"

namespace attn {

softmax_steps softmax(const tensor3& scores, const kernel_set& kernels) {
    const std::size_t heads = scores.shape(0), n_q = scores.shape(1), n_k = scores.shape(2);
    softmax_steps s{tensor3::from_shape({heads, n_q, 1}), tensor3::from_shape({heads, n_q, n_k}),
                    tensor3::from_shape({heads, n_q, 1}), tensor3::from_shape({heads, n_q, n_k})};
    // heads × rows are independent rows of one (h·n_q, n_k) matrix
    kernels.softmax_rows(s.weights.data(), s.exp.data(), s.row_max.data(), s.row_sum.data(), scores.data(),
                         heads * n_q, n_k);
    return s;
}

}  // namespace attn
