// Reading a file's JSON that may be hostile (a safetensors header, config.json, tokenizer.json) and the
// 16-bit floats weight files hold. Shared by the character model's reader (lm/safetensors.cpp) and the
// models-you-bring reader (hf/). Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "attn/json.hpp"

namespace attn::io {

/// @brief IEEE half → float, exactly (subnormals, infinities and NaNs kept).
float half_to_float(std::uint16_t h);
/// @brief float → IEEE half, rounded to nearest even as numpy's astype(float16).
std::uint16_t float_to_half(float f);
/// @brief bfloat16 → float: the 16 bits are float32's upper half.
inline float bf16_to_float(std::uint16_t b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    __builtin_memcpy(&f, &bits, 4);
    return f;
}

/// @brief JSON text parsed as nlohmann does, but refused, in one sentence starting with `prefix` and naming
/// `what`, when it nests deeper than `most_nesting` (counted over the bytes before any parsing), holds more
/// than `most_values` values, gives a key twice in one object, or is not JSON: the tree is never built for a
/// hostile text.
template <class Json = json>
Json parse_guarded(const std::uint8_t* text, std::size_t size, const std::string& prefix, const std::string& what,
                   std::uint64_t most_values, std::uint64_t most_nesting);
/// @brief For files of 100,000 keys (a tokenizer's vocabulary): json keeps its keys in order, and finding one
/// in an ordered_map is a walk over the keys before it (a 9 MB tokenizer.json took 16 s).
using keyed_json = nlohmann::json;

}  // namespace attn::io
