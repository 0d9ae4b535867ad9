// The one call of every module (the core's, wasm/core_call.cpp; its parts': vision_call.cpp, learn_export.cpp,
// explain_call.cpp; the character model's, lm_export.cpp; the model folders', model_call.cpp), all but a.attention's
// kernel (fast_path.cpp: raw floats and a status): attn_call(operation, request, payload). The request is a JSON object; the
// payload, bytes the operation reads whole (a weight file, a corpus), empty for most; the answer is JSON text
// valid until the next call, or null with the sentence in attn_error (text_answer.hpp). A module's table of
// operations is the one list its JavaScript and its types are checked against (attn_call("operations")).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text_answer.hpp"

namespace attn::wasm {

/// Bytes passed beside the request (JavaScript copies them into the heap for the call).
struct payload {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};
using operation = json (*)(const json& request, const payload& bytes);
/// An operation by its name; a module's table is a list of them (a std::map was 2 KB more code in every module).
struct named_operation {
    std::string_view name;
    operation run;
};
using operation_table = std::vector<named_operation>;

/// The module's table (defined by each module), which attn_call reads
/// (one_call.cpp), and the sentence it says when it runs out of memory.
const operation_table& module_operations();
extern const char* const module_out_of_memory;

/// The table's operation named `op` on the request's JSON object; "operations" lists the names.
inline const char* call_operation(const operation_table& table, std::string_view op, std::string_view request, payload bytes,
                                  const char* out_of_memory) {
    return answer(
        [&]() -> json {
            if (op == "operations") {  // in the table's order
                json names = json::array();
                for (const named_operation& entry : table) names.push_back(entry.name);
                return names;
            }
            const auto it = std::find_if(table.begin(), table.end(), [&](const named_operation& entry) { return entry.name == op; });
            if (it == table.end()) throw spec_error("there is no operation \"" + user_text(op) + "\".");
            // the same parser instantiation as the core's spec reader (iterators of a string_view): a second one
            // would be several KB of every module
            // most requests are {} (a trace of an example, a table): no parse for those
            const json r = request == "{}" ? json::object() : json::parse(request.begin(), request.end(), nullptr, false);
            if (r.is_discarded() || !r.is_object()) throw spec_error("the request of " + std::string(op) + " is not a JSON object.");
            return it->run(r, bytes);
        },
        out_of_memory);
}

/// The request's string `key`, refused in one sentence when absent or not a string.
inline std::string text_of(const json& request, const char* key) {
    const auto it = request.find(key);
    if (it == request.end() || !it->is_string()) throw spec_error(std::string("the request needs \"") + key + "\", a string.");
    return it->get<std::string>();
}

/// The request's number `key` (the fallback when absent), refused unless from lo to hi (and whole when asked).
inline double number_of(const json& request, const char* key, double fallback, double lo, double hi, bool whole) {
    const auto it = request.find(key);
    if (it == request.end()) return fallback;
    if (!it->is_number()) throw spec_error(std::string(key) + " must be a number.");
    const double x = it->get<double>();
    // a bound that is a whole number is written as one ("from 0 to 14", not "0.0 to 14.0")
    const auto bound = [](double b) { return std::floor(b) == b && std::fabs(b) < 9e15 ? std::to_string(static_cast<long long>(b)) : json(b).dump(); };
    if (!(x >= lo && x <= hi) || (whole && std::floor(x) != x))
        throw spec_error(std::string(key) + " is " + user_text(it->dump()) + " but must be " + (whole ? "a whole number " : "") + "from " +
                         bound(lo) + " to " + bound(hi) + ".");
    return x;
}

/// The request's flag `key` (false when absent), refused in one sentence unless true or false.
inline bool flag_of(const json& request, const char* key) {
    const auto it = request.find(key);
    if (it != request.end() && !it->is_boolean()) throw spec_error(std::string(key) + " must be true or false.");
    return it != request.end() && it->get<bool>();
}

/// A cell a request names: {stage, head, i, j}, each counted from 0 (as JS's cellArgs bounds them).
struct cell {
    stage_id stage;
    std::size_t head, i, j;
};
inline cell cell_of(const json& request) {
    const auto index = [&](const char* key) { return int(number_of(request, key, 0, -2147483648.0, 2147483647.0, true)); };
    const int head = index("head"), i = index("i"), j = index("j");
    return {checked_cell(text_of(request, "stage"), head, i, j), std::size_t(head), std::size_t(i), std::size_t(j)};
}

}  // namespace attn::wasm
