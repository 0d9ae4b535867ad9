// The JSON side of the contract (nlohmann::ordered_json): spec in, trace out, field names as docs/spec.md.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/stages.hpp"
#include "attn/trace.hpp"

namespace attn {

/// Insertion-ordered, so printed specs and traces read in docs/spec.md's order.
using json = nlohmann::ordered_json;

/// @brief Reads a spec from parsed JSON and validates it; throws spec_error naming the field.
spec spec_from_json(const json& j);

/// @brief Parses spec text into a tree under the limits of attn/limits.hpp (text size, nesting,
/// array and object sizes, fields given twice), refusing as soon as one is crossed.
json parse_spec_json(std::string_view text);

/// @brief Parses JSON text into a validated spec; malformed JSON is a spec_error too.
spec parse_spec(std::string_view text);

/// @brief The normalised spec: every default written out, numbers as the floats computed with.
json spec_to_json(const spec& s);

/// @brief {"spec": normalised spec, "axes": axes_json, "stages": [{id, symbol, title, title_zh, explain, scale
/// (stage_facts_json), formula, operands, shape, data}, ...]}, plus "mask": {shape, data of 0/1} and "empty_rows" (query rows that see no
/// key) when the spec has a mask.
json trace_to_json(const trace& t);

/// @brief The same text as trace_to_json(t) plus extra's fields, written straight to out: a trace
/// can hold millions of numbers, whose JSON tree would take many times their memory.
void write_trace_json(std::ostream& out, const trace& t, const json& extra = json::object());

/// @brief The facts every kind's stage has — {id, symbol, title, title_zh, explain: {en, zh}, scale} — as the
/// sequence, vision and language-model registries all write them (each adds its own after these).
json stage_facts_json(const char* id, const char* symbol, bilingual title, bilingual explanation, color_scale scale);

/// @brief The stage registry as JSON: stage_facts_json and {per_head, rows, cols, term, group} a stage, in trace
/// order (rows and cols are axis kinds: "query", "key", "position", "feature", "head_feature", "single", "tile",
/// "tile_feature"; the language model's also "hidden" and "vocab").
json stage_registry_json();

/// @brief {kind: labels} for every axis kind, for this spec (the single axis is named per stage: absent).
json axes_json(const spec& s);

/// @brief A matrix as JSON rows of shortest decimals; a vector as one array of them.
json matrix_json(const xt::xtensor<float, 2>& m);
json vector_json(const vector& v);

/// @brief A float as the shortest decimal that reads back as the same float (0.1f -> 0.1, not 0.100000001).
double shortest_decimal(float f);

}  // namespace attn
