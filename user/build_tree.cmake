# Brings one page size's user programs (user/CMakeLists.txt) up to date: configures the ISA's
# project the first time, then builds its target for the page size. Run by every preset that uses
# it (cmake -P, from the top-level CMakeLists.txt and the Makefile) with -DSOURCE= -DBINARY= (the
# ISA's project, build/user/<isa>) -DISA= -DBITS= -DPAGE_SHIFT=.
#
# Presets are built in parallel (make test), and several of them share this project: the lock
# makes the second wait for the first instead of both writing the same files; it then finds what
# it needs up to date, or builds what its page size has of its own.
file(MAKE_DIRECTORY ${BINARY})
file(LOCK ${BINARY} DIRECTORY GUARD PROCESS TIMEOUT 900 RESULT_VARIABLE locked)
if(NOT locked EQUAL 0)
  message(FATAL_ERROR "user: cannot lock ${BINARY}: ${locked}")
endif()

# A tree another generator made (Unix Makefiles, before Ninja) is configured afresh: CMake
# refuses to switch generators in place.
if(EXISTS ${BINARY}/CMakeCache.txt)
  file(STRINGS ${BINARY}/CMakeCache.txt generator REGEX "^CMAKE_GENERATOR:INTERNAL=")
  if(NOT generator STREQUAL "CMAKE_GENERATOR:INTERNAL=Ninja")
    file(REMOVE_RECURSE ${BINARY}/CMakeCache.txt ${BINARY}/CMakeFiles)
  endif()
endif()
if(NOT EXISTS ${BINARY}/CMakeCache.txt)
  execute_process(COMMAND ${CMAKE_COMMAND} -G Ninja -S ${SOURCE} -B ${BINARY}
                    -DRNDBITS_ISA=${ISA} -DRNDBITS_BITS=${BITS}
                  OUTPUT_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "user: configuring ${BINARY} failed")
  endif()
endif()
math(EXPR page_k "(1 << ${PAGE_SHIFT}) / 1024")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} --target user_programs_${page_k}k
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "user: building ${BINARY} (${page_k}K pages) failed")
endif()
