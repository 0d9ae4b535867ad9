// The Unicode pieces the Hugging Face byte-level BPE tokenizers need (GPT-2, Llama 3, Qwen2): their
// pre-tokenizer regexes split on \p{L}, \p{N} and \s, and Qwen2's tokenizer.json normalizer is NFC. The
// tables behind them (hf/unicode_tables.hpp) are generated from Python's unicodedata at configure time by
// core/cmake/unicode_tables.py; the header names the Unicode version.
#pragma once

#include <string>
#include <string_view>

namespace attn::hf::unicode {

/// @brief \p{L}: the general category starts with L.
bool is_letter(char32_t c);
/// @brief \p{N}: the general category starts with N.
bool is_number(char32_t c);
/// @brief \s as Rust's regex and Oniguruma give it: Unicode White_Space (U+0009–000D, 0020, 0085, 00A0, 1680,
/// 2000–200A, 2028, 2029, 202F, 205F, 3000).
bool is_space(char32_t c);

/// @brief The canonical combining class of c (0 for starters).
int combining_class(char32_t c);

/// @brief Unicode NFC: canonical decomposition (Hangul algorithmic), canonical ordering by combining class,
/// canonical composition (Hangul algorithmic).
std::u32string nfc(const std::u32string& text);
/// @brief True when every code point is below U+0300, where nfc(text) == text: callers may skip nfc().
bool is_nfc_fast(const std::u32string& text);

/// @brief The code points of valid UTF-8 text; throws spec_error "the text is not valid UTF-8 (byte N)."
/// for bad bytes, overlong forms, surrogates and code points past U+10FFFF.
std::u32string decode_utf8(std::string_view text);
/// @brief The UTF-8 bytes of code points (assumed valid: at most U+10FFFF, no surrogates).
std::string encode_utf8(std::u32string_view text);

}  // namespace attn::hf::unicode
