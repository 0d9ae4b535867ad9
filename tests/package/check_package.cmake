# Installs the already-built project into a scratch prefix, then configures, builds and
# runs tests/package/consumer against it with find_package(attn).
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P check_package.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer" -B "${WORK_DIR}/consumer"
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer")
run("${WORK_DIR}/consumer/consumer")
set(expected "0.5065 0.1863 0.3072\nrow 2 of x has 1 values but row 1 has 2: every row needs the same length.\n")
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "the consumer printed:\n${out}\nexpected:\n${expected}")
endif()
message(STATUS "find_package(attn) from ${WORK_DIR}/prefix: built and ran the consumer: ${out}")
