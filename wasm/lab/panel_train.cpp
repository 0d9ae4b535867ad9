// The train panel: one of the core's training tasks (attn/tasks.hpp) trained between frames, its loss
// per step, and one sentence of its data shown through the current weights in every other panel. The
// spec panel stays editable while it trains: a value edited there (a weight, or the sentence's X or
// memory) goes into the trainer, so the next step starts from it.
#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>

#include <imgui.h>

#include "lab.hpp"
#include "widgets.hpp"

namespace lab {

void Lab::start_training(const std::string& task) {
    training t;
    t.task = task;
    t.json = attn::training_task_json(task);
    auto [s, settings] = attn::parse_train_spec(t.json.dump());
    t.lr = settings.optimizer.lr;
    t.target = settings.steps;
    t.run = std::make_unique<attn::trainer>(std::move(s), std::move(settings));
    training_ = std::move(t);
    vision_ = false;
    example_.clear(), variant_.clear();
    show_training_item();
}

void Lab::show_training_item() {
    training& t = *training_;
    const attn::train_item& item = t.run->settings().data[std::size_t(t.item)];
    spec_ = attn::spec_for_item(t.run->current(), item.x, item.memory);
    const attn::json& tokens = t.json["train"]["data"][std::size_t(t.item)]["tokens"];
    spec_.query_tokens = tokens["query"].get<std::vector<std::string>>();
    spec_.key_tokens = tokens["key"].get<std::vector<std::string>>();
    recompute();
}

void Lab::training_edited() {
    training& t = *training_;
    attn::spec& trained = t.run->current();
    attn::train_item& item = t.run->data()[std::size_t(t.item)];
    const auto same = [](const auto& a, const auto& b) { return a.shape() == b.shape(); };
    // values only: a changed shape or option would not fit the task's data; the next frame shows the task again
    bool fits = same(spec_.x, item.x) && spec_.memory.has_value() == item.memory.has_value() &&
                (!spec_.memory || same(*spec_.memory, *item.memory)) && spec_.score == trained.score && spec_.heads == trained.heads;
    for (auto [shown, kept] : {std::pair{&spec_.wq, &trained.wq}, {&spec_.wk, &trained.wk}, {&spec_.wv, &trained.wv}, {&spec_.wo, &trained.wo}})
        fits &= shown->w.has_value() == kept->w.has_value() && (!shown->w || same(*shown->w, *kept->w)) &&
                shown->b.has_value() == kept->b.has_value();
    if (!fits) {
        t.error = tr("While it trains, only values can change: press Stop training to change shapes or options.",
                     "训练中只能修改数值：要改形状或选项，请先点“停止训练”。");
        show_training_item();
        return;
    }
    t.error.clear();
    item.x = spec_.x;
    if (spec_.memory) item.memory = *spec_.memory;
    trained.wq = spec_.wq, trained.wk = spec_.wk, trained.wv = spec_.wv, trained.wo = spec_.wo;
}

bool Lab::train_step() {
    training& t = *training_;
    try {
        t.losses.push_back(t.run->step());
        return true;
    } catch (const attn::spec_error& e) {  // an overflow: the core refused the step and kept the weights
        t.error = e.what();
        t.playing = false;
        return false;
    }
}

void Lab::train_frame() {
    training& t = *training_;
    if (!t.playing) return;
    const auto started = std::chrono::steady_clock::now();
    for (int k = 0; k < t.per_frame && t.run->steps_done() < t.target; ++k) {
        if (!train_step()) break;
        if (std::chrono::steady_clock::now() - started > std::chrono::milliseconds(12)) break;  // keep the frame rate
    }
    if (t.run->steps_done() >= t.target) t.playing = false;
    show_training_item();
}

void Lab::panel_train() {
    ImGui::Begin(tr("Train###train", "训练###train"));
    if (!training_) {  // only drawn while a task trains (picked in the spec panel)
        ImGui::End();
        return;
    }
    ImGui::Text("%s: %s", tr("task", "任务"), training_->task.c_str());
    help_marker(zh_ ? "alignment：W_q 和 W_k 学会 猫 → cat。positions：有无位置编码时把序列倒过来。scaling：d = 64 时缩放与不缩放。训练时可以在“输入与权重”面板里修改数值。"
                    : "alignment: W_q and W_k learn 猫 → cat. positions: reversing a sequence with and without PE. scaling: d = 64, scaled or not. "
                      "While it trains, edit values in the spec panel: the next step starts from them.");
    ImGui::SameLine();
    if (ImGui::Button(tr("Stop training", "停止训练"))) {  // the sentence stays, as a spec of its own
        training_.reset();
        ImGui::End();
        return;
    }
    training& t = *training_;
    train_frame();
    if (ImGui::Button(t.playing ? tr("Pause##train", "暂停##train") : tr("Play##train", "播放##train"))) {
        if (!t.playing && t.run->steps_done() >= t.target) t.target += t.run->settings().steps;
        t.playing = !t.playing;
        t.error.clear();
    }
    ImGui::SameLine();
    if (ImGui::Button(tr("Step +1", "单步 +1"))) {
        t.playing = false;
        train_step();
        show_training_item();
    }
    ImGui::SameLine();
    if (ImGui::Button(tr("Reset##train", "重置##train"))) {
        const float lr = t.lr;
        start_training(t.task);
        training_->lr = lr;
        training_->run->set_learning_rate(lr);
        ImGui::End();
        return;
    }
    ImGui::SameLine();
    ImGui::Text(zh_ ? "第 %d 步，共 %d 步" : "step %d of %d", t.run->steps_done(), t.target);
    error_text(t.error);
    if (!t.losses.empty()) {
        std::vector<float> logs;
        for (float l : t.losses) logs.push_back(std::log10(std::max(l, 1e-9f)));
        const std::string label = std::string(tr("loss ", "损失 ")) + attn::format_cell(t.losses.back());
        ImGui::PlotLines("##loss", logs.data(), int(logs.size()), 0, label.c_str(), FLT_MAX, FLT_MAX, ImVec2(ImGui::GetContentRegionAvail().x, 70));  // ImGui 1.86 plots take no -1 width
        ImGui::TextDisabled("%s", tr("log10 of the loss per step; every panel shows this sentence through the current weights",
                                     "每一步损失的 log10；其他面板都用当前权重显示这句话"));
    }
    if (ImGui::SliderFloat(tr("learning rate", "学习率"), &t.lr, 1e-4f, 1.0f, "%.4g", ImGuiSliderFlags_Logarithmic))
        t.run->set_learning_rate(t.lr);
    ImGui::SliderInt(tr("steps per frame", "每帧步数"), &t.per_frame, 1, 50);
    const int items = int(t.run->settings().data.size());
    if (ImGui::SliderInt(tr("sentence", "句子"), &t.item, 0, items - 1, "%d")) show_training_item();
    ImGui::End();
}

}  // namespace lab
