#include "attn/positional.hpp"

#include <cmath>

namespace attn {

matrix sinusoidal_encoding(std::size_t n, std::size_t d) {
    matrix pe = matrix::from_shape({n, d});
    for (std::size_t pos = 0; pos < n; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const std::size_t two_i = c - c % 2;  // columns 2i and 2i+1 share a frequency
            const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(two_i) / d);
            pe(pos, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    return pe;
}

matrix learned_encoding(const matrix& table, std::size_t n) {
    const std::size_t d = table.shape(1);
    matrix pe = matrix::from_shape({n, d});
    for (std::size_t pos = 0; pos < n; ++pos)
        for (std::size_t c = 0; c < d; ++c) pe(pos, c) = table(pos, c);
    return pe;
}

}  // namespace attn
