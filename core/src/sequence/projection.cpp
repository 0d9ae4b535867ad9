#include "attn/projection.hpp"

namespace attn {

matrix project(const matrix& x, const projection& p, const kernel_set& kernels) {
    // d_model in, W's columns out: d_model, or d_kv for the keys and values of shared key/value heads
    const std::size_t n = x.shape(0), d_in = x.shape(1), d_out = p.w ? p.w->shape(1) : d_in;
    matrix y;
    if (p.w) {
        y = matrix::from_shape({n, d_out});
        kernels.matmul(y.data(), x.data(), p.w->data(), n, d_in, d_out);
    } else {
        y = x;  // seed 002: without W, Q = K = V = X
    }
    if (p.b) {  // b (d_out) added to each of the n rows; a loop, as xtensor's broadcasting stepper cost more than the product
        const float* b = p.b->data();
        float* row = y.data();
        for (std::size_t i = 0; i < n; ++i, row += d_out)
            for (std::size_t j = 0; j < d_out; ++j) row[j] += b[j];
    }
    return y;
}

}  // namespace attn
