// The hot loops of the vision blocks, as twins like attn/kernels.hpp: attn::simd (4-lane vectors)
// and attn::scalar (the obvious loops the tests compare against). Pooling is row_mean/row_max
// (per channel over its pixels) and col_mean/col_max (per pixel over the channels); the
// convolutions are sums of shifted rows (axpy); the gates multiply rows by a value or a vector.
#pragma once

#include <cstddef>

namespace attn {

struct vision_kernel_set {
    const char* name;
    /// out (rows) = the mean / the largest of each row of in (rows, cols).
    void (*row_mean)(float* out, const float* in, std::size_t rows, std::size_t cols);
    void (*row_max)(float* out, const float* in, std::size_t rows, std::size_t cols);
    /// out (cols) = the mean / the largest of each column of in (rows, cols).
    void (*col_mean)(float* out, const float* in, std::size_t rows, std::size_t cols);
    void (*col_max)(float* out, const float* in, std::size_t rows, std::size_t cols);
    /// y (n) += a·x (n).
    void (*axpy)(float* y, const float* x, float a, std::size_t n);
    /// out (rows, cols) = in with row r times s[r] (a channel gate).
    void (*scale_rows)(float* out, const float* in, const float* s, std::size_t rows, std::size_t cols);
    /// out (rows, cols) = in with every row times v (cols) element by element (a spatial gate).
    void (*mul_rows)(float* out, const float* in, const float* v, std::size_t rows, std::size_t cols);
};

const vision_kernel_set& simd_vision_kernels();
const vision_kernel_set& scalar_vision_kernels();

}  // namespace attn
