// The Unicode pieces of the Hugging Face tokenizers (core/src/hf/unicode.cpp): \p{L}, \p{N} and \s as the
// pre-tokenizer regexes see them, NFC as Qwen2's normalizer gives it, and UTF-8 decoding that refuses bad bytes.
// The full comparison against Python's unicodedata (every code point, random mixed strings) is in the report
// that introduced the file; these are the cases that must never move.
#include <string>

#include <doctest/doctest.h>

#include "attn/spec.hpp"
#include "hf/unicode.hpp"

namespace {

namespace uc = attn::hf::unicode;

}  // namespace

TEST_CASE("hf.unicode classes: letters, numbers and white space") {
    CHECK(uc::is_letter(U'a'));
    CHECK(uc::is_letter(U'Z'));
    CHECK(uc::is_letter(U'猫'));
    CHECK(uc::is_letter(U'é'));
    CHECK_FALSE(uc::is_letter(U'1'));
    CHECK_FALSE(uc::is_letter(U'\u0301'));  // a combining mark is M, not L
    CHECK(uc::is_number(U'7'));
    CHECK(uc::is_number(U'٣'));  // Arabic-Indic three, Nd
    CHECK(uc::is_number(U'Ⅻ'));  // Roman numeral twelve, Nl
    CHECK(uc::is_number(U'½'));  // No
    CHECK_FALSE(uc::is_number(U'a'));
    CHECK(uc::is_space(U' '));
    CHECK(uc::is_space(U'\n'));
    CHECK(uc::is_space(U'\u00A0'));
    CHECK(uc::is_space(U'\u3000'));
    CHECK_FALSE(uc::is_space(U'\uFEFF'));  // the byte order mark is not White_Space
    CHECK_FALSE(uc::is_space(U'\u200B'));  // nor is the zero width space
    CHECK_FALSE(uc::is_space(U'\u001C'));  // Python's str.isspace says yes; Unicode White_Space says no
}

TEST_CASE("hf.unicode nfc: composition, Hangul, ordering, singletons and exclusions") {
    CHECK(uc::nfc(U"e\u0301") == U"\u00E9");
    CHECK(uc::nfc(U"\u00E9") == U"\u00E9");
    CHECK(uc::nfc(U"\u1100\u1161\u11A8") == U"\uAC01");  // L V T jamo to one syllable
    CHECK(uc::nfc(U"\uAC00\u11A8") == U"\uAC01");        // LV syllable + T
    // the dot below (class 220) sorts before the acute (230) and composes first; no letter is a with dot below
    // and acute, so the acute stays a mark
    CHECK(uc::nfc(U"a\u0301\u0323") == U"\u1EA1\u0301");
    CHECK(uc::nfc(U"a\u0323\u0301") == U"\u1EA1\u0301");
    CHECK(uc::nfc(U"a\u0323\u0302") == U"\u1EAD");  // ậ: a + dot below + circumflex
    CHECK(uc::nfc(U"\u212B") == U"\u00C5");         // Angstrom sign, a singleton, becomes Å
    CHECK(uc::nfc(U"\u0958") == U"\u0915\u093C");   // a composition exclusion stays decomposed
    CHECK(uc::nfc(U"\u0915\u093C") == U"\u0915\u093C");
    CHECK(uc::nfc(U"\u0301e") == U"\u0301e");        // a leading mark has nothing to join
    CHECK(uc::nfc(U"e\u0061\u0301") == U"e\u00E1");  // a mark joins the nearest starter only
    CHECK(uc::nfc(U"hello") == U"hello");
    CHECK(uc::is_nfc_fast(U"hello, world \u00E9"));
    CHECK_FALSE(uc::is_nfc_fast(U"e\u0301"));
}

TEST_CASE("hf.unicode utf8: round trip and refusal naming the byte") {
    const std::string text = "a\u00E9\u732B\U0001F600";
    CHECK(uc::decode_utf8(text) == U"a\u00E9\u732B\U0001F600");
    CHECK(uc::encode_utf8(uc::decode_utf8(text)) == text);
    CHECK_THROWS_WITH_AS(uc::decode_utf8("\xC3("), "the text is not valid UTF-8 (byte 0).", attn::spec_error);
    CHECK_THROWS_WITH_AS(uc::decode_utf8("ab\xFF"), "the text is not valid UTF-8 (byte 2).", attn::spec_error);
    CHECK_THROWS_WITH_AS(uc::decode_utf8("\xED\xA0\x80"), "the text is not valid UTF-8 (byte 0).", attn::spec_error);  // a surrogate
    CHECK_THROWS_WITH_AS(uc::decode_utf8("\xC0\xAF"), "the text is not valid UTF-8 (byte 0).", attn::spec_error);  // overlong
}
