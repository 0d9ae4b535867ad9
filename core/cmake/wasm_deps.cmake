# The header-only dependencies for the Emscripten build, from Debian's packages.
# Not find_package and not -I/usr/include: that would drag glibc's headers into the
# wasm build (docs/toolchain.md). Instead a directory holding only links to xtensor/, xtl/
# and nlohmann/ stands in for /usr/include, and the targets the core links are made here.
set(ATTN_WASM_INCLUDE "${CMAKE_BINARY_DIR}/deps/include")
file(MAKE_DIRECTORY "${ATTN_WASM_INCLUDE}")
foreach(dir xtensor xtl nlohmann)
  if(NOT EXISTS "/usr/include/${dir}")
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/setup.sh (Debian's xtensor-dev, xtl-dev, nlohmann-json3-dev).")
  endif()
  if(NOT EXISTS "${ATTN_WASM_INCLUDE}/${dir}")
    file(CREATE_LINK "/usr/include/${dir}" "${ATTN_WASM_INCLUDE}/${dir}" SYMBOLIC)
  endif()
endforeach()
add_library(xtensor INTERFACE)
target_include_directories(xtensor SYSTEM INTERFACE "${ATTN_WASM_INCLUDE}")
add_library(nlohmann_json INTERFACE)
target_include_directories(nlohmann_json SYSTEM INTERFACE "${ATTN_WASM_INCLUDE}")
add_library(nlohmann_json::nlohmann_json ALIAS nlohmann_json)
