// The core's version, as the CMake project and the npm package give it (CMakeLists.txt's project(VERSION) and
// web/package.json's "version" are checked against these numbers: core/CMakeLists.txt, tests/node/package.test.mjs).
#pragma once

#define ATTN_VERSION_MAJOR 0
#define ATTN_VERSION_MINOR 1
#define ATTN_VERSION_PATCH 0
/** "MAJOR.MINOR.PATCH" */
#define ATTN_VERSION_STRING "0.1.0"
/** MAJOR·10000 + MINOR·100 + PATCH, for #if ATTN_VERSION >= 100 (0.1.0) */
#define ATTN_VERSION (ATTN_VERSION_MAJOR * 10000 + ATTN_VERSION_MINOR * 100 + ATTN_VERSION_PATCH)

namespace attn {
/** @brief The core's version, "MAJOR.MINOR.PATCH" (ATTN_VERSION_STRING). */
inline constexpr const char* version = ATTN_VERSION_STRING;
}  // namespace attn
