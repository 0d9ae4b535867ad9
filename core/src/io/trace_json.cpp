// A trace, its axes and the stage registry as JSON (attn trace, attn stages, the lab's export): the
// spec itself is written by json.cpp.
#include "attn/json.hpp"

#include <charconv>
#include <ostream>
#include <string>
#include <vector>

namespace attn {
namespace {

/// The shortest decimal that reads back as f. libstdc++ has float std::to_chars (Ryu), several
/// times faster than the double route and what a trace of millions of numbers spends its time on;
/// Emscripten's libc++ has none, so elsewhere the number is written as dump() writes it.
char* write_float(char* first, char* last, float f) {
#if defined(__GLIBCXX__) && defined(__cpp_lib_to_chars)
    return std::to_chars(first, last, f).ptr;
#else
    return nlohmann::detail::to_chars(first, last, shortest_decimal(f));
#endif
}

std::vector<std::string> names(const std::vector<stage_id>& ids) {
    std::vector<std::string> out;
    for (stage_id id : ids) out.emplace_back(stage_name(id));
    return out;
}

/// A stage's fields but its data: the one definition both trace writers use (the registry's facts, then this spec's).
json stage_header(const stage_view& v, const spec& s) {
    const stage_info& info = stage_info_of(v.id);
    json header = stage_facts_json(info.name, info.symbol, info.title, info.explanation, info.scale);
    header["formula"] = stage_formula(v.id, s);
    header["operands"] = names(stage_operands(v.id, s));
    header["shape"] = v.shape;
    return header;
}

/// The fields after "stages": the mask and the rows that see no key.
json trace_tail(const trace& t) {
    json tail = json::object();
    if (t.mask) {
        const std::vector<std::size_t> shape(t.mask->shape().begin(), t.mask->shape().end());
        tail["mask"] = {{"shape", shape}, {"data", std::vector<int>(t.mask->begin(), t.mask->end())}};
        tail["empty_rows"] = t.empty_rows;
    }
    return tail;
}

}  // namespace

json stage_facts_json(const char* id, const char* symbol, bilingual title, bilingual explanation, color_scale scale) {
    return {{"id", id},
            {"symbol", symbol},
            {"title", title.en},
            {"title_zh", title.zh},
            {"explain", {{"en", explanation.en}, {"zh", explanation.zh}}},
            {"scale", color_scale_name(scale)}};
}

json stage_registry_json() {
    json list = json::array();
    for (const stage_info& info : stage_registry()) {
        json row = stage_facts_json(info.name, info.symbol, info.title, info.explanation, info.scale);
        row["per_head"] = info.per_head;
        row["rows"] = axis_name(info.rows);
        row["cols"] = axis_name(info.cols);
        row["term"] = info.term;
        row["group"] = info.group;
        list.push_back(std::move(row));
    }
    return list;
}

json axes_json(const spec& s) {
    json axes = json::object();
    const stage_info& any = stage_registry()[0];
    for (axis_kind kind : {axis_kind::query, axis_kind::key, axis_kind::position, axis_kind::feature, axis_kind::head_feature})
        axes[axis_name(kind)] = axis_labels(kind, any, s);
    if (s.online_block > 0)
        for (axis_kind kind : {axis_kind::tile, axis_kind::tile_feature}) axes[axis_name(kind)] = axis_labels(kind, any, s);
    return axes;
}

json trace_to_json(const trace& t) {
    json stages = json::array();
    for (const stage_view& v : t.stages()) {
        json stage = stage_header(v, t.spec), data = json::array();
        for (std::size_t i = 0; i < v.size; ++i) data.push_back(shortest_decimal(v.data[i]));
        stage["data"] = std::move(data);
        stages.push_back(std::move(stage));
    }
    json out = {{"spec", spec_to_json(t.spec)}, {"axes", axes_json(t.spec)}, {"stages", std::move(stages)}};
    const json tail = trace_tail(t);  // items() of a temporary would dangle
    for (auto it = tail.begin(); it != tail.end(); ++it) out[it.key()] = *it;
    return out;
}

void write_trace_json(std::ostream& out, const trace& t, const json& extra) {
    out << "{\"spec\":" << spec_to_json(t.spec).dump() << ",\"axes\":" << axes_json(t.spec).dump() << ",\"stages\":[";
    char number[64];
    bool first_stage = true;
    for (const stage_view& v : t.stages()) {
        std::string header = stage_header(v, t.spec).dump();
        header.pop_back();  // the closing brace: "data" follows
        out << (first_stage ? "" : ",") << header << ",\"data\":[";
        first_stage = false;
        for (std::size_t i = 0; i < v.size; ++i) {
            if (i) out.put(',');
            const char* end = write_float(number, number + sizeof number, v.data[i]);
            out.write(number, end - number);
        }
        out << "]}";
    }
    out << ']';
    const json tail = trace_tail(t);
    for (const json* fields : {&tail, &extra})
        for (auto it = fields->begin(); it != fields->end(); ++it) out << ',' << json(it.key()).dump() << ':' << it->dump();
    out << '}';
}

}  // namespace attn
