# Configures, builds and runs tests/package/subproject, which pulls this repository in with
# add_subdirectory, without any GUI dependency reachable. A Debug build without -g: the check is that it builds
# and runs, and debug information for xtensor's templates would only slow it.
# cmake -DSOURCE_DIR=... -DWORK_DIR=... -P check_subproject.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/subproject" -B "${WORK_DIR}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0
    -DATTN_SOURCE_DIR=${SOURCE_DIR} -DATTN_LAB_FONT=/nonexistent/font.ttc
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenGL=ON -DCMAKE_DISABLE_FIND_PACKAGE_doctest=ON)
file(STRINGS "${WORK_DIR}/CMakeCache.txt" gui REGEX "IMGUI|GLFW|OPENGL_gl")
if(gui)
  message(FATAL_ERROR "the subproject's cache mentions a GUI dependency: ${gui}")
endif()
run(${CMAKE_COMMAND} --build "${WORK_DIR}" --target consumer --parallel 2)
run("${WORK_DIR}/consumer")
set(expected "0.5065 0.1863 0.3072\nrow 2 of x has 1 values but row 1 has 2: every row needs the same length.\n")
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "the consumer printed:\n${out}\nexpected:\n${expected}")
endif()
message(STATUS "add_subdirectory: the core built without ImGui, GLFW, GL or fonts, and the consumer ran: ${out}")
