// How the parts' plain exports answer (the vision part, the learn part): JSON text or a sentence, with no
// Embind (its runtime is 6 KB gzipped of JavaScript in every module that has it). A call returns the text
// (valid until the next call) or null, and then attn_part_error() is the refusal's sentence.
#pragma once

#include <new>
#include <string>
#include <string_view>

#include "attn/attn.hpp"

namespace attn::wasm {

inline std::string& answer_text() {
    static std::string text;
    return text;
}
inline std::string& answer_error() {
    static std::string text;
    return text;
}

/// Runs f (returning the answer's text); a refusal, or running out of memory, becomes null and a sentence.
template <class F>
const char* answer(F&& f) {
    try {
        answer_text() = f();
        return answer_text().c_str();
    } catch (const spec_error& e) {
        answer_error() = e.what();
    } catch (const std::bad_alloc&) {
        answer_error() = "out of memory: the spec is too large for this page's memory.";
    }
    return nullptr;
}

inline std::string_view text_of(const char* p, std::size_t n) { return {p, n}; }

}  // namespace attn::wasm
