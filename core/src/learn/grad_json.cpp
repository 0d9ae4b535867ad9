// A grad spec (a sequence spec plus "loss", "target", "labels", "upstream") in, the gradients out, in the
// format of DESIGN "Gradients and training". Refusals name the field, as for every spec.
#include <string>

#include "attn/grad.hpp"
#include "attn/spec_fields.hpp"
#include "attn/text.hpp"
#include "io/json_read.hpp"

namespace attn {

using namespace json_read;

loss_spec loss_from_json(const json& j, std::size_t n_q, std::size_t d_out) {
    loss_spec l;
    const std::string kind = j.contains("loss") && j["loss"].is_string() ? j["loss"].get<std::string>() : "";
    // each kind and its own field; the others' fields are refused, so that a spec never says two losses at once
    const struct {
        const char *kind, *field, *is_for, *missing;
        loss_spec::kind value;
    } kinds[] = {
        {"mse", "target", "target is for the \"mse\" loss: remove it", "give the n_q × d_out values the last stage should take.", loss_spec::kind::mse},
        {"cross_entropy", "labels", "labels are for the \"cross_entropy\" loss: remove them", "give one column index per query row.",
         loss_spec::kind::cross_entropy},
        {"upstream", "upstream", "upstream is for the \"upstream\" loss: remove it",
         "give dL/dy, the n_q × d_out gradient that a later loss sends back.", loss_spec::kind::upstream},
    };
    const auto* own = j.contains("loss") ? nullptr : &kinds[0];  // mse when no loss is named
    for (const auto& k : kinds)
        if (kind == k.kind) own = &k;
    if (!own) {
        const std::string said = j["loss"].is_string() ? "\"" + user_text(kind) + "\"" : user_text(j["loss"].dump());
        fail("loss " + said + " is unknown: use \"mse\" (with target), \"cross_entropy\" (with labels) or \"upstream\" (with upstream).");
    }
    if (!j.contains(own->field))
        fail(std::string("the loss is \"") + own->kind + "\" but the spec has no \"" + own->field + "\": " + own->missing);
    for (const auto& k : kinds)
        if (&k != own && j.contains(k.field)) fail(std::string(k.is_for) + ", or set loss to \"" + k.kind + "\".");
    l.loss = own->value;
    if (l.loss != loss_spec::kind::cross_entropy) {  // mse's target, upstream's gradient: the last stage's shape
        l.target = read_matrix(j[own->field], own->field);
        if (l.target.shape(0) != n_q || l.target.shape(1) != d_out)
            fail(std::string(own->field) + " is " + std::to_string(l.target.shape(0)) + " × " + std::to_string(l.target.shape(1)) +
                 " but the last stage is " + std::to_string(n_q) + " × " + std::to_string(d_out) + " (n_q × d_out).");
        return l;
    }
    const json& labels = j["labels"];
    if (!labels.is_array() || labels.size() != n_q)
        fail("labels must be an array of " + std::to_string(n_q) + " whole numbers, one per query row.");
    for (std::size_t i = 0; i < n_q; ++i)
        l.labels.push_back(std::size_t(read_whole(labels[i], entry_at("labels", i), 0, static_cast<long long>(d_out) - 1)));
    return l;
}

std::pair<spec, loss_spec> parse_grad_spec(std::string_view text) {
    json j = parse_spec_json(text);
    if (!j.is_object()) fail("the spec must be a JSON object with at least \"x\".");
    json loss_fields = json::object();
    for (const char* key : {"loss", "target", "labels", "upstream"})
        if (j.contains(key)) {
            loss_fields[key] = j[key];
            j.erase(key);
        }
    spec s = spec_from_json(j);
    loss_spec l = loss_from_json(loss_fields, s.n_q(), s.d_model());
    return {std::move(s), std::move(l)};
}

json grad_to_json(const grad_result& r) {
    param_grads& g = const_cast<param_grads&>(r.grads);  // the table's accessors hand out writable spans; only read here
    json grads = json::object();
    for (const tensor_field& f : sequence_tensor_fields()) {
        const float_span v = f.in_grads ? f.in_grads(g) : float_span{};
        if (!v.data || !v.size) continue;
        json& at = json_make(grads, f.grad);  // "wq", "additive.w1": as attn grad has always written them
        at = json::array();
        for (std::size_t k = 0; k < v.size; k += v.cols) {
            json row = json::array();
            for (std::size_t c = 0; c < v.cols; ++c) row.push_back(shortest_decimal(v.data[k + c]));
            if (f.rank == 1) at = std::move(row);
            else at.push_back(std::move(row));
        }
    }
    json stages = json::array();
    for (const stage_view& v : r.adjoint.stages()) {
        json data = json::array();
        for (std::size_t i = 0; i < v.size; ++i) data.push_back(shortest_decimal(v.data[i]));
        stages.push_back({{"id", stage_name(v.id)}, {"shape", v.shape}, {"data", std::move(data)}});
    }
    return {{"loss", shortest_decimal(r.loss)}, {"grads", std::move(grads)}, {"stage_grads", std::move(stages)}};
}

}  // namespace attn
