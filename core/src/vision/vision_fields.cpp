// The vision blocks' parameters (attn/vision.hpp, vision_tensor_field): one row each, its name, shape words
// and member written once, for the reader and the writer (vision_json.cpp), the packer's cache
// (wasm/vision_call.cpp) and a.schema().
#include "attn/vision.hpp"

namespace attn {
namespace {

std::size_t whole(const vision_spec&) { return 0; }

// the accessors of a row, by the member it reaches
#define ATTN_FLOATS(member) [](vision_spec& s) -> std::vector<float>* { return &s.member; }
#define ATTN_LAYER(member) [](vision_spec& s) -> dense_layer* { return &s.member; }
#define ATTN_BN(member) [](vision_spec& s) -> std::vector<float>* { return s.bn ? &s.bn->member : nullptr; }

}  // namespace

const std::vector<vision_tensor_field>& vision_tensor_fields() {
    using field = vision_tensor_field;
    // a dense layer: its weight matrix (in × out, the layer it fills), then its optional bias (out values)
    const auto weights = [](std::string_view path, std::string_view block, std::string_view shape, dense_layer* (*layer)(vision_spec&),
                            std::vector<float>* (*w)(vision_spec&)) {
        return field{path, 2, block, shape, true, {}, w, whole, layer};
    };
    const auto bias = [](std::string_view path, std::string_view block, std::string_view shape, std::string_view of,
                         std::vector<float>* (*b)(vision_spec&)) {
        return field{path, 1, block, shape, false, {}, b, whole, nullptr, of};
    };
    // ca.bn's statistics: the optional object ca.bn, made in the spec when the reader finds it given
    const auto open_bn = [](vision_spec& s) {
        if (!s.bn) s.bn.emplace();
    };
    const auto bn = [open_bn](std::string_view path, std::vector<float>* (*v)(vision_spec&)) {
        return field{path, 1, "ca", "m", true, {}, v, whole, nullptr, {}, nullptr, nullptr, open_bn};
    };
    static const std::vector<field> rows{
        {"feature", 3, "", "C × H × W", true, "the C × H × W feature map the block gates", ATTN_FLOATS(feature),
         [](const vision_spec& s) { return s.h * s.w; }},
        weights("se.w1", "se", "channels × m", ATTN_LAYER(fc1), ATTN_FLOATS(fc1.w)),
        bias("se.b1", "se", "m", "se.w1", ATTN_FLOATS(fc1.b)),
        weights("se.w2", "se", "m × channels", ATTN_LAYER(fc2), ATTN_FLOATS(fc2.w)),
        bias("se.b2", "se", "channels", "se.w2", ATTN_FLOATS(fc2.b)),
        {"eca.w", 1, "eca", "k", true, "the k taps of the 1-D convolution across channels, k odd", ATTN_FLOATS(eca), whole},
        weights("cbam.w1", "cbam", "channels × m", ATTN_LAYER(fc1), ATTN_FLOATS(fc1.w)),
        bias("cbam.b1", "cbam", "m", "cbam.w1", ATTN_FLOATS(fc1.b)),
        weights("cbam.w2", "cbam", "m × channels", ATTN_LAYER(fc2), ATTN_FLOATS(fc2.w)),
        bias("cbam.b2", "cbam", "channels", "cbam.w2", ATTN_FLOATS(fc2.b)),
        {"cbam.spatial", 3, "cbam", "2 × K × K", true, "one K × K kernel for the mean map and one for the max map, K odd",
         ATTN_FLOATS(spatial), [](const vision_spec& s) { return s.kernel * s.kernel; }, nullptr, {}, nullptr,
         [](vision_spec& s) { return &s.kernel; }},
        {"cbam.spatial_bias", 0, "cbam", "", false, {}, nullptr, whole, nullptr, {}, [](vision_spec& s) { return &s.spatial_bias; }},
        weights("ca.w1", "ca", "channels × m", ATTN_LAYER(fc1), ATTN_FLOATS(fc1.w)),
        bias("ca.b1", "ca", "m", "ca.w1", ATTN_FLOATS(fc1.b)),
        bn("ca.bn.gamma", ATTN_BN(gamma)),
        bn("ca.bn.beta", ATTN_BN(beta)),
        bn("ca.bn.mean", ATTN_BN(mean)),
        bn("ca.bn.var", ATTN_BN(var)),
        {"ca.bn.eps", 0, "ca", "positive", false, "it keeps √(var + eps) above 0", nullptr, whole, nullptr, {},
         [](vision_spec& s) { return s.bn ? &s.bn->eps : nullptr; }, nullptr, open_bn},
        weights("ca.wh", "ca", "m × channels", ATTN_LAYER(gate_h), ATTN_FLOATS(gate_h.w)),
        bias("ca.bh", "ca", "channels", "ca.wh", ATTN_FLOATS(gate_h.b)),
        weights("ca.ww", "ca", "m × channels", ATTN_LAYER(gate_w), ATTN_FLOATS(gate_w.w)),
        bias("ca.bw", "ca", "channels", "ca.ww", ATTN_FLOATS(gate_w.b)),
    };
    return rows;
}

#undef ATTN_FLOATS
#undef ATTN_LAYER
#undef ATTN_BN

json vision_schema_json() {
    json tensors = json::array();
    for (const vision_tensor_field& f : vision_tensor_fields())
        if (f.rank > 0) tensors.push_back({{"path", f.path}, {"rank", f.rank}, {"block", f.block}, {"shape", f.shape}});
    return {{"tensors", std::move(tensors)}};
}

}  // namespace attn
