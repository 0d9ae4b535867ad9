// attn lm's flags (flags.cpp): "--name value" pairs, each command naming the ones it knows.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "attn/lm.hpp"

namespace attn::cli {

struct flags {
    std::map<std::string, std::string> values;
    bool has(const std::string& k) const { return values.count(k) != 0; }
    std::string get(const std::string& k, const std::string& fallback = "") const {
        const auto it = values.find(k);
        return it == values.end() ? fallback : it->second;
    }
};

/// @brief args[from …] as flags: an unknown one, one given twice or one without its value refused by name.
flags parse_flags(const std::vector<std::string>& args, std::size_t from, std::initializer_list<const char*> known);
/// @brief A whole number in [lo, hi] from a flag, or one sentence naming the flag.
long long int_flag(const flags& f, const std::string& name, long long fallback, long long lo, long long hi);
/// @brief The same with the range of lm_bounds()'s `bound`.
long long int_flag(const flags& f, const std::string& name, long long fallback, const char* bound);
/// @brief A decimal number from a flag (no hex, inf or nan; a nonzero text that rounds to 0 refused).
double number_flag(const flags& f, const std::string& name, double fallback);
/// @brief --temperature, --top-k, --top-p and --seed as generate_options (n left at its default).
lm::generate_options sampling_flags(const flags& f);
/// @brief The flag's text, or "give the text with NAME."
std::string text_flag(const flags& f, const char* name);
/// @brief A file of text, at most the bound "corpus_bytes" of it, or one sentence naming the file.
std::string read_text_file(const std::string& path);

}  // namespace attn::cli
