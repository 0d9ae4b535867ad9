// The texts and the last spec a module's traces keep (trace_store.hpp): in the core and in the vision part,
// each module its own.
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
last_spec_read& last_spec() {
    static last_spec_read last;
    return last;
}

}  // namespace attn::wasm
