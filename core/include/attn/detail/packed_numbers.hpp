// Internal to the project, not installed (core/CMakeLists.txt excludes attn/detail/): how the wasm module hands a
// spec's numbers to the JSON reader beside its text (web/src/packed_spec.js packs them; core/src/io/json_read.cpp
// reads them; wasm/trace_paths.hpp keeps what it read). The public API reads specs from JSON text or trees only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

/// @brief Numbers sent beside a spec's JSON text (the npm module's binary transfer, which spares parsing
/// them as text): while one is alive on this thread, a matrix or vector field written as
/// {"$f32": [offset, rows, cols]} (a vector: {"$f32": [offset, n]}) is read from these floats. Without
/// one, or with a reference outside them, such a field is refused like any other non-array.
class packed_numbers {
public:
    packed_numbers(const float* data, std::size_t size);
    ~packed_numbers();
    packed_numbers(const packed_numbers&) = delete;
    packed_numbers& operator=(const packed_numbers&) = delete;
};

/// @brief One packed field a reader took from the numbers: its name as the spec's sentences write it
/// ("x", "weights.wq"), and where its floats were (offset, count).
struct packed_read {
    std::string field;
    std::size_t offset = 0, count = 0;
};

/// @brief While one is alive on this thread (beside a packed_numbers), every packed field read is noted in
/// `reads`, in reading order: what the module needs to write other numbers into the same spec.
class packed_reads_log {
public:
    packed_reads_log();
    ~packed_reads_log();
    packed_reads_log(const packed_reads_log&) = delete;
    packed_reads_log& operator=(const packed_reads_log&) = delete;
    std::vector<packed_read> reads;
};

}  // namespace attn
