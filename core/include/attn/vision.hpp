// Vision attention (seed 002: SE, ECA, CBAM, Coordinate Attention): blocks that gate a C × H × W
// feature map instead of mixing tokens, stepped through stage by stage like the QKV stages. The
// spec is "kind": "vision" (docs/spec.md "Vision attention"); matrices follow the sequence spec's
// convention z·W with W in × out. One header per block (se.hpp, eca.hpp, cbam.hpp, ca.hpp) holds
// its stages; this one the spec, the trace and what they share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/json.hpp"
#include "attn/stages.hpp"

namespace attn {

enum class vision_block { se, eca, cbam, ca };

/// @brief "se", "eca", "cbam" or "ca".
const char* to_string(vision_block b);

/// @brief A fully connected layer on a vector: out = z·w + b, w (in × out) row-major.
struct dense_layer {
    std::size_t in = 0, out = 0;
    std::vector<float> w, b;  // b has `out` entries (zeros when the spec leaves it out)
};

/// @brief Inference-time BatchNorm over m features: (f − mean)/√(var + eps)·γ + β.
struct batch_norm {
    std::vector<float> gamma, beta, mean, var;
    float eps = 1e-5f;
};

struct vision_spec {
    vision_block block = vision_block::se;
    std::size_t c = 0, h = 0, w = 0;          // the feature map's channels, height, width
    std::vector<float> feature;               // C × H × W, row-major
    std::vector<std::string> channels;        // C labels (c1, c2, … when not given)
    dense_layer fc1, fc2;                     // se and cbam: w1 b1, w2 b2; ca: fc1 = w1 b1
    std::vector<float> eca;                   // eca: the k taps of the 1-D convolution (k odd)
    std::size_t kernel = 0;                   // cbam: K of the 2 × K × K spatial kernel (K odd)
    std::vector<float> spatial;               // cbam: 2 × K × K (the mean map's taps, then the max map's)
    float spatial_bias = 0;
    std::optional<batch_norm> bn;             // ca: optional
    dense_layer gate_h, gate_w;               // ca: wh bh, ww bw (m × C)
    /// @brief m: the width of the block's bottleneck (fc1.out), 0 for eca.
    std::size_t hidden() const { return fc1.out; }
};

/// @brief One stage of a vision trace: its id (docs/spec.md), shape and values.
struct vision_stage {
    std::string id;
    std::vector<std::size_t> shape;
    std::vector<float> data;
};

struct vision_trace {
    vision_spec spec;
    std::vector<vision_stage> stages;         // in the block's order, from `feature` to `output`
    const vision_stage* stage(std::string_view id) const;
    std::size_t bytes() const;
};

/// @brief Everything fixed about one vision stage id: titles and explanations in both languages.
struct vision_stage_info {
    const char* id;
    const char* symbol;
    bilingual title;
    bilingual explanation;
    color_scale scale = color_scale::signed_values;  // gates are probabilities, a ReLU's output never negative
};

/// @brief The registry row of a vision stage id; throws spec_error for an unknown id.
const vision_stage_info& vision_stage_info_of(std::string_view id);
/// @brief Every vision stage id with its texts, in the order the blocks use them.
const std::vector<vision_stage_info>& vision_stage_registry();
/// @brief The formula of a stage in a block, e.g. "s = σ(relu(z·W1 + b1)·W2 + b2)".
std::string vision_formula(vision_block b, std::string_view id);
/// @brief The stages a stage of this trace is computed from (the page draws them beside it), in order.
std::vector<std::string> vision_operands(const vision_trace& t, std::string_view id);
/// @brief The labels along a stage's axes, as the page draws them and its exports write them: {cols} of a
/// vector (the channels, or features f1…), {channels, rows, cols} of a C × H × W stage, {rows, cols} of a map
/// (1…; Coordinate Attention's m × (H + W) stages: f1… by h1… w1…; its C × H and C × W stages: channels by 1…).
json vision_axes_json(const vision_trace& t, const vision_stage& st);

/// @brief True when a parsed spec asks for vision ("kind": "vision"); throws for any other kind,
/// and for a spec without kind that carries vision fields (feature, block).
bool is_vision_spec(const json& j);
/// @brief Reads and checks a vision spec; throws spec_error naming the field.
vision_spec vision_spec_from_json(const json& j);
/// @brief Throws spec_error for what the numbers alone can make wrong in a spec read before (a negative
/// ca.bn variance); vision_spec_from_json checks it too. The wasm module calls it after writing new
/// numbers into a spec of the same structure.
void validate_numbers(const vision_spec& s);
/// @brief The normalised vision spec (defaults written out).
json vision_spec_to_json(const vision_spec& s);
/// @brief Every stage of the spec's block (validated first).
vision_trace compute_vision(const vision_spec& s);
/// @brief {"kind": "vision", "spec", "stages": [{id, symbol, title, title_zh, explain, scale (stage_facts_json),
/// formula, operands, axes, shape, data}]}.
json vision_trace_to_json(const vision_trace& t);
/// @brief The arithmetic behind value `index` (flat, row-major in the stage's shape) of a stage,
/// with the trace's numbers, e.g. "gate[2] = σ(fc2[2]) = σ(1.2000) = 0.7685".
std::string explain_vision_cell(const vision_trace& t, std::string_view stage, std::size_t index);

}  // namespace attn

namespace attn {

/// @brief One field of a vision spec's block parameters (or its feature map), named once: the reader, the
/// writer, the packer's cache (wasm/vision_call.cpp) and a.schema() all iterate these rows.
/// Its JSON path ("se.w1"; "ca.bn.gamma" lies in the optional object ca.bn, whose rows are needed when it is
/// given), its rank (0 a number, 1 a list, 2 rows of numbers, 3 a list of matrices), the block it belongs to
/// ("" for every block) and its shape in words: "channels" is the feature map's C, "m" the block's bottleneck
/// (the columns of the first matrix that names it), "k" an odd kernel's width, "K × K" an odd square kernel.
struct vision_tensor_field {
    std::string_view path;
    int rank;
    std::string_view block;
    std::string_view shape;   // e.g. "channels × m", "m", "2 × K × K"; empty for a number
    bool required;            // its block (its object, for ca.bn's rows) needs it; else a default applies
    std::string_view about;   // what a refusal of a missing field says it is; empty: its shape words
    std::vector<float>* (*in_spec)(vision_spec&);  // nullptr when the spec does not have it (ca's bn); rank 0: null
    std::size_t (*item)(const vision_spec&);       // rank 3: one matrix's floats; else 0
    dense_layer* (*layer)(vision_spec&) = nullptr;  // a weight matrix: the layer it is (its bias: bias_of's)
    std::string_view bias_of = {};                  // a bias: the matrix it is added after ("se.w1")
    float* (*number)(vision_spec&) = nullptr;       // rank 0: where the number lives
    std::size_t* (*side)(vision_spec&) = nullptr;   // "K × K" kernels: where K lives
    void (*open)(vision_spec&) = nullptr;           // a row of an optional object (ca.bn): makes it in the spec
};

/// @brief Every field of the vision blocks' parameters, the feature map first, each block's in the order the
/// writer writes them.
const std::vector<vision_tensor_field>& vision_tensor_fields();

/// @brief a.schema()'s vision part: {tensors: [{path, rank, block, shape}]} (the rows of rank 1 to 3).
json vision_schema_json();

}  // namespace attn
