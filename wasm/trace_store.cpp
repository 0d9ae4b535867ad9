// The texts and the specs a module's traces keep (trace_store.hpp): in the core and in the vision part,
// each module its own (their operations cached_text and kept_traces: trace_paths.hpp).
#include "trace_store.hpp"

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
