// Where a model's files come from: a folder on disk, or files another program holds (the page's chosen files,
// the npm package's bytes), read by range through its function. Reading is by range, so a header is checked before the data behind it is read.
#include <filesystem>
#include <fstream>

#include "attn/hf.hpp"
#include "attn/spec.hpp"
#include "attn/text.hpp"

namespace attn::hf {
namespace {

class folder_files final : public files {
public:
    explicit folder_files(std::string path) : path_(std::move(path)) {
        std::error_code ec;
        if (!std::filesystem::is_directory(path_, ec))
            throw spec_error("\"" + user_text(path_) + "\" is not a folder: give the folder that holds config.json.");
    }
    bool has(const std::string& name) const override {
        std::error_code ec;
        return std::filesystem::is_regular_file(full(name), ec);
    }
    std::uint64_t size(const std::string& name) const override {
        std::error_code ec;
        const auto n = std::filesystem::file_size(full(name), ec);
        if (ec) throw spec_error("cannot read " + name + " in " + where() + ".");
        return n;
    }
    void read(const std::string& name, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) const override {
        std::ifstream in(full(name), std::ios::binary);
        in.seekg(static_cast<std::streamoff>(offset));
        if (!in || !in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n)))
            throw spec_error("cannot read " + name + " in " + where() + " (it changed while being read?).");
    }
    std::string where() const override { return "the folder " + user_text(path_); }

private:
    std::string full(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }
    std::string path_;
};

class files_held_elsewhere final : public files {
public:
    files_held_elsewhere(std::vector<std::pair<std::string, std::uint64_t>> sizes, std::string where, range_reader read)
        : sizes_(std::move(sizes)), where_(std::move(where)), read_(std::move(read)) {}
    bool has(const std::string& name) const override { return index(name) < sizes_.size(); }
    std::uint64_t size(const std::string& name) const override { return sizes_.at(index(name)).second; }
    void read(const std::string& name, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) const override {
        if (!read_(index(name), offset, n, out)) throw spec_error("cannot read " + name + " in " + where() + " (it changed or went away while being read?).");
    }
    std::string where() const override { return where_; }

private:
    std::size_t index(const std::string& name) const {
        std::size_t i = 0;
        while (i < sizes_.size() && sizes_[i].first != name) ++i;
        return i;
    }
    std::vector<std::pair<std::string, std::uint64_t>> sizes_;
    std::string where_;
    range_reader read_;
};

}  // namespace

std::unique_ptr<files> folder(const std::string& path) { return std::make_unique<folder_files>(path); }
std::unique_ptr<files> held_elsewhere(std::vector<std::pair<std::string, std::uint64_t>> sizes, std::string where, range_reader read) {
    return std::make_unique<files_held_elsewhere>(std::move(sizes), std::move(where), std::move(read));
}

}  // namespace attn::hf
