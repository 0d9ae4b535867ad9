// The export of a module that takes operations (one_call.hpp): each such module defines its table
// (module_operations) and the sentence it says when it runs out of memory; this file is the one entry.
#include "one_call.hpp"

extern "C" {

/// attn_call(operation, request JSON, payload bytes; each with its length): one_call.hpp.
const char* attn_call(const char* operation, std::size_t op_len, const char* request, std::size_t len, const std::uint8_t* bytes,
                      std::size_t bytes_len) {
    return attn::wasm::call_operation(attn::wasm::module_operations(), {operation, op_len}, {request, len}, {bytes, bytes_len},
                                      attn::wasm::module_out_of_memory);
}
}
