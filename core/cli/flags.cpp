// The flags of attn lm's commands: parsed once, each value read as one kind of number with its range, and
// refused in one sentence naming the flag. Shared by the character model's commands (lm.cpp) and a model
// folder's (hf.cpp).
#include "flags.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "attn/text.hpp"
#include "cli.hpp"

namespace attn::cli {

using namespace attn::lm;


flags parse_flags(const std::vector<std::string>& args, std::size_t from, std::initializer_list<const char*> known) {
    flags f;
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& a = args[i];
        bool ok = false;
        for (const char* k : known) ok = ok || a == k;
        if (!ok) throw spec_error("lm " + args[0] + " does not know the argument \"" + user_text(a) + "\".");
        // which of two values would win is a guess the user should not have to make
        if (f.has(a)) throw spec_error("lm " + args[0] + ": " + a + " is given twice; give it once.");
        if (a == "--heldout") {
            f.values[a] = "1";
            continue;
        }
        if (i + 1 >= args.size()) throw spec_error("lm " + args[0] + ": " + a + " needs a value.");
        f.values[a] = args[++i];
    }
    return f;
}

/// A whole number in [lo, hi] from a flag, or one sentence naming the flag.
long long int_flag(const flags& f, const std::string& name, long long fallback, long long lo, long long hi) {
    return f.has(name) ? whole_number(f.get(name), name, lo, hi) : fallback;
}
long long int_flag(const flags& f, const std::string& name, long long fallback, const char* bound) {
    const lm_bound& b = lm_bound_of(bound);
    return int_flag(f, name, fallback, static_cast<long long>(b.lo), static_cast<long long>(b.hi));
}

/// A number from a flag, written as whole_number reads its text: all of it a decimal (digits, one point, an
/// exponent), with no spaces, '+', hex, inf or nan; a subnormal is a number (its range is the caller's to judge),
/// but a text that is not 0 and reads as 0 is refused rather than taken as 0.
double number_flag(const flags& f, const std::string& name, double fallback) {
    if (!f.has(name)) return fallback;
    const std::string v = f.get(name);
    const auto refuse = [&](const char* why) { throw spec_error(name + " is \"" + user_text(v) + "\" but must be a " + why + "."); };
    const bool decimal = !v.empty() && v.find_first_not_of("0123456789.eE+-") == std::string::npos &&
                         (v[0] == '-' || v[0] == '.' || (v[0] >= '0' && v[0] <= '9'));
    if (!decimal) refuse("number");
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);  // ERANGE for a subnormal too: judged below, not here
    if (end != v.c_str() + v.size() || !std::isfinite(x)) refuse("number");
    const std::string mantissa = v.substr(0, v.find_first_of("eE"));
    if (x == 0 && mantissa.find_first_of("123456789") != std::string::npos) refuse("number a double holds (this one rounds to 0)");
    return x;
}

/// --temperature (0.8), --top-k (0: all), --top-p (1: all) and --seed (0): what sample, next and generate draw with;
/// the temperature and top-p checked here, top-k against the vocabulary once the model's header is read.
generate_options sampling_flags(const flags& f) {
    generate_options o;
    o.temperature = number_flag(f, "--temperature", 0.8);
    check_temperature(o.temperature);
    o.top_k = static_cast<int>(int_flag(f, "--top-k", 0, 0, 65536));
    o.top_p = number_flag(f, "--top-p", 1.0);
    check_bound("top_p", o.top_p);
    o.seed = static_cast<std::uint64_t>(int_flag(f, "--seed", 0, "seed"));
    return o;
}


std::string text_flag(const flags& f, const char* name) {
    if (!f.has(name)) throw spec_error(std::string("give the text with ") + name + ".");
    return f.get(name);
}

/// Reads a file of text, at most the bound "corpus_bytes" of it (/dev/zero must not be read to the end).
std::string read_text_file(const std::string& path) {
    std::error_code ec;
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path, ec)) throw spec_error("cannot read the text file \"" + user_text(path) + "\".");
    const std::size_t most = static_cast<std::size_t>(lm_bound_of("corpus_bytes").hi);
    std::string text(most + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw spec_error("cannot read the text file \"" + user_text(path) + "\".");
    if (static_cast<std::size_t>(in.gcount()) > most)
        throw spec_error("the text file \"" + user_text(path) + "\" is over the limit of " + std::to_string(most >> 20) + " MiB.");
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

}  // namespace attn::cli
