// A training spec: a sequence spec with "loss" and "train": {"data", "params", "optimizer", "steps"}.
// Every refusal names the field, down to the data item ("train.data[3].target is …").
#include <string>

#include "attn/spec_fields.hpp"
#include "attn/text.hpp"
#include "attn/train.hpp"
#include "io/json_read.hpp"

namespace attn {

using namespace json_read;

namespace {

/// "wq, bq, …, bilinear or learned": the names train.params takes, from the field table.
std::string param_list() {
    std::vector<std::string_view> names;
    for (const tensor_field& f : sequence_tensor_fields())
        if (!f.param.empty()) names.push_back(f.param);
    std::string out;
    for (std::size_t k = 0; k < names.size(); ++k) out += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + std::string(names[k]);
    return out;
}

optimizer_spec read_optimizer(const json& j) {
    require_object(j, "train.optimizer");
    if (j.size() != 1 || !(j.contains("adam") || j.contains("sgd")))
        fail("train.optimizer must be {\"adam\": {\"lr\": …}} or {\"sgd\": {\"lr\": …}}.");
    optimizer_spec o;
    const bool adam = j.contains("adam");
    o.method = adam ? optimizer_spec::kind::adam : optimizer_spec::kind::sgd;
    const std::string where = adam ? "train.optimizer.adam" : "train.optimizer.sgd";
    const json& f = j[adam ? "adam" : "sgd"];
    require_object(f, where);
    refuse_unknown(f, where, adam ? std::set<std::string>{"lr", "beta1", "beta2", "eps"} : std::set<std::string>{"lr"});
    if (!f.contains("lr")) fail(where + " has no \"lr\" (the learning rate).");
    o.lr = read_number(f["lr"], where + ".lr");
    if (!(o.lr > 0.0f)) fail(where + ".lr must be positive.");
    if (adam) {
        if (f.contains("beta1")) o.beta1 = read_number(f["beta1"], where + ".beta1");
        if (f.contains("beta2")) o.beta2 = read_number(f["beta2"], where + ".beta2");
        if (f.contains("eps")) o.eps = read_number(f["eps"], where + ".eps");
        for (const auto& [name, value] : {std::pair{"beta1", o.beta1}, {"beta2", o.beta2}})
            if (!(value >= 0.0f && value < 1.0f)) fail(where + "." + name + " must be at least 0 and below 1.");
        if (!(o.eps > 0.0f)) fail(where + ".eps must be positive.");
    }
    return o;
}

}  // namespace

std::pair<spec, train_spec> parse_train_spec(std::string_view text) {
    json j = parse_spec_json(text);
    if (!j.is_object()) fail("the spec must be a JSON object with at least \"x\".");
    if (!j.contains("train")) fail("the spec has no \"train\": give {\"data\", \"params\", \"optimizer\", \"steps\"}.");
    const json t = j["train"];
    json loss_fields = json::object();
    if (j.contains("loss")) loss_fields["loss"] = j["loss"];
    if (j.contains("upstream") || loss_fields.value("loss", json()) == "upstream")
        fail("the \"upstream\" loss is for one backward pass (the gradient a later loss sends back), not for training: use \"mse\" or "
             "\"cross_entropy\".");
    for (const char* key : {"train", "loss", "target", "labels"}) j.erase(key);
    spec s = spec_from_json(j);
    require_object(t, "train");
    refuse_unknown(t, "train", {"data", "params", "optimizer", "steps"});
    train_spec out;
    if (!t.contains("data") || !t["data"].is_array() || t["data"].empty())
        fail("train.data must be a non-empty array of {\"x\", \"target\"} (or {\"x\", \"labels\"}) items.");
    if (t["data"].size() > 4096) fail("train.data has " + std::to_string(t["data"].size()) + " items; at most 4096.");
    for (std::size_t i = 0; i < t["data"].size(); ++i) {
        const json& item = t["data"][i];
        const std::string where = "train.data[" + std::to_string(i) + "]";
        require_object(item, where);
        refuse_unknown(item, where, {"x", "memory", "target", "labels", "tokens"});
        // an item's own token labels are for pictures of it (the page's train mode); training ignores them
        if (item.contains("tokens") && !item["tokens"].is_object()) fail(where + ".tokens must be {\"query\": […], \"key\": […]}.");
        if (!item.contains("x")) fail(where + " has no \"x\".");
        train_item ti;
        ti.x = read_matrix(item["x"], where + ".x");
        if (item.contains("memory")) ti.memory = read_matrix(item["memory"], where + ".memory");
        if (s.memory.has_value() != ti.memory.has_value())
            fail(where + (s.memory ? " has no \"memory\" but the spec is cross-attention." : " has \"memory\" but the spec is self-attention."));
        const spec si = spec_for_item(s, ti.x, ti.memory);
        try {
            validate(si);
        } catch (const spec_error& e) {
            fail(where + ": " + e.what());
        }
        json fields = loss_fields;
        for (const char* key : {"target", "labels"})
            if (item.contains(key)) fields[key] = item[key];
        try {
            ti.loss = loss_from_json(fields, si.n_q(), si.d_model());
        } catch (const spec_error& e) {
            fail(where + ": " + e.what());
        }
        out.data.push_back(std::move(ti));
    }
    if (!t.contains("params") || !t["params"].is_array() || t["params"].empty())
        fail("train.params must name the parameters to train, e.g. [\"wq\", \"wk\"].");
    for (std::size_t i = 0; i < t["params"].size(); ++i) {
        const json& p = t["params"][i];
        const std::string name = p.is_string() ? p.get<std::string>() : "";
        if (!tensor_param(name))
            fail("train.params[" + std::to_string(i) + "] is " + user_text(p.dump()) + ": use " + param_list() + ".");
        for (const std::string& earlier : out.params)
            if (earlier == name) fail("train.params names " + name + " twice.");
        out.params.push_back(name);
    }
    if (!t.contains("optimizer")) fail("train has no \"optimizer\": give {\"adam\": {\"lr\": 0.01}} or {\"sgd\": {\"lr\": 0.1}}.");
    out.optimizer = read_optimizer(t["optimizer"]);
    if (t.contains("steps")) out.steps = read_whole(t["steps"], "train.steps", 1, 1000000);
    trainer check(s, out);  // refuses a parameter the spec does not have
    return {std::move(s), std::move(out)};
}

}  // namespace attn
