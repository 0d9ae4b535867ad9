// The vision spec <-> JSON: "kind": "vision", a block, a C × H × W feature map and the block's
// parameters. Every refusal is one sentence naming the field, as for the sequence spec.
#include <cmath>

#include "attn/format.hpp"
#include "attn/limits.hpp"
#include "attn/text.hpp"
#include "attn/vision.hpp"
#include "io/json_read.hpp"

namespace attn {
namespace {

using namespace json_read;

const char* const block_names[] = {"se", "eca", "cbam", "ca"};

std::string count(std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

void read_feature(const json& j, vision_spec& s) {
    const std::string name = "feature";
    if (!j.is_array() || j.empty()) fail("feature must be a C × H × W array: one H × W matrix per channel.");
    if (j.size() > max_channels) fail("feature has " + count(j.size(), "channel") + "; at most " + std::to_string(max_channels) + ".");
    s.c = j.size();
    for (std::size_t c = 0; c < s.c; ++c) {
        const matrix m = read_matrix(j[c], "feature[" + std::to_string(c) + "]");
        if (c == 0) s.h = m.shape(0), s.w = m.shape(1);
        else if (m.shape(0) != s.h || m.shape(1) != s.w)
            fail("feature[" + std::to_string(c) + "] is " + std::to_string(m.shape(0)) + " × " + std::to_string(m.shape(1)) +
                 " but feature[0] is " + std::to_string(s.h) + " × " + std::to_string(s.w) + ": every channel needs the same size.");
        if (s.h > max_map_side || s.w > max_map_side)
            fail("feature is " + std::to_string(s.h) + " × " + std::to_string(s.w) + " per channel; at most " + std::to_string(max_map_side) + " on a side.");
        s.feature.insert(s.feature.end(), m.begin(), m.end());
    }
}

/// A dense layer of in × out from `w` (and an optional bias `b`), with its names for the sentences.
dense_layer read_dense(const json& block, const std::string& where, const char* w, const char* b, std::size_t in,
                       std::size_t out, const char* in_what, const char* out_what) {
    const std::string wname = where + "." + w, bname = where + "." + b;
    if (!block.contains(w)) fail(where + " needs " + w + " (" + in_what + " × " + out_what + ").");
    const matrix m = read_matrix(block[w], wname);
    if (in && m.shape(0) != in)
        fail(wname + " has " + count(m.shape(0), "row") + " but needs " + std::to_string(in) + " (" + in_what + ").");
    if (out && m.shape(1) != out)
        fail(wname + " has " + count(m.shape(1), "column") + " but needs " + std::to_string(out) + " (" + out_what + ").");
    if (m.shape(1) > max_channels) fail(wname + " has " + count(m.shape(1), "column") + "; at most " + std::to_string(max_channels) + ".");
    dense_layer l{m.shape(0), m.shape(1), std::vector<float>(m.begin(), m.end()), std::vector<float>(m.shape(1), 0.0f)};
    if (block.contains(b)) {
        const vector v = read_vector(block[b], bname);
        if (v.size() != l.out) fail(bname + " has " + count(v.size(), "value") + " but " + wname + " has " + count(l.out, "column") + ".");
        l.b.assign(v.begin(), v.end());
    }
    return l;
}

std::size_t odd_kernel(std::size_t k, const std::string& name) {
    if (k % 2 == 0) fail(name + " is " + std::to_string(k) + " wide: the kernel size must be odd, so it has a centre.");
    if (k > max_vision_kernel) fail(name + " is " + std::to_string(k) + " wide; at most " + std::to_string(max_vision_kernel) + ".");
    return k;
}

void read_se(const json& j, vision_spec& s) {
    refuse_unknown(j, "se", {"w1", "b1", "w2", "b2"});
    s.fc1 = read_dense(j, "se", "w1", "b1", s.c, 0, "channels", "m");
    s.fc2 = read_dense(j, "se", "w2", "b2", s.fc1.out, s.c, "m, the columns of se.w1", "channels");
}

void read_eca(const json& j, vision_spec& s) {
    refuse_unknown(j, "eca", {"w"});
    if (!j.contains("w")) fail("eca needs w: the k taps of the 1-D convolution across channels (k odd).");
    const vector w = read_vector(j["w"], "eca.w");
    odd_kernel(w.size(), "eca.w");
    s.eca.assign(w.begin(), w.end());
}

void read_cbam(const json& j, vision_spec& s) {
    refuse_unknown(j, "cbam", {"w1", "b1", "w2", "b2", "spatial", "spatial_bias"});
    s.fc1 = read_dense(j, "cbam", "w1", "b1", s.c, 0, "channels", "m");
    s.fc2 = read_dense(j, "cbam", "w2", "b2", s.fc1.out, s.c, "m, the columns of cbam.w1", "channels");
    if (!j.contains("spatial")) fail("cbam needs spatial: 2 × K × K (the taps on the mean map, then on the max map), K odd.");
    const json& sp = j["spatial"];
    if (!sp.is_array() || sp.size() != 2)
        fail("cbam.spatial must be 2 × K × K: one K × K kernel for the mean map and one for the max map.");
    for (std::size_t ch = 0; ch < 2; ++ch) {
        const std::string name = "cbam.spatial[" + std::to_string(ch) + "]";
        const matrix m = read_matrix(sp[ch], name);
        if (m.shape(0) != m.shape(1)) fail(name + " is " + std::to_string(m.shape(0)) + " × " + std::to_string(m.shape(1)) + " but must be square.");
        if (ch == 0) s.kernel = odd_kernel(m.shape(0), name);
        else if (m.shape(0) != s.kernel) fail(name + " is " + std::to_string(m.shape(0)) + " wide but cbam.spatial[0] is " + std::to_string(s.kernel) + ".");
        s.spatial.insert(s.spatial.end(), m.begin(), m.end());
    }
    if (j.contains("spatial_bias")) s.spatial_bias = read_number(j["spatial_bias"], "cbam.spatial_bias");
}

void check_variances(const batch_norm& bn) {
    for (std::size_t o = 0; o < bn.var.size(); ++o)
        if (bn.var[o] < 0) fail("ca.bn.var[" + std::to_string(o) + "] is " + format_cell(bn.var[o]) + ": a variance cannot be negative.");
}

void read_ca(const json& j, vision_spec& s) {
    refuse_unknown(j, "ca", {"w1", "b1", "bn", "wh", "bh", "ww", "bw"});
    s.fc1 = read_dense(j, "ca", "w1", "b1", s.c, 0, "channels", "m");
    const std::size_t m = s.fc1.out;
    s.gate_h = read_dense(j, "ca", "wh", "bh", m, s.c, "m, the columns of ca.w1", "channels");
    s.gate_w = read_dense(j, "ca", "ww", "bw", m, s.c, "m, the columns of ca.w1", "channels");
    if (!j.contains("bn")) return;
    const json& b = j["bn"];
    require_object(b, "ca.bn");
    refuse_unknown(b, "ca.bn", {"gamma", "beta", "mean", "var", "eps"});
    batch_norm bn;
    const auto field = [&](const char* f) {
        const std::string name = std::string("ca.bn.") + f;
        if (!b.contains(f)) fail("ca.bn needs " + std::string(f) + " (m = " + std::to_string(m) + " values).");
        const vector v = read_vector(b[f], name);
        if (v.size() != m) fail(name + " has " + count(v.size(), "value") + " but ca.w1 has " + count(m, "column") + ".");
        return std::vector<float>(v.begin(), v.end());
    };
    bn.gamma = field("gamma"), bn.beta = field("beta"), bn.mean = field("mean"), bn.var = field("var");
    check_variances(bn);
    if (b.contains("eps")) {
        bn.eps = read_number(b["eps"], "ca.bn.eps");
        if (!(bn.eps > 0)) fail("ca.bn.eps is " + format_cell(bn.eps) + " but must be positive (it keeps √(var + eps) above 0).");
    }
    s.bn = bn;
}

}  // namespace

bool is_vision_spec(const json& j) {
    if (!j.is_object()) return false;
    if (!j.contains("kind")) {
        for (const char* f : {"feature", "block", "channels"})
            if (j.contains(f)) fail(std::string(f) + " belongs to a vision spec: add \"kind\": \"vision\".");
        return false;
    }
    if (j["kind"] != "vision")
        fail("kind is " + user_text(j["kind"].dump()) + " but the only kind is \"vision\" (a sequence spec has no kind).");
    return true;
}

void validate_numbers(const vision_spec& s) {
    if (s.bn) check_variances(*s.bn);
}

vision_spec vision_spec_from_json(const json& j) {
    require_object(j, "the spec");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (sequence_spec_fields.count(it.key()))
            fail(user_text(it.key()) + " belongs to the sequence spec; a vision spec has kind, block, feature, channels and its block's parameters.");
    refuse_unknown(j, "the vision spec", {"kind", "block", "feature", "channels", "se", "eca", "cbam", "ca"});
    vision_spec s;
    if (!j.contains("block")) fail("block is missing: \"se\", \"eca\", \"cbam\" or \"ca\".");
    const json& b = j["block"];
    bool known = false;
    for (std::size_t k = 0; k < 4; ++k)
        if (b == block_names[k]) s.block = vision_block(k), known = true;
    if (!known) fail("block is " + user_text(b.dump()) + " but must be \"se\", \"eca\", \"cbam\" or \"ca\".");
    for (const char* other : block_names)
        if (j.contains(other) && std::string(other) != to_string(s.block))
            fail(std::string(other) + " belongs to block \"" + other + "\", but block is \"" + to_string(s.block) + "\".");
    if (!j.contains("feature")) fail("feature is missing: the C × H × W feature map the block gates.");
    read_feature(j["feature"], s);
    if (j.contains("channels")) {
        s.channels = read_labels(j["channels"], "channels");
        if (s.channels.size() != s.c) fail("channels has " + count(s.channels.size(), "label") + " but feature has " + count(s.c, "channel") + ".");
    } else {
        for (std::size_t c = 0; c < s.c; ++c) s.channels.push_back("c" + std::to_string(c + 1));
    }
    const char* block = to_string(s.block);
    if (!j.contains(block)) fail(std::string("block \"") + block + "\" needs its parameters in \"" + block + "\".");
    require_object(j[block], block);
    switch (s.block) {
        case vision_block::se: read_se(j[block], s); break;
        case vision_block::eca: read_eca(j[block], s); break;
        case vision_block::cbam: read_cbam(j[block], s); break;
        case vision_block::ca: read_ca(j[block], s); break;
    }
    if (s.hidden() > max_channels) fail("the bottleneck has " + std::to_string(s.hidden()) + " features; at most " + std::to_string(max_channels) + ".");
    return s;
}

namespace {

json rows_json(const float* data, std::size_t rows, std::size_t cols) {
    json out = json::array();
    for (std::size_t r = 0; r < rows; ++r) {
        json row = json::array();
        for (std::size_t c = 0; c < cols; ++c) row.push_back(shortest_decimal(data[r * cols + c]));
        out.push_back(std::move(row));
    }
    return out;
}

json list_json(const std::vector<float>& v) {
    json out = json::array();
    for (float x : v) out.push_back(shortest_decimal(x));
    return out;
}

void dense_json(json& out, const dense_layer& l, const char* w, const char* b) {
    out[w] = rows_json(l.w.data(), l.in, l.out);
    out[b] = list_json(l.b);
}

}  // namespace

json vision_spec_to_json(const vision_spec& s) {
    json feature = json::array();
    for (std::size_t c = 0; c < s.c; ++c) feature.push_back(rows_json(s.feature.data() + c * s.h * s.w, s.h, s.w));
    json out = {{"kind", "vision"}, {"block", to_string(s.block)}, {"feature", std::move(feature)}, {"channels", s.channels}};
    json p = json::object();
    switch (s.block) {
        case vision_block::se: dense_json(p, s.fc1, "w1", "b1"), dense_json(p, s.fc2, "w2", "b2"); break;
        case vision_block::eca: p["w"] = list_json(s.eca); break;
        case vision_block::cbam: {
            dense_json(p, s.fc1, "w1", "b1"), dense_json(p, s.fc2, "w2", "b2");
            const std::size_t kk = s.kernel * s.kernel;
            p["spatial"] = {rows_json(s.spatial.data(), s.kernel, s.kernel), rows_json(s.spatial.data() + kk, s.kernel, s.kernel)};
            p["spatial_bias"] = shortest_decimal(s.spatial_bias);
            break;
        }
        case vision_block::ca:
            dense_json(p, s.fc1, "w1", "b1");
            if (s.bn)
                p["bn"] = {{"gamma", list_json(s.bn->gamma)}, {"beta", list_json(s.bn->beta)}, {"mean", list_json(s.bn->mean)},
                           {"var", list_json(s.bn->var)}, {"eps", shortest_decimal(s.bn->eps)}};
            dense_json(p, s.gate_h, "wh", "bh"), dense_json(p, s.gate_w, "ww", "bw");
            break;
    }
    out[to_string(s.block)] = std::move(p);
    return out;
}

}  // namespace attn
