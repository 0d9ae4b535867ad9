// Reading spec fields from parsed JSON, shared by the sequence spec (json.cpp) and the vision spec
// (vision_json.cpp): every refusal is one sentence naming the field, e.g. "x[1] has 3 values but
// x[0] has 4." Internal to the library.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "attn/json.hpp"
#include "attn/types.hpp"

namespace attn::json_read {

[[noreturn]] void fail(const std::string& sentence);
std::string row_of(const std::string& name, std::size_t i);
float read_number(const json& j, const std::string& name);
/// read_number for the elements of a matrix or vector: the field's name is only spelled out when refused.
float read_element(const json& j, const std::string& name, std::size_t i, std::size_t c, bool matrix);
vector read_vector(const json& j, const std::string& name);
matrix read_matrix(const json& j, const std::string& name);
/// A whole number in [lo, hi], read from the JSON value itself (16777217 stays 16777217; 2.00000001 is not 2).
int read_whole(const json& j, const std::string& name, long long lo, long long hi);
std::vector<std::string> read_labels(const json& j, const std::string& name);
void refuse_unknown(const json& j, const std::string& where, const std::set<std::string>& known);
/// The sequence spec's top-level fields (docs/spec.md): what its reader knows, and what the vision reader
/// refuses as "belongs to the sequence spec". One list, so that the two never drift apart.
extern const std::set<std::string> sequence_spec_fields;
void require_object(const json& j, const std::string& name);

}  // namespace attn::json_read
