// The Embind surface of the core (the sequence stages), and nothing else: its functions live in convert.cpp,
// the traces in trace_export.cpp, the friendly API in web/src/. The vision and learn parts have plain
// exports (vision_export.cpp, learn_export.cpp).
#include <emscripten/bind.h>

#include "convert.hpp"

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("normalisedSpecJson", &attn::wasm::normalised_spec_json);
    emscripten::function("specOfTrace", &attn::wasm::spec_of_trace);
    emscripten::function("cachedText", &attn::wasm::cached_text);
    emscripten::function("exampleSpecText", &attn::wasm::example_spec_text);
    emscripten::function("examplesJson", &attn::wasm::examples_json);
    emscripten::function("exampleDocumentJson", &attn::wasm::example_document_json);
    emscripten::function("stagesJson", &attn::wasm::stages_json);
    emscripten::function("schemaJson", &attn::wasm::schema_json);
    emscripten::function("limitsJson", &attn::wasm::limits_json);
    emscripten::function("explainResult", &attn::wasm::explain_result);
    emscripten::function("heapInUse", &attn::wasm::heap_in_use);
    emscripten::function("forward", &attn::wasm::forward);
}
