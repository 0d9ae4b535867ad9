// What the readers of a model folder share: a whole small file as parsed JSON, and refusals that name the file
// and the field. Internal to the library.
#pragma once

#include <string>

#include "attn/hf.hpp"
#include "attn/json.hpp"

namespace attn::hf::detail {

/// @brief "config.json in the folder m: " — every refusal about a file starts so.
std::string in_file(const files& f, const std::string& name);
[[noreturn]] void refuse(const files& f, const std::string& name, const std::string& sentence);
/// @brief The file read whole (at most `most_bytes`) and parsed under the JSON guard.
template <class Json = json>
Json read_json(const files& f, const std::string& name, std::uint64_t most_bytes, std::uint64_t most_values);
/// @brief The file read whole (at most `most_bytes`).
std::string read_text(const files& f, const std::string& name, std::uint64_t most_bytes);

config read_config(const files& f);
tokenizer read_tokenizer(const files& f);

}  // namespace attn::hf::detail
