// Attention Lab's state: which spec and trace it shows, loading examples, recomputing after an edit,
// the frame's window layout, and the timeline. The panels live in panel_spec.cpp and panel_stage.cpp.
#include "lab.hpp"

#include <algorithm>

#include <imgui.h>

#include "widgets.hpp"

namespace lab {

// [SECTION] state and loading

Lab::Lab(const options& o) : zh_(o.zh) {
    example_ids_ = attn::example_ids();
    load(o.example, "");
    if (!o.train.empty()) start_training(o.train);
    if (!o.view.empty()) weights_lines_ = o.view == "lines";
    if (!o.stage.empty()) {
        const auto stages = timeline_stages();
        for (std::size_t i = 0; i < stages.size(); ++i)
            if (o.stage == stages[i].id) stage_ = int(i);
    }
}

void Lab::load(const std::string& id, const std::string& variant) {
    training_.reset();  // an example replaces the task being trained
    try {
        if (attn::example_is_vision(id)) {  // a vision block: its own spec and trace
            vspec_ = attn::example_vision_spec(id, variant);
            example_ = id;
            variant_ = variant;
            vision_ = true;
            vchannel_ = 0;
            vparams_.clear();
            error_.clear();
            recompute_vision();
            return;
        }
        vision_ = false;
        spec_ = attn::example_spec(id, variant);
        example_ = id;
        variant_ = variant;
        error_.clear();
        head_ = 0;
        // the sentence examples open their weights as lines (the example document says so)
        weights_lines_ = attn::example_document(id).value("weights_view", "matrix") == "lines";
        lines_heads_.clear();
        recompute();
    } catch (const attn::spec_error& e) {
        error_ = e.what();
    }
}

void Lab::load_blank() {
    vision_ = false;
    spec_ = attn::spec{};
    spec_.x = attn::matrix::from_shape({3, 4});
    spec_.x.fill(0.0f);
    for (std::size_t i = 0; i < 3; ++i) spec_.x(i, i) = 1.0f;
    example_.clear();
    variant_.clear();
    recompute();
}

void Lab::recompute() {
    try {
        attn::trace t = attn::compute_trace(spec_);
        const std::string was = stage_name_;
        trace_ = std::move(t);
        error_.clear();
        const auto stages = trace_->stages();
        stage_ = std::min(stage_, int(stages.size()) - 1);
        for (std::size_t i = 0; i < stages.size(); ++i)
            if (was == attn::stage_name(stages[i].id)) stage_ = int(i);
        head_ = std::min(head_, spec_.heads - 1);
        complexity_.clear();
        // the what-if pair: the same spec with and without the ÷√d_k, computed here, not every frame
        attn::spec with = trace_->spec, without = trace_->spec;
        with.score = attn::score_kind::scaled_dot;
        without.score = attn::score_kind::dot;
        fit_score_params(with);
        fit_score_params(without);
        what_if_error_.clear();
        try {
            with_scaling_ = attn::compute_trace(with);
            without_scaling_ = attn::compute_trace(without);
        } catch (const attn::spec_error& e) {
            with_scaling_.reset(), without_scaling_.reset();
            what_if_error_ = e.what();
        }
    } catch (const attn::spec_error& e) {
        error_ = e.what();  // the picture keeps the last good trace
    }
}

void Lab::frame(float dt) {
    // the first layout is drawn for 1280 × 800 and stretched to the window the lab opens in
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float sx = display.x / 1280.0f, sy = display.y / 800.0f;
    const auto place = [sx, sy](float x, float y, float w, float h) {
        ImGui::SetNextWindowPos(ImVec2(x * sx, y * sy), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(w * sx, h * sy), ImGuiCond_FirstUseEver);
    };
    place(8, 8, 380, 784);
    vision_ ? panel_vision_spec() : panel_spec();
    place(396, 8, 876, 118);
    panel_timeline(dt);
    place(396, 132, 876, 400);
    vision_ ? panel_vision_stage() : panel_stage();
    place(396, 538, 430, 254);
    if (training_) panel_train();
    else if (example_ == "complexity") panel_complexity();
    else if (!vision_) panel_what_if();
    place(834, 538, 438, 254);
    vision_ ? panel_vision_all_stages() : panel_all_stages();
}

std::vector<Lab::timeline_stage> Lab::timeline_stages() const {
    std::vector<timeline_stage> out;
    if (vision_ && vtrace_) {
        for (const attn::vision_stage& s : vtrace_->stages)
            out.push_back({s.id, attn::vision_stage_info_of(s.id).title, float(s.shape.size() == 3 ? s.shape[0] : s.data.size()),
                           attn::vision_formula(vtrace_->spec.block, s.id)});
    } else if (trace_) {
        for (const attn::stage_view& v : trace_->stages())
            out.push_back({attn::stage_name(v.id), attn::stage_title(v.id), float(v.shape.size() == 3 ? v.shape[1] * v.shape[2] : v.size),
                           attn::stage_formula(v.id, trace_->spec)});
    }
    return out;
}

// [SECTION] timeline

void Lab::panel_timeline(float dt) {
    ImGui::Begin(tr("Timeline###timeline", "时间轴###timeline"));
    const auto stages = timeline_stages();
    if (stages.empty()) {
        ImGui::End();
        return;
    }
    const int n = int(stages.size());
    stage_ = std::min(stage_, n - 1);
    if (playing_) {  // a quarter second a result cell, within 1.2 … 5 s a stage (as on the page)
        const float steps = stages[std::size_t(stage_)].steps;
        progress_ += dt * speed_ / std::clamp(steps * 0.25f, 1.2f, 5.0f);
        if (progress_ >= 1.0f) {
            if (stage_ + 1 < n) ++stage_, progress_ = 0.0f;
            else progress_ = 1.0f, playing_ = false;
        }
    }
    if (ImGui::Button("<")) stage_ = std::max(0, stage_ - 1), progress_ = 1.0f;
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? tr("Pause", "暂停") : tr("Play", "播放"))) {
        playing_ = !playing_;
        if (playing_ && progress_ >= 1.0f) stage_ = stage_ + 1 < n ? stage_ + 1 : 0, progress_ = 0.0f;
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) stage_ = std::min(n - 1, stage_ + 1), progress_ = 1.0f;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    next_button_ = {a.x, a.y, b.x - a.x, b.y - a.y};
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * ImGui::GetIO().FontGlobalScale);
    ImGui::SliderFloat(tr("speed", "速度"), &speed_, 0.25f, 4.0f, "%.2fx");
    float position = float(stage_) + std::min(progress_, 0.999f);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##scrub", &position, 0.0f, float(n) - 0.001f, "")) {
        stage_ = std::clamp(int(position), 0, n - 1);
        progress_ = position - float(stage_);
        playing_ = false;
    }
    for (int i = 0; i < n; ++i) {
        if (i) ImGui::SameLine(0, 3);
        const attn::bilingual t = stages[std::size_t(i)].title;
        const bool current = i == stage_;
        if (current) ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(31, 111, 235, 255));
        // the stage's title in the reader's language (中文 in zh), its formula in the tooltip
        if (ImGui::SmallButton((std::string(zh_ ? t.zh : t.en) + "##st" + stages[std::size_t(i)].id).c_str()))
            stage_ = i, progress_ = 1.0f, playing_ = false;
        if (current) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", stages[std::size_t(i)].formula.c_str());
    }
    stage_name_ = stages[std::size_t(stage_)].id;
    ImGui::End();
}

}  // namespace lab
