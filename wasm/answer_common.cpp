// What every module answers alike (the core, its parts, the language model's module: text_answer.hpp).
#include <emscripten/emscripten.h>
#include <malloc.h>

#include "text_answer.hpp"

// The sentence of the last call refused: one that returned null (or a.attention's 1).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_error() { return attn::wasm::answer_error().c_str(); }

// Bytes malloc has handed out and not taken back: the leak check's measure (a.memory()).
extern "C" EMSCRIPTEN_KEEPALIVE double attn_heap_in_use() { return double(mallinfo().uordblks); }
