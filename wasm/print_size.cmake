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
  set(BUDGET "245 KB")
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
