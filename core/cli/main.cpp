// attn: the command-line face of the core (docs/spec.md, Interfaces).
//   attn trace SPEC.json|-      the trace as JSON
//   attn grad SPEC.json|-       a spec with "target" (or "labels" and "loss": "cross_entropy", or "upstream" and "loss": "upstream"): the loss,
//                               dL/d(parameter) for every parameter and dL/d(stage) for every stage
//   attn train SPEC.json|-      a spec with "train": one {"step", "loss"} line per step, then the trained spec
//   attn task ID                a training task's train spec (attn::training_task_ids(): alignment, positions-pe, …)
//   attn examples [--long]      the worked examples' ids, one a line (--long: with titles)
//   attn stages                 the stage registry as JSON (ids in trace order, symbols, titles, axes)
//   attn explain SPEC.json|- STAGE [--head H] [--detail]
//                               the arithmetic of every result cell of a stage, one JSON line per cell
//   attn example ID [--json] [--variant V] [--lang en|zh]
//   attn figure rnn-limits|why-sqrt-dk|cnn-rnn-attention [REQUEST.json|-]
//                               a guided-path figure's numbers (attn/figures.hpp; no request: the defaults)
//   attn bench [--n 128,512,2048] [--d 64]
//   attn lm trace|step|next|generate|eval|heads|attribute|grad|layer-grad|explain|stages|train|info|recipe
//                               the tiny language model (cli/lm.cpp)
//   attn --version              "attn 0.1.0" (attn/version.hpp)
// Exit codes: 0 done, 2 bad input (one sentence on stderr, nothing on stdout).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "attn/attn.hpp"
#include "cli.hpp"

namespace {

const char* const usage =
    "usage: attn trace SPEC.json|-\n"
    "       attn grad SPEC.json|-\n"
    "       attn train SPEC.json|-\n"
    "       attn task alignment|positions-pe|positions-no-pe|scaling-sqrt-dk|scaling-none\n"
    "       attn examples [--long]\n"
    "       attn stages\n"
    "       attn explain SPEC.json|- STAGE [--head H] [--detail]\n"
    "       attn example ID [--json] [--variant NAME] [--lang en|zh]\n"
    "       attn figure rnn-limits|why-sqrt-dk|cnn-rnn-attention [REQUEST.json|-]\n"
    "       attn bench [--n 128,512,2048] [--d 64]\n"
    "       attn lm train|trace|step|next|generate|eval|heads|attribute|grad|layer-grad|explain|stages|info|recipe ... (docs/model.md)\n"
    "       attn --version\n";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The spec text, read up to one byte past the limit: a larger file is refused by parse_spec
/// without being read whole (a 162 MB spec must not cost 162 MB first).
std::string read_input(const std::string& path) {
    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file || std::filesystem::is_directory(path))
            throw attn::spec_error("cannot read the spec file \"" + attn::user_text(path) + "\"" + (file ? ": it is a folder." : "."));
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::string text(attn::max_spec_bytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

int trace_command(const std::vector<std::string>& args) {
    if (args.size() != 1) throw usage_error("trace takes one argument: a spec file, or - for standard input.");
    const attn::json j = attn::parse_spec_json(read_input(args[0]));
    if (attn::is_vision_spec(j)) std::cout << attn::vision_trace_to_json(attn::compute_vision(attn::vision_spec_from_json(j))).dump();
    else attn::write_trace_json(std::cout, attn::compute_trace(attn::spec_from_json(j)));
    std::cout << '\n';
    return 0;
}

int grad_command(const std::vector<std::string>& args) {
    if (args.size() != 1) throw usage_error("grad takes one argument: a spec file with its loss, or - for standard input.");
    const auto [spec, loss] = attn::parse_grad_spec(read_input(args[0]));
    std::cout << attn::grad_to_json(attn::compute_grad(spec, loss)).dump() << '\n';
    return 0;
}

int train_command(const std::vector<std::string>& args) {
    if (args.size() != 1) throw usage_error("train takes one argument: a spec file with \"train\", or - for standard input.");
    auto [spec, settings] = attn::parse_train_spec(read_input(args[0]));
    attn::trainer run(std::move(spec), settings);
    run.check_steps(static_cast<std::uint64_t>(settings.steps));  // the whole run, before its first step
    for (int k = 1; k <= settings.steps; ++k) {
        const float loss = run.step();  // the loss at the parameters this step starts from
        std::cout << attn::json({{"step", k}, {"loss", attn::shortest_decimal(loss)}}).dump() << '\n';
    }
    std::cout << attn::spec_to_json(run.current()).dump() << '\n';
    return 0;
}

int task_command(const std::vector<std::string>& args) {
    if (args.size() != 1) {
        std::string ids;
        for (const std::string& id : attn::training_task_ids()) ids += (ids.empty() ? "" : ", ") + id;
        throw usage_error("task takes one id: " + ids + ".");
    }
    std::cout << attn::training_task_json(args[0]).dump() << '\n';
    return 0;
}

int figure_command(const std::vector<std::string>& args) {
    const std::vector<std::string>& known = attn::figure_ids();
    if (args.empty() || args.size() > 2) {
        std::string ids;
        for (const std::string& id : known) ids += (ids.empty() ? "" : "|") + id;
        throw usage_error("figure takes a figure (" + ids + ") and a request file, - for standard input, or nothing for the defaults.");
    }
    // an unknown name is refused (figure_json's sentence) before a request is read from standard input
    if (std::find(known.begin(), known.end(), args[0]) == known.end()) attn::figure_json(args[0], "");
    std::cout << attn::figure_json(args[0], args.size() == 2 ? read_input(args[1]) : std::string()).dump() << '\n';
    return 0;
}

int examples_command(const std::vector<std::string>& args) {
    const bool long_form = args.size() == 1 && args[0] == "--long";
    if (!args.empty() && !long_form) throw usage_error("examples takes no arguments but --long.");
    for (const std::string& id : attn::example_ids()) {
        std::cout << id;  // one id a line: what scripts read
        if (long_form) std::cout << "  " << attn::example_document(id)["title"]["en"].get<std::string>();
        std::cout << '\n';
    }
    return 0;
}

int stages_command(const std::vector<std::string>& args) {
    if (!args.empty()) throw usage_error("stages takes no arguments.");
    std::cout << attn::stage_registry_json().dump() << '\n';
    return 0;
}

/// Refuses, before a line is written, an explanation over max_explain_bytes: cells lines of about 400
/// bytes (a caption shows 8 terms), or with --detail about 32 bytes for each of up to `terms` terms.
void check_explain_size(std::size_t cells, std::size_t terms, bool detail) {
    const std::uint64_t per_line = detail ? 64 + 32 * std::uint64_t(terms) : 400, bytes = std::uint64_t(cells) * per_line;
    if (bytes > attn::max_explain_bytes)
        throw attn::spec_error("explaining " + std::to_string(cells) + " cells would write about " + std::to_string(bytes >> 20) +
                               " MiB, over the limit of " + std::to_string(attn::max_explain_bytes >> 20) +
                               " MiB: explain a smaller spec, or single cells through the npm module's explain().");
}

int explain_command(const std::vector<std::string>& args) {
    if (args.size() < 2) throw usage_error("explain takes a spec file (or -) and a stage id.");
    std::size_t head = 0;
    bool detail = false;
    for (std::size_t k = 2; k < args.size(); ++k) {
        if (args[k] == "--detail") detail = true;
        else if (args[k] == "--head" && k + 1 < args.size())
            head = static_cast<std::size_t>(attn::cli::whole_number(args[++k], "--head", 1, static_cast<long long>(attn::max_heads)) - 1);
        else throw usage_error("explain does not know the argument \"" + attn::user_text(args[k]) + "\".");
    }
    const attn::json j = attn::parse_spec_json(read_input(args[0]));
    if (attn::is_vision_spec(j)) {  // one line per value of the stage, in its row-major order
        const attn::vision_trace t = attn::compute_vision(attn::vision_spec_from_json(j));
        const attn::vision_stage* s = t.stage(args[1]);
        if (!s) throw attn::spec_error("this vision spec has no stage \"" + attn::user_text(args[1]) + "\".");
        check_explain_size(s->data.size(), 1, false);
        for (std::size_t k = 0; k < s->data.size(); ++k)
            std::cout << attn::json({{"index", k}, {"text", attn::explain_vision_cell(t, args[1], k)}}).dump() << '\n';
        return 0;
    }
    const auto id = attn::stage_from_name(args[1]);
    if (!id) throw usage_error("explain: \"" + attn::user_text(args[1]) + "\" is not a stage id (see attn stages).");
    const attn::spec s = attn::spec_from_json(j);
    // q, k and v are explained as whole rows of d_model (their heads side by side)
    const bool merged = *id == attn::stage_id::q || *id == attn::stage_id::k || *id == attn::stage_id::v;
    const attn::stage_info& info = attn::stage_info_of(*id);  // its size from the registry's axes, before the trace (n = 1800 took seconds)
    check_explain_size(attn::axis_length(info.rows, s) * (merged ? s.d_model() : attn::axis_length(info.cols, s)),
                       std::max(s.d_model(), s.n_k()), detail);
    const attn::trace t = attn::compute_trace(s);
    const auto view = t.stage(*id);
    if (!view) throw attn::spec_error(std::string("this spec has no stage ") + args[1] + ".");
    const std::size_t rows = view->shape[view->shape.size() - 2], cols = merged ? t.spec.d_model() : view->shape.back();
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            std::cout << attn::json({{"i", i}, {"j", j}, {"text", attn::explain_cell(t, *id, head, i, j, detail)}}).dump() << '\n';
    return 0;
}

int example_command(const std::vector<std::string>& args) {
    std::string id, variant, lang = "en";
    bool as_json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") as_json = true;
        else if ((a == "--variant" || a == "--lang") && i + 1 < args.size()) (a == "--variant" ? variant : lang) = args[++i];
        else if (!a.empty() && a[0] == '-') throw usage_error("example does not know the option \"" + attn::user_text(a) + "\".");
        else if (id.empty()) id = a;
        else throw usage_error("example takes one id; \"" + attn::user_text(a) + "\" is one too many.");
    }
    if (id.empty()) throw usage_error("example needs an id: see `attn examples`.");
    if (lang != "en" && lang != "zh") throw usage_error("--lang must be en or zh, not \"" + attn::user_text(lang) + "\".");
    if (!as_json) return attn::cli::print_example_table(id, variant, lang);
    if (attn::example_is_vision(id)) {
        std::cout << attn::example_trace_json(id, variant).dump() << '\n';
        return 0;
    }
    attn::write_trace_json(std::cout, attn::compute_trace(attn::example_spec(id, variant)),
                           attn::example_about_json(id, variant));
    std::cout << '\n';
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> all(argv + 1, argv + argc);
    if (all.empty() || all[0] == "--help" || all[0] == "-h") {
        (all.empty() ? std::cerr : std::cout) << usage;
        return all.empty() ? 2 : 0;
    }
    if (all[0] == "--version" || all[0] == "-V") {
        if (all.size() != 1) {
            std::cerr << "attn: --version takes no arguments.\n";
            return 2;
        }
        std::cout << "attn " << attn::version << '\n';
        return 0;
    }
    const std::string command = all[0];
    const std::vector<std::string> args(all.begin() + 1, all.end());
    try {
        if (command == "trace") return trace_command(args);
        if (command == "grad") return grad_command(args);
        if (command == "train") return train_command(args);
        if (command == "task") return task_command(args);
        if (command == "examples") return examples_command(args);
        if (command == "example") return example_command(args);
        if (command == "stages") return stages_command(args);
        if (command == "explain") return explain_command(args);
        if (command == "figure") return figure_command(args);
        if (command == "bench") return attn::cli::run_bench(args);
        if (command == "lm") return attn::cli::run_lm(args);
        throw usage_error("unknown command \"" + attn::user_text(command) + "\".");
    } catch (const attn::spec_error& e) {
        std::cerr << "attn: " << e.what() << '\n';
        return 2;
    } catch (const usage_error& e) {
        std::cerr << "attn: " << e.what() << '\n' << usage;
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "attn: out of memory.\n";
        return 2;
    }
}
