# Run by CTest each time it reads the test list (tests/CMakeLists.txt sets it as a
# TEST_INCLUDE_FILES entry with the paths filled in): one test per (preset, transcript) pair, as
# `qemu/rndbits-qemu tests --cmake` lists them now (and, for RNDBITS_UBSAN_PRESETS, each again on
# the UBSan kernel, if tests/serial/ubsan.list names it). Lines: preset|name|path|seconds|labels|ubsan
# (labels comma-separated; ubsan is `ubsan` or `-`); preset `-` is a transcript that does not parse.
execute_process(COMMAND ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} tests --cmake
                WORKING_DIRECTORY ${RNDBITS_SOURCE_DIR}
                OUTPUT_VARIABLE pairs ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rndbits: qemu/rndbits-qemu tests failed:\n${errors}")
endif()

string(REPLACE "\n" ";" pairs "${pairs}")
foreach(pair IN LISTS pairs)
  if(pair STREQUAL "")
    continue()
  endif()
  string(REPLACE "|" ";" fields "${pair}")
  list(GET fields 0 preset)
  list(GET fields 1 name)
  list(GET fields 2 path)
  list(GET fields 3 seconds)
  list(GET fields 4 labels)
  list(GET fields 5 on_ubsan)
  string(REPLACE "," ";" labels "${labels}")
  if(preset STREQUAL "-")
    set(test serial/${name}/parse)
    add_test(${test} ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} check ${path})
  else()
    set(test serial/${preset}/${name})
    add_test(${test} ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} test ${preset} ${path}
             --log ${RNDBITS_SERIAL_LOGS}/${preset}-${name}.log)
  endif()
  # The harness bounds every step itself; the CTest timeout (from the transcript's length and
  # `timeout:`) is a backstop.
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${seconds}
                       WORKING_DIRECTORY ${RNDBITS_SOURCE_DIR})
  # The same transcript on the preset's UBSan kernel (build/ubsan/<preset>/), labelled `ubsan`
  # only: `make ubsan` and CI's ubsan job run them, a preset's job does not. Only the transcripts
  # of tests/serial/ubsan.list (which says why those).
  list(FIND RNDBITS_UBSAN_PRESETS "${preset}" ubsan)   # (no IN_LIST: CTest reads this file without policies)
  if(ubsan GREATER -1 AND NOT on_ubsan STREQUAL "-")
    set(test ubsan/${preset}/${name})
    add_test(${test} ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} --build-root ${RNDBITS_SOURCE_DIR}/build/ubsan
             test ${preset} ${path} --log ${RNDBITS_SOURCE_DIR}/build/ubsan/logs/${preset}-${name}.log)
    set_tests_properties(${test} PROPERTIES LABELS "ubsan" TIMEOUT ${seconds}
                         WORKING_DIRECTORY ${RNDBITS_SOURCE_DIR})
  endif()
endforeach()
