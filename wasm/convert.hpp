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

/// @brief JSON text: [{id, title: {en, zh}, source: {en, zh}, variants: [ids], default_variant}] in
/// docs/spec.md order; default_variant names the variant whose spec is the example's own ("" if none).
std::string examples_json();

/// @brief JSON text: the stage registry (stage_registry_json), in trace order.
std::string stages_json();
/// A trainer for a spec with "train": {handle, steps} or {error}; then count steps: {losses: Float32Array};
/// its current spec: {text}; and deleting it.
emscripten::val trainer_create(const std::string& spec_json);
emscripten::val trainer_step(int handle, int count);
/// {text: ""} or {error}: the trainer's learning rate from its next step on.
emscripten::val trainer_set_lr(int handle, float lr);
/// @brief Refuses (as an error result) count steps in one call if they are over the training limit.
emscripten::val trainer_check_steps(int handle, double count);
emscripten::val trainer_spec(int handle);
void trainer_delete(int handle);
/// The training tasks' ids, in the page's order (JSON array).
std::string task_ids_json();
/// {text: a training task's train spec as JSON} or {error} (attn/tasks.hpp).
emscripten::val task_result(const std::string& id);
/// {text: the JSON of attn grad for this grad spec} or {error}.
emscripten::val grad_result_of(const std::string& spec_json);
/// {text} or {error}: the chain rule behind one cell of dL/d(stage) for a grad spec (explain_grad_cell).
emscripten::val explain_grad_result(const std::string& spec_json, const std::string& stage, int head, int i, int j, bool detail);

/// @brief JSON text: the vision stage registry, [{id, symbol, title, title_zh, explain: {en, zh}}].
std::string vision_stages_json();

/// @brief {text: the arithmetic of value `index` (row-major) of a vision stage} or {error}; the last trace is kept.
emscripten::val explain_vision_result(const std::string& spec_json, const std::string& stage, int index);

/// @brief JSON text: every documented limit of attn/limits.hpp, camelCase, for the package's `limits`.
std::string limits_json();

/// @brief Bytes malloc has handed out and not taken back: the leak check's measure.
std::size_t heap_in_use();

/// @brief Benchmark entry: out (n, d) = softmax(q·kᵀ/√d)·v on buffers already in the wasm heap.
/// scratch holds 2·n·n + 2·n floats. simd = false runs the scalar twins.
void forward(std::uintptr_t out, std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::uintptr_t scratch,
             int n, int d, bool simd);

}  // namespace attn::wasm
