// Byte-level BPE as Hugging Face's tokenizers runs it for GPT-2, Llama 3 and Qwen2: read from tokenizer.json
// (or GPT-2's vocab.json + merges.txt), then, for a text: added tokens split out, the normalizer (NFC for
// Qwen2), the pre-tokenizer's regex split, each piece's bytes mapped to printable characters, merges applied
// by rank. The three regexes are recognised by their text and run as hand-written matchers (std::regex has no
// \p{L}); a tokenizer.json with another one is refused rather than split differently.
//
// [SECTION] the byte map · the pre-tokenizer splits · reading the files · encoding · tokens for readers
#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>

#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "hf/read_common.hpp"
#include "hf/unicode.hpp"
#include "io/guarded_json.hpp"

namespace attn::hf {
namespace {

namespace uc = unicode;
using json = io::keyed_json;  // a vocabulary is one object of 150,000 keys

// ---- [SECTION] the byte map ----

/// GPT-2's bytes_to_unicode: printable bytes stand for themselves, the others for U+0100 onwards, in order.
const std::vector<char32_t>& byte_chars() {
    static const std::vector<char32_t> map = [] {
        std::vector<char32_t> m(256);
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174);
            m[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
        }
        return m;
    }();
    return map;
}

int byte_of_char(char32_t c) {
    static const std::vector<int> inverse = [] {
        std::vector<int> inv(512, -1);
        for (int b = 0; b < 256; ++b) inv[byte_chars()[static_cast<std::size_t>(b)]] = b;
        return inv;
    }();
    return c < 512 ? inverse[c] : -1;
}

// ---- [SECTION] the pre-tokenizer splits ----

const char* const gpt2_regex = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
const char* const llama3_regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char* const qwen2_regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

bool other(char32_t c) { return !uc::is_space(c) && !uc::is_letter(c) && !uc::is_number(c); }
bool newline(char32_t c) { return c == U'\r' || c == U'\n'; }

/// The length of the contraction ('s 't 're 've 'm 'll 'd) at i, or 0; `fold`: case-insensitively, as (?i:…).
std::size_t contraction(const std::u32string& t, std::size_t i, bool fold) {
    if (t[i] != U'\'' || i + 1 >= t.size()) return 0;
    const auto low = [&](std::size_t k) -> char32_t {
        if (k >= t.size()) return 0;
        const char32_t c = t[k];
        if (!fold) return c;
        if (c == U'\u017F') return U's';  // ſ folds to s under Unicode case folding
        if (c == U'\u212A') return U'k';  // the Kelvin sign folds to k
        return c >= U'A' && c <= U'Z' ? c + 32 : c;
    };
    const char32_t a = low(i + 1), b = low(i + 2);
    if (a == U's' || a == U't' || a == U'm' || a == U'd') return 2;
    if ((a == U'r' || a == U'v') && b == U'e') return 3;
    if (a == U'l' && b == U'l') return 3;
    return 0;
}

/// The run of characters from i for which is(c) holds: its end.
template <class P>
std::size_t run(const std::u32string& t, std::size_t i, P is, std::size_t most = SIZE_MAX) {
    std::size_t j = i;
    while (j < t.size() && j - i < most && is(t[j])) ++j;
    return j;
}

/// \s+(?!\S) then \s+: a whitespace run, leaving its last character to the next piece when a non-space follows.
std::size_t spaces(const std::u32string& t, std::size_t i) {
    const std::size_t j = run(t, i, uc::is_space);
    if (j == t.size() || j - i == 1) return j;
    return j - 1;
}

/// One piece of GPT-2's split at i: its end.
std::size_t gpt2_piece(const std::u32string& t, std::size_t i) {
    if (const std::size_t n = contraction(t, i, false)) return i + n;
    const std::size_t s = t[i] == U' ' && i + 1 < t.size() ? i + 1 : i;  // " ?" before a class
    if (uc::is_letter(t[s])) return run(t, s, uc::is_letter);
    if (uc::is_number(t[s])) return run(t, s, uc::is_number);
    if (other(t[s])) return run(t, s, other);
    return spaces(t, i);
}

/// One piece of Llama 3's (digits 3) or Qwen2's (digits 1) split at i: its end.
std::size_t llama_piece(const std::u32string& t, std::size_t i, std::size_t digits) {
    if (const std::size_t n = contraction(t, i, true)) return i + n;
    const char32_t c = t[i];
    if (uc::is_letter(c)) return run(t, i, uc::is_letter);
    if (!newline(c) && !uc::is_number(c) && i + 1 < t.size() && uc::is_letter(t[i + 1])) return run(t, i + 1, uc::is_letter);
    if (uc::is_number(c)) return run(t, i, uc::is_number, digits);
    const std::size_t s = c == U' ' && i + 1 < t.size() && other(t[i + 1]) ? i + 1 : i;
    if (other(t[s])) return run(t, run(t, s, other), newline);
    // \s*[\r\n]+: whitespace up to and including the run's last line break
    const std::size_t j = run(t, i, uc::is_space);
    for (std::size_t k = j; k > i; --k)
        if (newline(t[k - 1])) return k;
    return spaces(t, i);
}

std::vector<std::u32string> split_text(const std::u32string& t, tokenizer::split how) {
    std::vector<std::u32string> pieces;
    for (std::size_t i = 0; i < t.size();) {
        const std::size_t j = how == tokenizer::split::gpt2 ? gpt2_piece(t, i) : llama_piece(t, i, how == tokenizer::split::llama3 ? 3 : 1);
        pieces.push_back(t.substr(i, j - i));
        i = j;
    }
    return pieces;
}

// ---- [SECTION] reading the files ----

using detail::refuse;

void read_merges_list(const files& f, const std::string& name, const json& merges, tokenizer& tok) {
    if (!merges.is_array()) refuse(f, name, "model.merges is not a list.");
    int rank = 0;
    for (const json& m : merges) {
        std::string key;
        if (m.is_string()) key = m.get<std::string>();
        else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string())
            key = m[0].get<std::string>() + " " + m[1].get<std::string>();
        else refuse(f, name, "merge " + std::to_string(rank) + " is neither \"a b\" nor [\"a\", \"b\"].");
        tok.merge_rank_.emplace(std::move(key), rank++);
    }
}

void set_piece(tokenizer& tok, const std::string& piece, long long id, const files& f, const std::string& name) {
    if (id < 0 || id >= (1 << 22)) refuse(f, name, "the token \"" + user_text(piece) + "\" has the id " + std::to_string(id) + ", outside 0 … 4194303.");
    const auto at = static_cast<std::size_t>(id);
    if (tok.pieces_.size() <= at) tok.pieces_.resize(at + 1);
    tok.pieces_[at] = piece;
    tok.ids_[piece] = static_cast<int>(id);
}

void read_tokenizer_json(const files& f, tokenizer& tok) {
    const std::string name = "tokenizer.json";
    const json j = detail::read_json<json>(f, name, 64ull << 20, 1u << 24);
    const auto fail = [&](const std::string& s) { refuse(f, name, s); };
    if (!j.is_object() || !j.contains("model") || !j["model"].is_object()) fail("it has no \"model\" object.");
    const json& m = j["model"];
    if (m.value("type", std::string()) != "BPE") fail("model.type is " + user_text(m.value("type", json()).dump()) + "; byte-level BPE is read.");
    if (m.value("byte_fallback", false)) fail("model.byte_fallback is true: that is a SentencePiece-style BPE, not the byte-level BPE read here.");
    for (const char* k : {"continuing_subword_prefix", "end_of_word_suffix"})
        if (m.contains(k) && !m[k].is_null() && m[k] != "") fail(std::string("model.") + k + " is set; byte-level BPE has none.");
    if (!m.contains("vocab") || !m["vocab"].is_object()) fail("model.vocab is not an object of token → id.");
    for (auto it = m["vocab"].begin(); it != m["vocab"].end(); ++it) {
        if (!it.value().is_number_integer()) fail("model.vocab[\"" + user_text(it.key()) + "\"] is not a whole number.");
        set_piece(tok, it.key(), it.value().get<long long>(), f, name);
    }
    read_merges_list(f, name, m.value("merges", json()), tok);
    tok.ignore_merges_ = m.value("ignore_merges", false);
    // the normalizer: none, or NFC
    const json norm = j.value("normalizer", json());
    if (!norm.is_null()) {
        if (norm.value("type", std::string()) != "NFC") fail("its normalizer is " + user_text(norm.dump(), 80) + "; none and NFC are read.");
        tok.nfc_ = true;
    }
    // the pre-tokenizer: ByteLevel with GPT-2's regex, or Split(regex) then ByteLevel without one
    const json pre = j.value("pre_tokenizer", json());
    const auto byte_level = [&](const json& p, bool regex) {
        if (p.value("type", std::string()) != "ByteLevel") return false;
        if (p.value("add_prefix_space", false)) fail("its ByteLevel pre-tokenizer adds a prefix space, which is not done here.");
        return p.value("use_regex", true) == regex;
    };
    if (pre.is_object() && byte_level(pre, true)) tok.split_ = tokenizer::split::gpt2;
    else if (pre.is_object() && pre.value("type", std::string()) == "Sequence" && pre.contains("pretokenizers") &&
             pre["pretokenizers"].is_array() && pre["pretokenizers"].size() == 2 && byte_level(pre["pretokenizers"][1], false)) {
        const json& s = pre["pretokenizers"][0];
        const json pattern = s.value("pattern", json::object()).value("Regex", json());
        if (s.value("type", std::string()) != "Split" || s.value("behavior", std::string()) != "Isolated" || s.value("invert", false))
            fail("its pre-tokenizer is not a Split (Isolated) then ByteLevel, as GPT-2's, Llama 3's and Qwen2's are.");
        if (pattern == llama3_regex) tok.split_ = tokenizer::split::llama3;
        else if (pattern == qwen2_regex) tok.split_ = tokenizer::split::qwen2;
        else fail("its pre-tokenizer's regex " + user_text(pattern.dump(), 60) + " is not GPT-2's, Llama 3's or Qwen2's.");
    } else fail("its pre-tokenizer " + user_text(pre.dump(), 80) + " is not GPT-2's, Llama 3's or Qwen2's byte-level split.");
    if (j.contains("added_tokens")) {
        if (!j["added_tokens"].is_array()) fail("added_tokens is not a list.");
        for (const json& a : j["added_tokens"]) {
            if (!a.is_object() || !a.contains("id") || !a["id"].is_number_integer() || !a.contains("content") || !a["content"].is_string() ||
                a["content"].get<std::string>().empty())
                fail("an entry of added_tokens has no whole-number id or no content.");
            for (const char* flag : {"lstrip", "rstrip", "single_word"})
                if (a.contains(flag) && a[flag] == true)
                    fail("the added token \"" + user_text(a["content"].get<std::string>()) + "\" sets " + flag + ", which is not done here.");
            set_piece(tok, a["content"].get<std::string>(), a["id"].get<long long>(), f, name);
            tok.added_.push_back({a["content"].get<std::string>(), a["id"].get<int>(), a.value("special", false)});
        }
    }
}

void read_vocab_and_merges(const files& f, tokenizer& tok) {
    const json vocab = detail::read_json<json>(f, "vocab.json", 64ull << 20, 1u << 24);
    if (!vocab.is_object()) refuse(f, "vocab.json", "it is not an object of token → id.");
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        if (!it.value().is_number_integer()) refuse(f, "vocab.json", "\"" + user_text(it.key()) + "\" is not mapped to a whole number.");
        set_piece(tok, it.key(), it.value().get<long long>(), f, "vocab.json");
    }
    const std::string text = detail::read_text(f, "merges.txt", 64ull << 20);
    json merges = json::array();
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line.rfind("#version", 0) != 0) {
            if (std::count(line.begin(), line.end(), ' ') != 1)
                refuse(f, "merges.txt", "the line \"" + user_text(line) + "\" is not two tokens with one space between.");
            merges.push_back(line);
        }
        at = end + 1;
    }
    read_merges_list(f, "merges.txt", merges, tok);
    tok.split_ = tokenizer::split::gpt2;
    const auto eot = tok.ids_.find("<|endoftext|>");  // GPT-2's one special token, added as its tokenizer files add it
    if (eot != tok.ids_.end()) tok.added_.push_back({"<|endoftext|>", eot->second, true});
}

}  // namespace

tokenizer detail::read_tokenizer(const files& f) {
    tokenizer tok;
    const bool json_file = f.has("tokenizer.json");
    if (!json_file && !(f.has("vocab.json") && f.has("merges.txt")))
        throw spec_error(f.where() + " has no tokenizer.json (nor GPT-2's vocab.json and merges.txt).");
    try {
        if (json_file) read_tokenizer_json(f, tok);
        else read_vocab_and_merges(f, tok);
    } catch (const nlohmann::json::exception& e) {  // value() on a key of another type: one sentence, not an abort
        const std::string what = e.what();
        refuse(f, json_file ? "tokenizer.json" : "vocab.json",
               "a field has the wrong type (" + user_text(what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 2)) + ").");
    }
    if (tok.pieces_.empty()) refuse(f, f.has("tokenizer.json") ? "tokenizer.json" : "vocab.json", "it has no tokens.");
    const std::string vocab_file = f.has("tokenizer.json") ? "tokenizer.json" : "vocab.json";
    for (std::size_t b = 0; b < 256; ++b)  // every byte must have a token, or some text could not be encoded
        if (!tok.ids_.count(uc::encode_utf8(std::u32string(1, byte_chars()[b]))))
            refuse(f, vocab_file, "it has no token for the byte " + std::to_string(b) + ", so it is not a byte-level BPE.");
    for (const auto& [pair, rank] : tok.merge_rank_) {  // as Hugging Face's BPE refuses them: a merge of or into no token
        const std::size_t space = pair.find(' ');
        const std::string left = pair.substr(0, space), right = pair.substr(space + 1);
        for (const std::string& t : {left, right, left + right})
            if (!tok.ids_.count(t))
                refuse(f, f.has("tokenizer.json") ? "tokenizer.json" : "merges.txt",
                       "merge " + std::to_string(rank) + " (\"" + user_text(pair) + "\") needs \"" + user_text(t) + "\", which is not in the vocabulary.");
    }
    std::stable_sort(tok.added_.begin(), tok.added_.end(), [](const tokenizer::added& a, const tokenizer::added& b) {
        return a.content.size() > b.content.size();
    });
    return tok;
}

tokenizer load_tokenizer(const files& f) { return detail::read_tokenizer(f); }

// ---- [SECTION] encoding ----

namespace {

/// The merges applied to one pre-token's byte characters, lowest rank first: its ids.
void encode_piece(const tokenizer& tok, const std::string& mapped, std::vector<int>& out) {
    if (tok.ignore_merges_) {
        const auto whole = tok.ids_.find(mapped);
        if (whole != tok.ids_.end()) {
            out.push_back(whole->second);
            return;
        }
    }
    // Hugging Face's order: the pair of lowest rank first, the leftmost among equals, one merge at a time (a
    // queue, so a long piece costs n log n, not n² scans), each popped pair checked still there and unchanged
    std::vector<std::string> sym;
    for (const char32_t c : uc::decode_utf8(mapped)) sym.push_back(uc::encode_utf8(std::u32string(1, c)));
    const std::size_t n = sym.size(), none = SIZE_MAX;
    std::vector<std::size_t> prev(n), next(n);
    for (std::size_t i = 0; i < n; ++i) prev[i] = i == 0 ? none : i - 1, next[i] = i + 1 == n ? none : i + 1;
    using entry = std::tuple<int, std::size_t, std::size_t>;  // rank, left position, right position
    std::priority_queue<entry, std::vector<entry>, std::greater<entry>> queue;
    const auto rank_of = [&](std::size_t l, std::size_t r) {
        const auto it = tok.merge_rank_.find(sym[l] + " " + sym[r]);
        return it == tok.merge_rank_.end() ? -1 : it->second;
    };
    const auto offer = [&](std::size_t l, std::size_t r) {
        if (l == none || r == none) return;
        const int rank = rank_of(l, r);
        if (rank >= 0) queue.emplace(rank, l, r);
    };
    for (std::size_t i = 0; i + 1 < n; ++i) offer(i, i + 1);
    std::vector<bool> gone(n, false);
    while (!queue.empty()) {
        const auto [rank, l, r] = queue.top();
        queue.pop();
        if (gone[l] || gone[r] || next[l] != r || rank_of(l, r) != rank) continue;  // merged away or changed since
        sym[l] += sym[r];
        gone[r] = true;
        next[l] = next[r];
        if (next[r] != none) prev[next[r]] = l;
        offer(prev[l], l);
        offer(l, next[l]);
    }
    std::vector<std::string> symbols;
    for (std::size_t i = 0; i < n; ++i)
        if (!gone[i]) symbols.push_back(std::move(sym[i]));
    for (const std::string& s : symbols) {
        const auto id = tok.ids_.find(s);
        if (id == tok.ids_.end()) throw spec_error("the tokenizer has no token for \"" + user_text(s) + "\" though its merges make it.");
        out.push_back(id->second);
    }
}

void encode_segment(const tokenizer& tok, const std::string& text, std::vector<int>& out) {
    std::u32string t = uc::decode_utf8(text);
    if (tok.nfc_) t = uc::nfc(t);
    for (const std::u32string& piece : split_text(t, tok.split_)) {
        std::u32string mapped;
        for (const unsigned char b : uc::encode_utf8(piece)) mapped += byte_chars()[b];
        encode_piece(tok, uc::encode_utf8(mapped), out);
    }
}

}  // namespace

std::vector<int> tokenizer::encode(const std::string& text) const {
    uc::decode_utf8(text);  // refuses text that is not UTF-8, before any piece is made
    std::vector<int> out;
    std::size_t start = 0, i = 0;
    while (i < text.size()) {
        const added* hit = nullptr;
        for (const added& a : added_)  // longest first
            if (text.compare(i, a.content.size(), a.content) == 0) {
                hit = &a;
                break;
            }
        if (!hit) {
            ++i;
            continue;
        }
        if (i > start) encode_segment(*this, text.substr(start, i - start), out);
        out.push_back(hit->id);
        i += hit->content.size();
        start = i;
    }
    if (start < text.size()) encode_segment(*this, text.substr(start), out);
    return out;
}

const std::string& tokenizer::piece(int id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= pieces_.size()) throw spec_error("the token id " + std::to_string(id) + " is not the tokenizer's.");
    return pieces_[static_cast<std::size_t>(id)];
}

std::string tokenizer::bytes_of(int id) const {
    const std::string& p = piece(id);
    for (const added& a : added_)
        if (a.id == id) return a.content;
    std::string out;
    for (const char32_t c : uc::decode_utf8(p)) {
        const int b = byte_of_char(c);
        if (b < 0) return p;  // not a byte-level piece: shown as it is
        out += static_cast<char>(b);
    }
    return out;
}

// ---- [SECTION] tokens for readers ----

std::vector<std::string> tokenizer::readable(const std::vector<int>& ids) const {
    // the text's bytes, which token holds each, then each UTF-8 character with the tokens it spans
    std::string all;
    std::vector<std::size_t> owner;
    for (std::size_t t = 0; t < ids.size(); ++t) {
        const std::string b = bytes_of(ids[t]);
        all += b;
        owner.insert(owner.end(), b.size(), t);
    }
    std::vector<std::string> out(ids.size());
    for (std::size_t i = 0; i < all.size();) {
        const unsigned char lead = static_cast<unsigned char>(all[i]);
        std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 1;
        if (i + len > all.size()) len = 1;
        std::string ch = all.substr(i, len);
        try {
            uc::decode_utf8(ch);
        } catch (const spec_error&) {
            ch = "\xEF\xBF\xBD", len = 1;  // a byte that starts no character: U+FFFD, as a decoder shows it
        }
        const std::size_t first = owner[i], last = owner[i + len - 1];
        for (std::size_t t = first; t <= last; ++t)
            out[t] += first == last ? ch : ch + "(" + std::to_string(t - first + 1) + "/" + std::to_string(last - first + 1) + ")";
        i += len;
    }
    return out;
}

}  // namespace attn::hf
