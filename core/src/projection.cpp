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
    if (p.b) y += *p.b;  // b (d) broadcasts over the n rows
    return y;
}

}  // namespace attn
