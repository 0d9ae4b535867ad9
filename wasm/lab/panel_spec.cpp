// The spec panel: where the spec comes from (an example, a variant, a blank one), its options
// (score, heads, mask, positional encoding, cross-attention) and every matrix, editable.
#include <algorithm>

#include <imgui.h>

#include "heatmap.hpp"
#include "lab.hpp"
#include "widgets.hpp"

namespace lab {

void Lab::panel_spec() {
    ImGui::Begin(tr("Spec###spec", "输入与权重###spec"));
    spec_source();
    ImGui::Separator();
    bool changed = spec_options();
    error_text(error_);
    changed |= spec_matrices();
    if (changed) recompute();
    if (changed && training_) training_edited();
    ImGui::End();
}

void Lab::spec_source() {
    if (ImGui::Button(zh_ ? "English" : "中文")) zh_ = !zh_;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("language", "语言"));
    const std::string current = example_.empty() ? tr("blank spec", "空白 spec") : example_;
    if (ImGui::BeginCombo(tr("example", "示例"), current.c_str())) {
        for (const std::string& id : example_ids_)
            if (ImGui::Selectable(id.c_str(), id == example_)) load(id, "");
        if (ImGui::Selectable(tr("blank spec", "空白 spec"), example_.empty())) load_blank();
        ImGui::EndCombo();
    }
    // or train one of the core's tasks: the train panel takes the what-if panel's place
    if (ImGui::BeginCombo(tr("train", "训练"), training_ ? training_->task.c_str() : tr("off", "关闭"))) {
        for (const std::string& id : attn::training_task_ids())
            if (ImGui::Selectable(id.c_str(), training_ && training_->task == id)) start_training(id);
        ImGui::EndCombo();
    }
    if (example_.empty()) return;
    const attn::json& doc = attn::example_document(example_);
    if (doc.contains("variants") && ImGui::BeginCombo(tr("variant", "变体"), variant_.empty() ? "—" : variant_.c_str())) {
        for (const attn::json& v : doc["variants"]) {
            const std::string vid = v["id"].get<std::string>();
            if (ImGui::Selectable(vid.c_str(), vid == variant_)) load(example_, vid);
        }
        ImGui::EndCombo();
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(doc["title"][zh_ ? "zh" : "en"].get<std::string>().c_str());
    ImGui::TextDisabled("%s", doc["embeddings"][zh_ ? "zh" : "en"].get<std::string>().c_str());
    ImGui::PopTextWrapPos();
}

bool Lab::spec_options() {
    bool changed = false;
    if (enum_combo(tr("score", "打分函数"), spec_.score, attn::score_names)) {
        fit_score_params(spec_);
        changed = true;
    }
    if (ImGui::SliderInt(tr("heads", "头数"), &spec_.heads, 1, 8)) {
        fit_score_params(spec_);  // d_head changed with the heads
        changed = true;
    }
    changed |= mask_options();
    // the online softmax's tile size: 0 hides its stages; at most n_k keys a tile
    if (ImGui::SliderInt(tr("online softmax: keys per tile (0: off)", "在线 softmax：每块键数（0：关闭）"), &spec_.online_block, 0,
                         int(spec_.n_k())))
        changed = true;
    if (enum_combo(tr("positional", "位置编码"), spec_.positional, attn::positional_names)) {
        const std::size_t n = std::max(spec_.n_q(), spec_.n_k());
        if (spec_.positional == attn::positional_kind::learned && spec_.learned.shape(0) < n) {
            spec_.learned = attn::matrix::from_shape({n, spec_.d_model()});
            spec_.learned.fill(0.0f);
        }
        changed = true;
    }
    bool cross = spec_.memory.has_value();
    if (ImGui::Checkbox(tr("cross-attention (K, V from a memory)", "交叉注意力（K、V 来自 memory）"), &cross)) {
        if (cross) spec_.memory = spec_.x;  // start from a copy of X: the same numbers, now on the key side
        else spec_.memory.reset(), spec_.key_tokens.clear();
        if (spec_.mask == attn::mask_kind::matrix) spec_.mask = attn::mask_kind::none;  // its shape was n_q × n_k
        changed = true;
    }
    return changed;
}

bool Lab::mask_options() {
    bool changed = false;
    if (enum_combo(tr("mask", "掩码"), spec_.mask, attn::mask_names)) {
        if (spec_.mask == attn::mask_kind::window && spec_.window < 1) spec_.window = 2;
        if (spec_.mask == attn::mask_kind::matrix &&
            (spec_.mask_matrix.shape(0) != spec_.n_q() || spec_.mask_matrix.shape(1) != spec_.n_k())) {
            spec_.mask_matrix = attn::matrix::from_shape({spec_.n_q(), spec_.n_k()});
            spec_.mask_matrix.fill(1.0f);
        }
        changed = true;
    }
    if (spec_.mask == attn::mask_kind::window) changed |= ImGui::SliderInt(tr("window", "窗口"), &spec_.window, 1, 8);
    if (spec_.mask != attn::mask_kind::none)
        changed |= ImGui::InputFloat(tr("mask value", "掩码值"), &spec_.mask_value, 0, 0, "%g", ImGuiInputTextFlags_EnterReturnsTrue);
    if (spec_.mask == attn::mask_kind::matrix) {
        ImGui::TextDisabled("%s", tr("click cells to draw the mask", "点击格子绘制掩码"));
        const int k = heatmap({"##maskdraw", "mask", spec_.mask_matrix.data(), int(spec_.n_q()), int(spec_.n_k()),
                               spec_.query_tokens, {}, attn::color_scale::probability, -1, 26.0f});
        if (k >= 0) {
            spec_.mask_matrix.data()[k] = spec_.mask_matrix.data()[k] != 0.0f ? 0.0f : 1.0f;
            changed = true;
        }
    }
    return changed;
}

bool Lab::spec_matrices() {
    bool changed = false;
    if (ImGui::CollapsingHeader("X", ImGuiTreeNodeFlags_DefaultOpen)) changed |= edit_grid("x", spec_.x);
    if (spec_.memory && ImGui::CollapsingHeader("memory")) changed |= edit_grid("memory", *spec_.memory);
    const std::pair<const char*, attn::projection*> projections[] = {
        {"W_q", &spec_.wq}, {"W_k", &spec_.wk}, {"W_v", &spec_.wv}, {"W_o", &spec_.wo}};
    for (const auto& [name, p] : projections) {
        ImGui::PushID(name);
        bool on = p->w.has_value();
        if (ImGui::Checkbox(name, &on)) {
            if (on) p->w = identity(spec_.d_model());
            else p->w.reset();
            if (!spec_.wo.w) spec_.wo.b.reset();  // b_o alone is refused: it goes with W_o
            changed = true;
        }
        if (p->w) {
            ImGui::SameLine();
            if (ImGui::TreeNode(tr("values", "值"))) {
                changed |= edit_grid(name, *p->w);
                if (p->b) changed |= edit_vector("b", *p->b);
                ImGui::TreePop();
            }
        }
        ImGui::PopID();
    }
    if (spec_.additive.w1 && ImGui::CollapsingHeader("additive W1, W2, v")) {
        changed |= edit_grid("w1", *spec_.additive.w1);
        changed |= edit_grid("w2", *spec_.additive.w2);
        changed |= edit_vector("av", *spec_.additive.v);
    }
    if (spec_.bilinear && ImGui::CollapsingHeader("bilinear W")) changed |= edit_grid("bw", *spec_.bilinear);
    if (spec_.positional == attn::positional_kind::learned && ImGui::CollapsingHeader(tr("learned PE table", "可学习位置表")))
        changed |= edit_grid("pe", spec_.learned);
    return changed;
}

}  // namespace lab
