// The worked examples of docs/spec.md, kept as data (core/examples/*.json, compiled in):
// inputs, token labels, and what each example shows, in English and Chinese.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/json.hpp"
#include "attn/vision.hpp"

namespace attn {

/// @brief The example ids, in docs/spec.md's order ("numpy-3x4", "basic-attention", ...).
std::vector<std::string> example_ids();

/// @brief The whole example document: id, source, title, summary, embeddings, notes, spec, variants.
/// Throws spec_error for an unknown id.
const json& example_document(std::string_view id);

/// @brief The spec JSON of an example, with a variant's patch applied (RFC 7386 merge patch).
/// An empty variant is the example's own spec. Throws spec_error for an unknown id or variant.
json example_spec_json(std::string_view id, std::string_view variant = "");

/// @brief The example's spec, validated (a sequence example; a vision example throws spec_error).
spec example_spec(std::string_view id, std::string_view variant = "");

/// @brief True for the vision examples (their spec has "kind": "vision"): se-block, eca-block, ….
bool example_is_vision(std::string_view id);

/// @brief A vision example's spec, validated.
vision_spec example_vision_spec(std::string_view id, std::string_view variant = "");

/// @brief The notes of an example's stages as a variant shows them: {stage id: {"en", "zh"}}, the document's
/// notes with the variant's own on top (a variant whose numbers tell another story says so in its "notes").
json example_notes(std::string_view id, std::string_view variant = "");

/// @brief {"example": document without its spec, "variant": id}: what an example's trace carries besides the trace.
json example_about_json(std::string_view id, std::string_view variant = "");

/// @brief The trace of an example plus {"example": document without its spec, "variant": id}.
json example_trace_json(std::string_view id, std::string_view variant = "");

/// @brief The complexity example's inputs at length n, row-major: x[i][c] = 0.5·sin(0.37·i + 1.3·c).
std::vector<float> complexity_inputs(std::size_t n, std::size_t d);
/// @brief The complexity example's spec at length n: those inputs as x, (n, d).
json complexity_spec_json(std::size_t n, std::size_t d = 16);

}  // namespace attn
