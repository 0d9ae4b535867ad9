// The explain part (attention_explain): the arithmetic behind a result cell of a sequence stage, the
// text a caption shows on hover, focus or while a stage plays. It is a part of its own, loaded the first
// time a page asks, so a post that only shows a stage does not download it (web/README.md, "Parts"):
// about 30 KB of code and its sentences in two languages, which the core's module no longer carries.
#include <emscripten/emscripten.h>

#include "attn/attn.hpp"
#include "text_answer.hpp"

// The arithmetic of result cell (i, j) of a stage, head `head` (attn::explain_cell). The trace of the last
// spec asked about is kept: the page asks for one value at a time (hover, animation) about the same spec.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_explain(const char* spec, std::size_t length, const char* stage, std::size_t stage_length,
                                                         int head, int i, int j, int detail) {
    using namespace attn;
    static wasm::kept_for_text<trace> last;
    return wasm::answer([&] {
        const stage_id id = wasm::checked_cell(wasm::text_of(stage, stage_length), head, i, j);
        const std::string_view text = wasm::text_of(spec, length);
        const trace& t = last.of(text, [&] { return compute_trace(parse_spec(text)); });
        return explain_cell(t, id, std::size_t(head), std::size_t(i), std::size_t(j), detail != 0);
    });
}
