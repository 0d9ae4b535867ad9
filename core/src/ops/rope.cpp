// Rotary positions (DESIGN.md, "Models you bring"), Hugging Face's convention: in its own file because the
// sequence core and its explanations use it too, without the rest of the op library.
#include <cmath>
#include <vector>

#include "ops/ops.hpp"

namespace attn::ops {

float rope_angle(std::size_t p, std::size_t i, std::size_t dh, double theta) {
    // the inverse frequency in float32 then the angle, as Hugging Face's float32 rotary does
    const float inv = static_cast<float>(1.0 / std::pow(theta, static_cast<double>(2 * i) / static_cast<double>(dh)));
    return static_cast<float>(p) * inv;
}

void rope(float* y, const float* x, std::size_t heads, std::size_t n, std::size_t dh, std::size_t pos0, double theta) {
    const std::size_t half = dh / 2;
    std::vector<float> cs(n * half), sn(n * half);
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t i = 0; i < half; ++i) {
            // cos and sin of the float angle in double, rounded to float (within an ulp of float32's own): the
            // double functions the sinusoidal table links already, rather than a second, float set in each module
            const double angle = rope_angle(pos0 + p, i, dh, theta);
            cs[p * half + i] = static_cast<float>(std::cos(angle));
            sn[p * half + i] = static_cast<float>(std::sin(angle));
        }
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t p = 0; p < n; ++p) {
            const float* a = x + (h * n + p) * dh;
            float* b = y + (h * n + p) * dh;
            for (std::size_t i = 0; i < half; ++i) {
                const float c = cs[p * half + i], s = sn[p * half + i];
                b[i] = a[i] * c - a[i + half] * s;
                b[i + half] = a[i + half] * c + a[i] * s;
            }
        }
}

}  // namespace attn::ops
