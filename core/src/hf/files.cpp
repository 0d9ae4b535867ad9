// Where a model's files come from: a folder on disk, or named bytes (the page and the npm package hand the
// files over as bytes). Reading is by range, so a header is checked before the data behind it is read.
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

class memory_files final : public files {
public:
    explicit memory_files(std::map<std::string, std::vector<std::uint8_t>> f) : files_(std::move(f)) {}
    bool has(const std::string& name) const override { return files_.count(name) != 0; }
    std::uint64_t size(const std::string& name) const override { return files_.at(name).size(); }
    void read(const std::string& name, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) const override {
        const auto& b = files_.at(name);
        std::copy(b.begin() + static_cast<std::ptrdiff_t>(offset), b.begin() + static_cast<std::ptrdiff_t>(offset + n), out);
    }
    std::string where() const override { return "the files given"; }

private:
    std::map<std::string, std::vector<std::uint8_t>> files_;
};

}  // namespace

std::unique_ptr<files> folder(const std::string& path) { return std::make_unique<folder_files>(path); }
std::unique_ptr<files> in_memory(std::map<std::string, std::vector<std::uint8_t>> named_bytes) {
    return std::make_unique<memory_files>(std::move(named_bytes));
}

}  // namespace attn::hf
