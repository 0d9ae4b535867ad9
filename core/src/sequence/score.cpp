#include "attn/score.hpp"

#include <cmath>

namespace attn {

tensor3 score_dot(const tensor3& q, const tensor3& k, const kernel_set& kernels) {
    const std::size_t heads = q.shape(0), n_q = q.shape(1), d_h = q.shape(2), n_k = k.shape(1);
    tensor3 e = tensor3::from_shape({heads, n_q, n_k});
    for (std::size_t h = 0; h < heads; ++h)
        kernels.matmul_bt(e.data() + h * n_q * n_k, q.data() + h * n_q * d_h, k.data() + h * n_k * d_h, n_q, d_h, n_k);
    return e;
}

tensor3 score_additive(const tensor3& q, const tensor3& k, const matrix& w1, const matrix& w2, const vector& v,
                       const kernel_set& kernels) {
    const std::size_t heads = q.shape(0), n_q = q.shape(1), d_h = q.shape(2), n_k = k.shape(1), d_a = v.size();
    tensor3 e = tensor3::from_shape({heads, n_q, n_k});
    matrix a = matrix::from_shape({n_q, d_a}), b = matrix::from_shape({n_k, d_a});
    for (std::size_t h = 0; h < heads; ++h) {
        // pass 1: project queries and keys into the d_a-wide hidden layer once each
        kernels.matmul(a.data(), q.data() + h * n_q * d_h, w1.data(), n_q, d_h, d_a);
        kernels.matmul(b.data(), k.data() + h * n_k * d_h, w2.data(), n_k, d_h, d_a);
        // pass 2: every pair through tanh and onto v
        for (std::size_t i = 0; i < n_q; ++i)
            for (std::size_t j = 0; j < n_k; ++j) {
                float sum = 0.0f;
                for (std::size_t c = 0; c < d_a; ++c) sum += std::tanh(a(i, c) + b(j, c)) * v(c);
                e(h, i, j) = sum;
            }
    }
    return e;
}

tensor3 score_bilinear(const tensor3& q, const tensor3& k, const matrix& w, const kernel_set& kernels) {
    const std::size_t heads = q.shape(0), n_q = q.shape(1), d_h = q.shape(2), n_k = k.shape(1);
    tensor3 e = tensor3::from_shape({heads, n_q, n_k});
    matrix qw = matrix::from_shape({n_q, d_h});
    for (std::size_t h = 0; h < heads; ++h) {
        kernels.matmul(qw.data(), q.data() + h * n_q * d_h, w.data(), n_q, d_h, d_h);
        kernels.matmul_bt(e.data() + h * n_q * n_k, qw.data(), k.data() + h * n_k * d_h, n_q, d_h, n_k);
    }
    return e;
}

tensor3 score(const spec& s, const tensor3& q, const tensor3& k, const kernel_set& kernels) {
    switch (s.score) {
        case score_kind::additive:
            return score_additive(q, k, *s.additive.w1, *s.additive.w2, *s.additive.v, kernels);
        case score_kind::bilinear:
            return score_bilinear(q, k, *s.bilinear, kernels);
        case score_kind::dot:
        case score_kind::scaled_dot:
            break;
    }
    return score_dot(q, k, kernels);
}

tensor3 scale(const tensor3& scores, std::size_t d_head) {
    const float root = std::sqrt(static_cast<float>(d_head));
    tensor3 out = tensor3::from_shape(scores.shape());
    // divided, not multiplied by 1/√d, so the numbers match torch and numpy to the last bit
    for (std::size_t i = 0; i < scores.size(); ++i) out.data()[i] = scores.data()[i] / root;
    return out;
}

}  // namespace attn
