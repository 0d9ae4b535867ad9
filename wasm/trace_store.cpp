// The texts and the specs a module's traces keep (trace_store.hpp): in the core and in the vision part,
// each module its own.
#include "trace_store.hpp"

#include <emscripten/emscripten.h>

namespace attn::wasm {

text_cache& layout_texts() {
    static text_cache cache;
    return cache;
}
text_cache& axes_texts() {
    static text_cache cache;
    return cache;
}
spec_store& kept_specs() {
    static spec_store store;
    return store;
}

}  // namespace attn::wasm

// How many traces' specs are kept (a test's view of the store).
extern "C" EMSCRIPTEN_KEEPALIVE int attn_kept_traces() { return int(attn::wasm::kept_specs().size()); }

// The layout or axes text a trace named by id (layoutId, axesId), or null when it is no longer kept.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_cached_text(int id) {
    const std::string* text = attn::wasm::layout_texts().text_of(id);
    if (!text) text = attn::wasm::axes_texts().text_of(id);
    return text ? text->c_str() : nullptr;
}
