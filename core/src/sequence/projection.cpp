#include "attn/projection.hpp"

namespace attn {

matrix project(const matrix& x, const projection& p, const kernel_set& kernels) {
    const std::size_t n = x.shape(0), d = x.shape(1);
    matrix y;
    if (p.w) {
        y = matrix::from_shape({n, d});
        kernels.matmul(y.data(), x.data(), p.w->data(), n, d, d);
    } else {
        y = x;  // seed 002: without W, Q = K = V = X
    }
    if (p.b) {  // b (d) added to each of the n rows; a loop, as xtensor's broadcasting stepper cost more than the product
        const float* b = p.b->data();
        float* row = y.data();
        for (std::size_t i = 0; i < n; ++i, row += d)
            for (std::size_t j = 0; j < d; ++j) row[j] += b[j];
    }
    return y;
}

}  // namespace attn
