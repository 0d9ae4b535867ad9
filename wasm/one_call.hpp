// The one call of the modules that take operations (the character model's, wasm/lm_export.cpp, and the model
// folders', wasm/model_call.cpp): attn_call(operation, request, payload). The request is a JSON object; the
// payload, bytes the operation reads whole (a weight file, a corpus), empty for most; the answer is JSON text
// valid until the next call, or null with the sentence in attn_error (text_answer.hpp). A module's table of
// operations is the one list its JavaScript and its types are checked against (attn_call("operations")).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "text_answer.hpp"

namespace attn::wasm {

/// Bytes passed beside the request (JavaScript copies them into the heap for the call).
struct payload {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};
using operation = json (*)(const json& request, const payload& bytes);
using operation_table = std::map<std::string, operation>;

/// The module's table (defined by each module: wasm/lm_export.cpp, wasm/model_call.cpp), which attn_call reads
/// (one_call.cpp), and the sentence it says when it runs out of memory.
const operation_table& module_operations();
extern const char* const module_out_of_memory;

/// The table's operation named `op` on the request's JSON object; "operations" lists the names.
inline const char* call_operation(const operation_table& table, std::string_view op, std::string_view request, payload bytes,
                                  const char* out_of_memory) {
    return answer(
        [&]() -> json {
            if (op == "operations") {
                json names = json::array();
                for (const auto& entry : table) names.push_back(entry.first);
                return names;
            }
            const auto it = table.find(std::string(op));
            if (it == table.end()) throw spec_error("there is no operation \"" + user_text(op) + "\".");
            // the same parser instantiation as the core's spec reader (iterators of a string_view): a second one
            // would be several KB of every module
            const json r = json::parse(request.begin(), request.end(), nullptr, false);
            if (r.is_discarded() || !r.is_object()) throw spec_error("the request of " + std::string(op) + " is not a JSON object.");
            return it->second(r, bytes);
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
    if (!(x >= lo && x <= hi) || (whole && std::floor(x) != x))
        throw spec_error(std::string(key) + " is " + user_text(it->dump()) + " but must be " + (whole ? "a whole number " : "") + "from " +
                         user_text(json(lo).dump()) + " to " + user_text(json(hi).dump()) + ".");
    return x;
}

}  // namespace attn::wasm
