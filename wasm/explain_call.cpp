// The explain part (attention_explain): the arithmetic behind a result cell of a sequence stage, the
// text a caption shows on hover, focus or while a stage plays. It is a part of its own, loaded the first
// time a page asks, so a post that only shows a stage does not download it (web/README.md, "Parts"):
// about 30 KB of code and its sentences in two languages, which the core's module no longer carries.
// One operation over the one call (one_call.hpp).
#include "one_call.hpp"

namespace {

using namespace attn;

/// {stage, head, i, j, detail}: the arithmetic of result cell (i, j) of a stage, head `head`, of the payload's
/// sequence spec (attn::explain_cell), as text. The trace of the last spec asked about is kept: the page asks
/// for one value at a time (hover, animation) about the same spec.
json explain(const json& r, const wasm::payload& spec) {
    static wasm::kept_for_text<trace> last;
    const wasm::cell c = wasm::cell_of(r);
    const trace& t = last.of(spec.text(), [&] { return compute_trace(parse_spec(spec.text())); });
    return explain_cell(t, c.stage, c.head, c.i, c.j, wasm::flag_of(r, "detail"));
}

}  // namespace

const attn::wasm::operation_table& attn::wasm::module_operations() {
    static const operation_table table = {{"explain", explain}};
    return table;
}
const char* const attn::wasm::module_out_of_memory = attn::wasm::spec_out_of_memory;
