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

# Batches: Python's start and the harness's imports are ~0.15 s of CPU, half the cost of a short
# transcript. So each preset's transcripts (and each UBSan kernel's) are played by two batch
# tests, serial-batch/<preset>/<k> (ubsan-batch/...), each one process that plays every other
# transcript in turn, each on a fresh QEMU of its own, exactly as `test` alone does; each
# transcript's own test (DEPENDS on its batch) then only prints the report the batch left and
# exits with its outcome (qemu/serial-result.sh). Run without its batch (`ctest -R` one test, a CI
# shard by transcript label) or if the batch stopped early, a transcript's test plays it itself.
# Two batches a preset keep both CPUs busy when one preset is tested alone.
set(batch_shards 2)
function(rndbits_add_batches kind preset root logs labels)
  set(command ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL})
  if(root)
    list(APPEND command --build-root ${root})
  endif()
  foreach(k RANGE 1 ${batch_shards})
    set(test ${kind}-batch/${preset}/${k})
    set(paths ${batch_${kind}_${preset}_${k}})
    if(NOT paths)
      continue()
    endif()
    list(LENGTH paths count)
    file(MAKE_DIRECTORY ${logs})   # (--log names a directory only if there is one)
    add_test(${test} ${command} test ${preset} --log ${logs}
             --results ${RNDBITS_SERIAL_LOGS}/results/${kind}-${preset}-${k} ${paths})
    set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${batch_${kind}_${preset}_${k}_seconds}
                         COST ${count} WORKING_DIRECTORY ${RNDBITS_SOURCE_DIR})
  endforeach()
endfunction()

string(REPLACE "\n" ";" pairs "${pairs}")
set(batch_presets "")
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
    list(FIND batch_presets "${preset}" known)
    if(known EQUAL -1)
      list(APPEND batch_presets ${preset})
      set(batch_count_${preset} 0)
      foreach(kind serial ubsan)
        foreach(j RANGE 1 ${batch_shards})
          set(batch_${kind}_${preset}_${j} "")
          set(batch_${kind}_${preset}_${j}_seconds 60)
        endforeach()
      endforeach()
    endif()
    math(EXPR batch_count_${preset} "${batch_count_${preset}} + 1")
    math(EXPR k "${batch_count_${preset}} % ${batch_shards} + 1")
    list(APPEND batch_serial_${preset}_${k} ${path})
    math(EXPR batch_serial_${preset}_${k}_seconds "${batch_serial_${preset}_${k}_seconds} + ${seconds}")
    set(test serial/${preset}/${name})
    add_test(${test} sh ${RNDBITS_SOURCE_DIR}/qemu/serial-result.sh
             ${RNDBITS_SERIAL_LOGS}/results/serial-${preset}-${k}/${name}
             ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} test ${preset} ${path}
             --log ${RNDBITS_SERIAL_LOGS}/${preset}-${name}.log)
    set_tests_properties(${test} PROPERTIES DEPENDS serial-batch/${preset}/${k})
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
    list(APPEND batch_ubsan_${preset}_${k} ${path})
    math(EXPR batch_ubsan_${preset}_${k}_seconds "${batch_ubsan_${preset}_${k}_seconds} + ${seconds}")
    set(test ubsan/${preset}/${name})
    add_test(${test} sh ${RNDBITS_SOURCE_DIR}/qemu/serial-result.sh
             ${RNDBITS_SERIAL_LOGS}/results/ubsan-${preset}-${k}/${name}
             ${RNDBITS_PYTHON} ${RNDBITS_QEMU_TOOL} --build-root ${RNDBITS_SOURCE_DIR}/build/ubsan
             test ${preset} ${path} --log ${RNDBITS_SOURCE_DIR}/build/ubsan/logs/${preset}-${name}.log)
    set_tests_properties(${test} PROPERTIES LABELS "ubsan" TIMEOUT ${seconds}
                         DEPENDS ubsan-batch/${preset}/${k} WORKING_DIRECTORY ${RNDBITS_SOURCE_DIR})
  endif()
endforeach()

foreach(preset IN LISTS batch_presets)
  rndbits_add_batches(serial ${preset} "" ${RNDBITS_SERIAL_LOGS} "${preset};serial")
  rndbits_add_batches(ubsan ${preset} ${RNDBITS_SOURCE_DIR}/build/ubsan
                      ${RNDBITS_SOURCE_DIR}/build/ubsan/logs "ubsan")
endforeach()
