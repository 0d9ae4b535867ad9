// @file
// @brief The sequence spec's fields, each named once: its top-level fields in docs/spec.md's order, and
// every matrix and vector with its path, rank, shape and where it lives in a spec and in its gradients.
// The reader, the writer, the validator (its shape and presence rules), the packer
// (wasm/core_call.cpp), the trainer's parameter list, the gradient writer and a.schema() all iterate
// these tables; a new matrix field is one row here (docs/spec.md, "The field table, and adding a field").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attn/grad.hpp"
#include "attn/json.hpp"
#include "attn/spec.hpp"
#include "attn/stages.hpp"

namespace attn {

/// A field's floats in place, row-major, cols to a row (a vector: one row); {nullptr, 0, 0} when the spec
/// (or its gradients) does not have it. `given`: the spec has the field, even empty (an empty vector's data
/// is null: the validator refuses "bq": [] by its length, where the packer and the trainer skip it).
struct float_span {
    float* data = nullptr;
    std::size_t size = 0, cols = 0;
    bool given = false;
};

/// A size a shape's words can name (shape_rule_of).
enum class size_word : unsigned char { none, d_model, d_head, d_kv, d_a, n_q, n_k };

/// One matrix or vector field of a sequence spec.
struct tensor_field {
    std::string_view path;   // its JSON path in a spec, as refusals, packed references and docs name it ("weights.wq")
    int rank;                // 2: an array of rows of numbers; 1: an array of numbers
    std::string_view shape;  // its shape in words ("d_model × d_model")
    std::string_view symbol; // what a reader sees it called, as the articles write it ("W_q"): the editor's label
    std::string_view param;  // its name in "train.params" ("wq"); empty: not trainable
    std::string_view grad;   // its path in attn grad's "grads" ("wq", "additive.w1"); empty: no gradient
    bool packed;             // the JS packer sends it as floats (a 0/1 mask must be read as written)
    float_span (*in_spec)(spec&);
    float_span (*in_grads)(param_grads&);  // null when grad is empty
    /// Reads the field's JSON value into the spec (the reader calls it when the path is present).
    void (*read)(spec&, const json& value, const std::string& path);
    /// The score function it belongs to ("additive"): needed with that score, refused with any other;
    /// empty: any score.
    std::string_view score = {};
    /// The matrix a bias is added after ("weights.wo"): the bias alone is refused; empty: it stands alone.
    std::string_view bias_of = {};
    /// Its shape words read once, when the table is made: the sizes its rows and columns must be (a
    /// vector: rows only); none when the words are not two such names (its rule is its own).
    size_word shape_rows = size_word::none, shape_cols = size_word::none;
    /// What a new one is filled with when an editor adds it: "ones" (a mask that keeps every key), "zeros"
    /// (a learned table that adds nothing); empty: the identity (a vector: ones), what leaving a projection out means.
    std::string_view start = {};
};

/// What validate() requires of a field's shape, read from its shape words: each of "d_model", "d_head",
/// "d_kv" (kv_heads · d_head, the width of K and V), "d_a" (the length of additive.v), "n_q" and "n_k" is that size of the spec. Shapes in other words
/// ("at least max(n_q, n_k) × d_model") are checked by their own rules in validate().
struct shape_rule {
    std::size_t rows, cols;  // a vector: its length in rows, cols 1
};
/// The rule, and with `why` the sizes it names for a refusal ("d_head is 2 and d_a is 3"): validate() runs
/// on every trace, so the words are written only when it refuses.
std::optional<shape_rule> shape_rule_of(const tensor_field& field, const spec& s, std::string* why = nullptr);

/// Every matrix and vector field, in the order the writer writes them.
const std::vector<tensor_field>& sequence_tensor_fields();

/// One field of a sequence spec that holds a whole number, a number or a list of labels (the matrices and
/// vectors are tensor_field rows). The reader, the writer and a.schema() iterate these rows too.
struct scalar_field {
    enum class holds { whole, number, labels };
    std::string_view path;   // "heads", "online_softmax.block", "tokens.query"
    holds kind;
    long long lo, hi;        // a whole number's range
    bool required;           // needed when the object it lies in is given ("online_softmax.block")
    std::string_view about;  // a refusal of a missing one says what to give ("the keys per tile, e.g. …")
    int* (*whole)(spec&);                          // where each kind lives (the others null)
    float* (*number)(spec&);
    std::vector<std::string>* (*labels)(spec&);
    bool (*written)(const spec&);                  // the writer writes it (else the spec leaves it out)
    long long start = 0;                           // a new one's value in an editor (mask {"window": 2}, {"rotary": 10000});
                                                   // 0: a whole one's lo
};

/// What a reader sees a field called, in both languages: the fields an editor has a control for (the kinds
/// and the scalar fields), by path.
struct field_label {
    std::string_view path;
    bilingual label;
};
/// Every such label (a constant table: no code builds it, which in the wasm core was 1 KB gzipped).
const std::array<field_label, 11>& sequence_field_labels();

/// Every scalar field, in the order the writer writes them.
const std::vector<scalar_field>& sequence_scalar_fields();

/// The sequence spec's top-level fields, in docs/spec.md's order (the reader knows these, the writer writes
/// them in this order, and the vision reader refuses them as "belongs to the sequence spec").
const std::vector<std::string_view>& sequence_top_fields();

/// The row of a path, a train.params name, or nullptr.
const tensor_field* tensor_field_at(std::string_view path);
const tensor_field* tensor_param(std::string_view param);

/// The value at a dotted path of j ("weights.wq"), or nullptr when a step is missing or not an object.
const json* json_at(const json& j, std::string_view path);
/// j's value at a dotted path, made (with the objects on the way) if missing.
json& json_make(json& j, std::string_view path);

/// a.schema()'s sequence part: {top: [names], tensors: [{path, rank, shape, symbol, param, grad, packed, score,
/// bias_of, start}], scalars: [{path, kind: "whole" | "number" | "labels", min?, max?, start?}], choices: {score,
/// mask, positional: [names]}, labels: {path: {en, zh}}}.
json sequence_schema_json();

}  // namespace attn
