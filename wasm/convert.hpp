// What the bindings hand to JavaScript. Every call returns plain data that JS owns:
// strings and one Float32Array copied out of the wasm heap, so nothing needs delete().
// Errors never cross as C++ exceptions: they come back as {error: "sentence"}.
#pragma once

#include <cstdint>
#include <string>

#include <emscripten/val.h>

namespace attn::wasm {

// a.trace and a.example are plain exports (trace_export.cpp); these read back what a trace names.
/// A layout or axes text a trace named by id (layoutId, axesId), else undefined (no longer kept).
emscripten::val cached_text(int id);
/// The normalised spec of the last trace as JSON text when serial is that trace's, else undefined.
emscripten::val spec_of_trace(int serial);
/// {text: the normalised spec as JSON} or {error}: what a trace of spec_json read (an older trace's spec).
emscripten::val normalised_spec_json(const std::string& spec_json);

/// @brief {text: the arithmetic of result cell (i, j) of stage, head (attn::explain_cell)} or {error}.
/// The trace of the last spec asked about is kept, so hovering cell after cell costs no recompute.
emscripten::val explain_result(const std::string& spec_json, const std::string& stage, int head, int i, int j, bool detail);

/// @brief JSON text: the example's document (texts, variants) without its spec.
std::string example_document_json(const std::string& id);

/// @brief JSON text: [{id, kind: "sequence" | "vision", title: {en, zh}, source: {en, zh}, variants: [ids], default_variant}] in
/// docs/spec.md order; default_variant names the variant whose spec is the example's own ("" if none).
std::string examples_json();

/// @brief JSON text: the stage registry (stage_registry_json), in trace order.
std::string stages_json();

/// @brief JSON text: the sequence spec's field tables (attn/spec_fields.hpp), for a.schema().
std::string schema_json();
/// {text: an example's spec as JSON} or {error}: how a vision example's spec reaches the vision part.
emscripten::val example_spec_text(const std::string& id, const std::string& variant);

/// @brief JSON text: every documented limit of attn/limits.hpp, camelCase, for the package's `limits`.
std::string limits_json();

/// @brief Bytes malloc has handed out and not taken back: the leak check's measure.
std::size_t heap_in_use();

/// @brief Benchmark entry: out (n, d) = softmax(q·kᵀ/√d)·v on buffers already in the wasm heap.
/// scratch holds 2·n·n + 2·n floats. simd = false runs the scalar twins.
void forward(std::uintptr_t out, std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::uintptr_t scratch,
             int n, int d, bool simd);

}  // namespace attn::wasm
