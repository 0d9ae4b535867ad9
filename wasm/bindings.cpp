// The Embind surface of the core, and nothing else: conversions live in convert.cpp,
// the friendly API in web/src/.
#include <emscripten/bind.h>

#include "convert.hpp"

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("normalisedSpecJson", &attn::wasm::normalised_spec_json);
    emscripten::function("specOfTrace", &attn::wasm::spec_of_trace);
    emscripten::function("cachedText", &attn::wasm::cached_text);
    emscripten::function("examplesJson", &attn::wasm::examples_json);
    emscripten::function("exampleDocumentJson", &attn::wasm::example_document_json);
    emscripten::function("stagesJson", &attn::wasm::stages_json);
    emscripten::function("gradResult", &attn::wasm::grad_result_of);
    emscripten::function("explainGradResult", &attn::wasm::explain_grad_result);
    emscripten::function("taskIdsJson", &attn::wasm::task_ids_json);
    emscripten::function("taskResult", &attn::wasm::task_result);
    emscripten::function("trainerCreate", &attn::wasm::trainer_create);
    emscripten::function("trainerStep", &attn::wasm::trainer_step);
    emscripten::function("trainerCheckSteps", &attn::wasm::trainer_check_steps);
    emscripten::function("trainerSpec", &attn::wasm::trainer_spec);
    emscripten::function("trainerSetLearningRate", &attn::wasm::trainer_set_lr);
    emscripten::function("trainerDelete", &attn::wasm::trainer_delete);
    emscripten::function("visionStagesJson", &attn::wasm::vision_stages_json);
    emscripten::function("explainVisionResult", &attn::wasm::explain_vision_result);
    emscripten::function("limitsJson", &attn::wasm::limits_json);
    emscripten::function("explainResult", &attn::wasm::explain_result);
    emscripten::function("heapInUse", &attn::wasm::heap_in_use);
    emscripten::function("forward", &attn::wasm::forward);
}
