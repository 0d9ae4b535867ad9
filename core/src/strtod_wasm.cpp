// strtod and strtof for the WebAssembly build only, on Debian's fast_float (libfast-float-dev):
// exactly rounded like the C library's, about twenty times faster. Emscripten's C library converts
// a decimal in about 1.8 µs (glibc: 0.09 µs), and nlohmann's JSON reader calls strtod for every
// number of a spec, so reading the spec was most of a small example's a.trace() time. The C
// library's strtod.o defines the six functions below: defining all of them here keeps it out of the
// link (two definitions would not link). Locales are the C locale in WebAssembly, so the _l forms
// are the plain ones. Nothing in the module reads a long double, so strtold reads a double.
// Input outside fast_float's syntax (hex floats, "inf"), which no caller in the module writes, reads
// as no number, as the C functions do for text they cannot read.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <locale.h>

#include <fast_float/fast_float.h>

namespace {

template <class T>
T read_decimal(const char* text, char** end) {
    const char* p = text;
    while (std::isspace(static_cast<unsigned char>(*p))) ++p;
    const bool plus = *p == '+';  // strtod takes a leading '+', fast_float does not
    T value = 0;
    const fast_float::from_chars_result r = fast_float::from_chars(p + plus, p + std::strlen(p), value);
    if (end) *end = const_cast<char*>(r.ec == std::errc() ? r.ptr : text);
    return r.ec == std::errc() ? value : T(0);
}

}  // namespace

extern "C" {
double strtod(const char* text, char** end) { return read_decimal<double>(text, end); }
float strtof(const char* text, char** end) { return read_decimal<float>(text, end); }
long double strtold(const char* text, char** end) { return read_decimal<double>(text, end); }
double strtod_l(const char* text, char** end, locale_t) { return read_decimal<double>(text, end); }
float strtof_l(const char* text, char** end, locale_t) { return read_decimal<float>(text, end); }
long double strtold_l(const char* text, char** end, locale_t) { return read_decimal<double>(text, end); }
}
