#include <attn/attn.hpp>
#include <cstdio>

int main() {
    const attn::trace t = attn::compute_trace(attn::example_spec("numpy-3x4"));
    std::printf("%.4f %.4f %.4f\n", t.weights(0, 0, 0), t.weights(0, 0, 1), t.weights(0, 0, 2));
    try {
        attn::parse_spec(R"({"x": [[1, 2], [3]]})");
    } catch (const attn::spec_error& e) {
        std::printf("%s\n", e.what());
    }
}
