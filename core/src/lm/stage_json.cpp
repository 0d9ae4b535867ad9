// The language model's stage registry as JSON (attn lm stages, m.stages(), each trace stage's facts): the
// same facts and field names as the sequence and vision registries (stage_facts_json), in trace order.
#include "attn/lm_stages.hpp"

namespace attn::lm {
namespace {

const char* layer_ref_name(layer_ref r) {
    switch (r) {
        case layer_ref::global: return "global";
        case layer_ref::same: return "same";
        case layer_ref::previous: return "previous";
        case layer_ref::last: return "last";
    }
    return "";
}

}  // namespace

json model_stage_json(const model_stage_row& row) {
    json out;
    json operands = json::array();
    if (row.own) {
        const model_stage_info& s = *row.own;
        out = stage_facts_json(s.id, s.symbol, s.title, s.explanation, s.scale);
        out["kind"] = "model";
        out["per_layer"] = s.per_layer;
        out["per_head"] = s.per_head;
        out["rows"] = axis_name(s.rows);
        out["cols"] = axis_name(s.cols);
        out["formula"] = s.formula;
        for (const model_operand& op : s.operands) operands.push_back({{"id", op.id}, {"layer", layer_ref_name(op.layer)}});
        out["block"] = s.in_block;
    } else {  // a stage of each layer's attention: the sequence registry's row
        const stage_info& s = stage_info_of(*row.attention);
        out = stage_facts_json(s.name, s.symbol, s.title, s.explanation, s.scale);
        out["kind"] = "attention";
        out["per_layer"] = true;
        out["per_head"] = s.per_head;
        out["rows"] = axis_name(s.rows);
        out["cols"] = axis_name(s.cols);
        out["formula"] = stage_formula(*row.attention, layer_attention_shape());
        // the sequence registry's operands, its input x being the layer's ln_1 (any layer: the same wiring)
        for (const auto& [id, layer] : model_stage_operands(s.name, 0, config{}))
            operands.push_back({{"id", id}, {"layer", "same"}});
        out["block"] = *row.attention == stage_id::output;  // what the residual stream adds: the block strip shows it
    }
    out["operands"] = std::move(operands);
    return out;
}

json model_stage_registry_json() {
    json list = json::array();
    for (const model_stage_row& row : model_stage_order()) list.push_back(model_stage_json(row));
    return list;
}

}  // namespace attn::lm
