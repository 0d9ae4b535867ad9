# Prints a build's size as users download it: each file raw and gzipped, and the total.
# cmake -DDIR=… [-DFILES="a.wasm;a.js"] [-DBUDGET="200 KB"] -P print_size.cmake
find_program(GZIP gzip REQUIRED)
if(NOT FILES)
  set(FILES attention_core.wasm attention_core.js)
endif()
if(NOT BUDGET)  # the core module's
  # 150 KB until the vision blocks (SE, ECA, CBAM, CA) came in, about 30 KB of them; 200 KB until the online
  # softmax, the streaming kernel, gradients, training, the tasks and the gradient sentences (about 38 KB).
  # A training module loaded only by train mode and a.grad would win most of the last back. 240 KB until
  # a.trace kept the structures it read (2 KB: a third off a small a.trace with the same structure).
  # 170 KB since the vision blocks and gradients/training moved to parts of their own (attention_vision,
  # attention_learn), loaded on first use: 244 KB gzipped became 167 (169 with the field tables' a.schema()).
  # 150 KB since link-time optimisation and the explain part (attention_explain): 169 became 145.
  # 145 KB since the core is linked with -Oz (wasm/CMakeLists.txt): 145 became 139.
  # 125 KB since the sequence stages and the core's exports are compiled -Oz too (core/CMakeLists.txt,
  # wasm/CMakeLists.txt): 136 became 122. 120 KB since strtod's slow path is our own (io/decimal.hpp): 119. 115 KB since a.attention left for the fast part: 114.
  set(BUDGET "115 KB")
endif()
set(total 0)
foreach(f IN LISTS FILES)
  file(SIZE "${DIR}/${f}" raw)
  execute_process(COMMAND ${GZIP} -9 -c "${DIR}/${f}" OUTPUT_FILE "${DIR}/.${f}.gz")
  file(SIZE "${DIR}/.${f}.gz" gz)
  file(REMOVE "${DIR}/.${f}.gz")
  math(EXPR total "${total} + ${gz}")
  message(STATUS "size: ${f} ${raw} bytes, ${gz} gzipped")
endforeach()
math(EXPR kb "${total} / 1024")
message(STATUS "size: ${FILES} together ${total} bytes gzipped (${kb} KiB; budget ${BUDGET})")
# the budget is a check, not a note: a build over it fails, naming the module
string(REGEX MATCH "^[0-9]+" budget_kb "${BUDGET}")
if(BUDGET MATCHES "MB$")
  math(EXPR budget_kb "${budget_kb} * 1024")
endif()
if(budget_kb AND kb GREATER budget_kb)
  message(FATAL_ERROR "size: ${FILES} is ${kb} KiB gzipped, over its budget of ${BUDGET}: see what grew (docs/toolchain.md, \"Sizes\").")
endif()
