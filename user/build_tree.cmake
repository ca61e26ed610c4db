# Brings one shared user-program build (user/CMakeLists.txt) up to date: configures it the
# first time, then builds it. Run by every preset that uses it (cmake -P, from the top-level
# CMakeLists.txt) with -DSOURCE= -DBINARY= -DISA= -DBITS= -DPAGE_SHIFT=.
#
# Presets are built in parallel (make test), and several of them share this tree: the lock makes
# the second wait for the first instead of both writing the same files; it then finds the tree
# up to date.
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
                    -DRNDBITS_ISA=${ISA} -DRNDBITS_BITS=${BITS} -DRNDBITS_PAGE_SHIFT=${PAGE_SHIFT}
                  OUTPUT_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "user: configuring ${BINARY} failed")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "user: building ${BINARY} failed")
endif()
