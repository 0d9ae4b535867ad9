#include "attn/positional.hpp"

#include <cmath>

#include <xtensor/xview.hpp>

namespace attn {

matrix sinusoidal_encoding(std::size_t n, std::size_t d) {
    // the last table made, per thread: training computes the same n × d table for every item of every
    // step, and pow, sin and cos per element made the PE task train at half the speed of the task without
    thread_local matrix last;
    if (last.dimension() == 2 && last.shape(0) == n && last.shape(1) == d) return last;
    matrix pe = matrix::from_shape({n, d});
    // a loop on purpose: computed in double per element and rounded once (see positional.hpp)
    for (std::size_t pos = 0; pos < n; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const std::size_t two_i = c - c % 2;  // columns 2i and 2i+1 share a frequency
            const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(two_i) / d);
            pe(pos, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    last = pe;
    return pe;
}

matrix learned_encoding(const matrix& table, std::size_t n) {
    return xt::view(table, xt::range(0, n), xt::all());  // nn.Embedding looked up at 0 … n-1
}

}  // namespace attn
