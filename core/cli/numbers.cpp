// Whole numbers from the command line, one way for every flag: all of the text must be the number, and
// a value out of range is refused naming the flag (strtoul read "-1" as 2⁶⁴ − 1 and "abc" as 0).
#include <string>

#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "cli.hpp"

namespace attn::cli {

long long whole_number(const std::string& text, const std::string& flag, long long lo, long long hi) {
    std::size_t used = 0;
    long long n = 0;
    try {
        n = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    const bool starts_right = !text.empty() && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9'));  // no spaces, no +
    if (!starts_right || used != text.size() || n < lo || n > hi)
        throw spec_error(flag + " is \"" + user_text(text) + "\" but must be a whole number from " + std::to_string(lo) + " to " +
                         std::to_string(hi) + ".");
    return n;
}

}  // namespace attn::cli
