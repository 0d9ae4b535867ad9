// The lab in the browser: Emscripten's GLFW on a WebGL2 canvas, one frame per browser frame
// (emscripten_set_main_loop), drawn at the device's pixel ratio and resized with the window.
#include <cstdio>
#include <string>

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "lab.hpp"
#include "style.hpp"

namespace {

GLFWwindow* window = nullptr;
lab::Lab* app = nullptr;
int canvas_w = 0, canvas_h = 0;
double last = 0;

/// Canvas backing store = CSS size × devicePixelRatio, so text is sharp on high-DPI screens; the
/// page's CSS gives the canvas its size (the whole window), this follows it on every resize.
/// (Not glfwSetWindowSize: Emscripten's version also toggles fullscreen and pins inline styles.)
void fit_canvas() {
    double w = 0, h = 0;
    emscripten_get_element_css_size("#canvas", &w, &h);
    const double dpr = emscripten_get_device_pixel_ratio();
    const int bw = int(w * dpr + 0.5), bh = int(h * dpr + 0.5);
    if (bw != canvas_w || bh != canvas_h) emscripten_set_canvas_element_size("#canvas", bw, bh);
    canvas_w = bw, canvas_h = bh;
}

void frame() {
    fit_canvas();
    const double now = emscripten_get_now() / 1000.0;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // GLFW's idea of the window size is the one it was created with; the canvas is what counts.
    // Mouse positions from Emscripten's GLFW are already in canvas pixels.
    ImGui::GetIO().DisplaySize = ImVec2(float(canvas_w), float(canvas_h));
    ImGui::GetIO().DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    ImGui::NewFrame();
    app->frame(last ? float(now - last) : 0.0f);
    last = now;
    ImGui::Render();
    glViewport(0, 0, canvas_w, canvas_h);
    glClearColor(0.93f, 0.94f, 0.95f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // the stage panel's "Save PNG": its pixels, cut from the canvas while this frame's drawing is
    // still there (WebGL clears it once the browser has shown it), handed over as a download
    if (const auto r = app->take_png_request()) {
        EM_ASM({
            const crop = document.createElement("canvas");
            crop.width = $2; crop.height = $3;
            crop.getContext("2d").drawImage(Module.canvas, $0, $1, $2, $3, 0, 0, $2, $3);
            const name = UTF8ToString($4);
            crop.toBlob((blob) => Object.assign(document.createElement("a"), {href: URL.createObjectURL(blob), download: name}).click(), "image/png");
        }, int(r->x), int(r->y), int(r->w), int(r->h), app->png_name().c_str());
        app->png_saved(app->png_name());
    }
}

}  // namespace

// What the page (and its tests) may ask the lab, on demand rather than written every frame:
// Module.ccall("lab_stage", "string"), lab_next_button(0…3) and lab_save_button(0…3) for x, y, w, h in canvas pixels,
// lab_training_steps().
extern "C" {
EMSCRIPTEN_KEEPALIVE const char* lab_stage() { return app ? app->current_stage().c_str() : ""; }
/// The stage panel's "Save PNG" button (0…3: x, y, w, h in canvas pixels).
EMSCRIPTEN_KEEPALIVE float lab_save_button(int part) {
    if (!app) return 0.0f;
    const lab::rect r = app->save_button();
    const float parts[] = {r.x, r.y, r.w, r.h};
    return part >= 0 && part < 4 ? parts[part] : 0.0f;
}

/// Steps done by the task being trained (?train=…), 0 when none.
EMSCRIPTEN_KEEPALIVE int lab_training_steps() { return app ? app->training_progress().first : 0; }

EMSCRIPTEN_KEEPALIVE float lab_next_button(int part) {
    if (!app) return 0.0f;
    const lab::rect r = app->next_button();
    const float parts[] = {r.x, r.y, r.w, r.h};
    return part >= 0 && part < 4 ? parts[part] : 0.0f;
}
}

int main() {
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    window = glfwCreateWindow(1280, 800, "Attention Lab", nullptr, nullptr);
    if (!window) return 1;
    glfwMakeContextCurrent(window);
    EM_ASM({  // glfwCreateWindow pinned the canvas to 1280 × 800 CSS pixels; let the page's CSS size it
        Module.canvas.style.removeProperty("width");
        Module.canvas.style.removeProperty("height");
    });
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    lab::setup_style(float(emscripten_get_device_pixel_ratio()));
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    // ?example=…&stage=…&lang=zh&view=lines from the page's URL
    lab::options options;
    char buf[256];
    const auto param = [&](const char* name) -> std::string {
        const int n = EM_ASM_INT({
            const v = new URLSearchParams(location.search).get(UTF8ToString($0)) || "";
            stringToUTF8(v.slice(0, 200), $1, $2);
            return v.length;
        }, name, buf, int(sizeof buf));
        return n ? std::string(buf) : std::string();
    };
    if (!param("example").empty()) options.example = param("example");
    options.stage = param("stage");
    options.zh = param("lang") == "zh";
    if (param("view") == "matrix" || param("view") == "lines") options.view = param("view");
    for (const std::string& id : attn::training_task_ids())  // ?train=alignment starts training a task
        if (param("train") == id) options.train = id;
    static lab::Lab lab_app(options);
    app = &lab_app;
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
