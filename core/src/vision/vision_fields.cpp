// The vision blocks' matrices and vectors (attn/vision.hpp, vision_tensor_field): one row each, the
// member named once, for the packer's cache (wasm/vision_export.cpp) and a.schema().
#include "attn/vision.hpp"

namespace attn {
namespace {

std::size_t whole(const vision_spec&) { return 0; }

}  // namespace

const std::vector<vision_tensor_field>& vision_tensor_fields() {
    // one dense layer's weights and bias under each block that has one
    using field = vision_tensor_field;
    static const std::vector<field> rows{
        {"feature", 3, "", [](vision_spec& s) { return &s.feature; }, [](const vision_spec& s) { return s.h * s.w; }},
        {"se.w1", 2, "se", [](vision_spec& s) { return &s.fc1.w; }, whole},
        {"se.b1", 1, "se", [](vision_spec& s) { return &s.fc1.b; }, whole},
        {"se.w2", 2, "se", [](vision_spec& s) { return &s.fc2.w; }, whole},
        {"se.b2", 1, "se", [](vision_spec& s) { return &s.fc2.b; }, whole},
        {"eca.w", 1, "eca", [](vision_spec& s) { return &s.eca; }, whole},
        {"cbam.w1", 2, "cbam", [](vision_spec& s) { return &s.fc1.w; }, whole},
        {"cbam.b1", 1, "cbam", [](vision_spec& s) { return &s.fc1.b; }, whole},
        {"cbam.w2", 2, "cbam", [](vision_spec& s) { return &s.fc2.w; }, whole},
        {"cbam.b2", 1, "cbam", [](vision_spec& s) { return &s.fc2.b; }, whole},
        {"cbam.spatial", 3, "cbam", [](vision_spec& s) { return &s.spatial; }, [](const vision_spec& s) { return s.kernel * s.kernel; }},
        {"ca.w1", 2, "ca", [](vision_spec& s) { return &s.fc1.w; }, whole},
        {"ca.b1", 1, "ca", [](vision_spec& s) { return &s.fc1.b; }, whole},
        {"ca.wh", 2, "ca", [](vision_spec& s) { return &s.gate_h.w; }, whole},
        {"ca.bh", 1, "ca", [](vision_spec& s) { return &s.gate_h.b; }, whole},
        {"ca.ww", 2, "ca", [](vision_spec& s) { return &s.gate_w.w; }, whole},
        {"ca.bw", 1, "ca", [](vision_spec& s) { return &s.gate_w.b; }, whole},
        {"ca.bn.gamma", 1, "ca", [](vision_spec& s) { return s.bn ? &s.bn->gamma : nullptr; }, whole},
        {"ca.bn.beta", 1, "ca", [](vision_spec& s) { return s.bn ? &s.bn->beta : nullptr; }, whole},
        {"ca.bn.mean", 1, "ca", [](vision_spec& s) { return s.bn ? &s.bn->mean : nullptr; }, whole},
        {"ca.bn.var", 1, "ca", [](vision_spec& s) { return s.bn ? &s.bn->var : nullptr; }, whole},
    };
    return rows;
}

json vision_schema_json() {
    json tensors = json::array();
    for (const vision_tensor_field& f : vision_tensor_fields()) tensors.push_back({{"path", f.path}, {"rank", f.rank}, {"block", f.block}});
    return {{"tensors", std::move(tensors)}};
}

}  // namespace attn
