// How every module's one call answers (one_call.hpp; the core, its parts, the models' modules): JSON text or
// a sentence, with no Embind (its runtime was 6 KB gzipped of JavaScript in each module). A call returns the
// text (valid until the next call) or null, and then attn_error() is the refusal's sentence; a trace's
// answer is written by its operation (written_answer below: trace_paths.hpp).
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "attn/attn.hpp"
#include "attn/json.hpp"

namespace attn::wasm {

inline std::string& answer_text() {
    static std::string text;
    return text;
}
inline std::string& answer_error() {
    static std::string text;
    return text;
}

/// An answer an operation writes as JSON text itself, into written_answer(), and says so by returning
/// answer_written(), a binary value (which parsed JSON never holds): a trace's, whose JSON object built field by
/// field and written out was 5 µs of a 15 µs trace. The buffer keeps its memory from call to call.
inline std::string& written_answer() {
    static std::string text;
    return text;
}
inline json answer_written() { return json::binary({}); }

/// The sentence of a module whose specs run it out of memory (the core and its parts: module_out_of_memory).
inline constexpr const char* spec_out_of_memory = "out of memory: the spec is too large for this page's memory.";

/// Runs f (returning the answer as JSON, or answer_written()); a refusal, running out of memory (said as
/// `out_of_memory`) or any other exception becomes null and a sentence: nothing escapes into JS.
template <class F>
const char* answer(F&& f, const char* out_of_memory) {
    try {
        const json value = f();
        if (value.is_binary()) return written_answer().c_str();
        answer_text() = value.dump();
        return answer_text().c_str();
    } catch (const spec_error& e) {
        answer_error() = e.what();
    } catch (const std::bad_alloc&) {
        answer_error() = out_of_memory;
    } catch (const std::exception& e) {
        answer_error() = e.what();
    }
    return nullptr;
}

inline std::string_view text_of(const char* p, std::size_t n) { return {p, n}; }

/// What was made from the last spec text asked about, kept: the page asks for one value at a time (hover,
/// animation) about the same spec. A new text drops the old value before making the new one.
template <class T>
struct kept_for_text {
    std::string text;
    std::optional<T> value;
    template <class Make>
    T& of(std::string_view t, Make make) {
        if (!value || t != text) {
            value.reset();
            value.emplace(make());
            text = std::string(t);
        }
        return *value;
    }
};

/// The stage an explain call names, with its cell counted from 0: refused in one sentence otherwise.
inline stage_id checked_cell(std::string_view stage, int head, int i, int j) {
    const auto id = stage_from_name(stage);
    if (!id) throw spec_error("\"" + user_text(stage) + "\" is not a stage id.");
    if (head < 0 || i < 0 || j < 0) throw spec_error("head, row and column are counted from 0 and cannot be negative.");
    return *id;
}

}  // namespace attn::wasm
