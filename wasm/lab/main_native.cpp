// attention-lab, the desktop build: GLFW + OpenGL 3.
//   attention-lab [--example ID] [--stage ID] [--lang en|zh] [--view matrix|lines] [--train TASK] [--screenshot FILE.png] [--save-stage FILE.png]
// --train starts training one of the core's tasks (attn task IDs); with --screenshot it trains to the
// task's step count first and prints the steps and the last loss.
// --screenshot renders a few frames, writes the window as a PNG and exits 0 (for docs and tests);
// --save-stage does what the stage panel's "Save PNG" button does, to FILE, and exits.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include "lab.hpp"
#include "style.hpp"

namespace {

int usage(const char* why) {
    std::fprintf(stderr, "attention-lab: %s\nusage: attention-lab [--example ID] [--stage ID] [--lang en|zh] [--view matrix|lines] [--train TASK] [--screenshot FILE.png] [--save-stage FILE.png]\n", why);
    return 2;
}

/// A region of the back buffer (x, y from the top left, in framebuffer pixels) as a PNG, read
/// before the swap (docs/toolchain.md), rows flipped to top-down.
bool write_png(const char* file, int x, int y, int w, int h, int framebuffer_h) {
    std::vector<unsigned char> pixels(std::size_t(w) * h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x, framebuffer_h - y - h, w, h, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    std::vector<unsigned char> flipped(pixels.size());
    for (int y = 0; y < h; ++y) std::memcpy(&flipped[std::size_t(y) * w * 3], &pixels[std::size_t(h - 1 - y) * w * 3], std::size_t(w) * 3);
    return stbi_write_png(file, w, h, 3, flipped.data(), w * 3) != 0;
}

}  // namespace

int main(int argc, char** argv) {
    lab::options options;
    std::string screenshot, save_stage, train;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool known = a == "--example" || a == "--stage" || a == "--lang" || a == "--view" || a == "--screenshot" || a == "--save-stage" || a == "--train";
        if (!known) return usage(("unknown argument \"" + a + "\".").c_str());
        if (i + 1 >= argc) return usage((a + " needs a value.").c_str());
        if (a == "--example") options.example = argv[++i];
        else if (a == "--stage") options.stage = argv[++i];
        else if (a == "--lang") options.zh = std::string(argv[++i]) == "zh";
        else if (a == "--view") {
            options.view = argv[++i];
            if (options.view != "matrix" && options.view != "lines") return usage("--view is \"matrix\" or \"lines\".");
        }
        else if (a == "--save-stage") save_stage = argv[++i];
        else if (a == "--train") train = argv[++i];
        else screenshot = argv[++i];
    }
    {  // refuse a bad example before a window opens
        const auto ids = attn::example_ids();
        bool known = false;
        for (const auto& id : ids) known |= id == options.example;
        if (!known) return usage(("example \"" + options.example + "\" is unknown; see `attn examples`.").c_str());
        bool task_known = train.empty();
        for (const auto& id : attn::training_task_ids()) task_known |= id == train;
        if (!task_known) return usage(("training task \"" + train + "\" is unknown; see `attn task`.").c_str());
    }
    if (!glfwInit()) return usage("cannot open a window (no display?).");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    if (!screenshot.empty() || !save_stage.empty()) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(1280, 800, "Attention Lab", nullptr, nullptr);
    if (!window) return usage("cannot create an OpenGL 3.3 window.");
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    lab::setup_style(sx);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");
    options.train = train;
    lab::Lab app(options);

    int frames = 0;
    double last = glfwGetTime();
    while (!glfwWindowShouldClose(window)) {
        glfwPollEvents();
        const double now = glfwGetTime();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        app.frame(float(now - last));
        last = now;
        ImGui::Render();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window, &w, &h);
        glViewport(0, 0, w, h);
        glClearColor(0.93f, 0.94f, 0.95f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        // the stage panel's "Save PNG" (or --save-stage): its pixels, from this frame
        std::optional<lab::rect> request = app.take_png_request();
        if (!save_stage.empty() && frames == 3) request = app.stage_rect();
        if (request) {
            const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
            const int rx = std::max(0, int(request->x * scale.x)), ry = std::max(0, int(request->y * scale.y));
            const int rw = std::min(w - rx, int(request->w * scale.x)), rh = std::min(h - ry, int(request->h * scale.y));
            const std::string file = save_stage.empty() ? app.png_name() : save_stage;
            const bool ok = rw > 0 && rh > 0 && write_png(file.c_str(), rx, ry, rw, rh, h);
            app.png_saved(ok ? "saved " + file : "could not write " + file);
            if (!save_stage.empty()) {
                std::printf("%s %s (%dx%d, the stage panel)\n", ok ? "wrote" : "could not write", file.c_str(), rw, rh);
                glfwSetWindowShouldClose(window, GLFW_TRUE);
                if (!ok) return 1;
            }
        }
        if (!save_stage.empty()) ++frames;
        if (!screenshot.empty() && ++frames >= 4 && !app.training_playing()) {  // a few frames: windows settle their sizes first
            if (!train.empty()) std::printf("trained %s: step %d, loss %.9g\n", train.c_str(), app.training_progress().first, app.training_progress().second);
            const bool ok = write_png(screenshot.c_str(), 0, 0, w, h, h);
            std::printf("%s %s (%dx%d, stage %s, %s)\n", ok ? "wrote" : "could not write", screenshot.c_str(), w, h, app.current_stage().c_str(),
                        app.stage_picture().c_str());
            glfwSetWindowShouldClose(window, GLFW_TRUE);
            if (!ok) return 1;
        }
        glfwSwapBuffers(window);
        if (screenshot.empty() && save_stage.empty()) glfwWaitEventsTimeout(1.0 / 60.0);  // vsync is ignored under Xvfb: cap frames
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return 0;
}
