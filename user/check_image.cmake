# cmake -DEXEC=<elf>[,<elf>...] -DDYN=<elf>[,...] -DPAGE=<bytes> -P check_image.cmake
# Fails the build unless every image is what the kernel's ELF loader is promised: the expected
# type (ET_EXEC for EXEC's, ET_DYN for DYN's), no PT_INTERP, no relocations at all (not even in
# the position-independent images), and PT_LOAD segments that are page-aligned (p_align = PAGE,
# p_vaddr = p_offset modulo PAGE), non-empty, sorted, page-disjoint (every page gets exactly one
# segment's permissions), never writable and executable at once, with the entry point inside an
# executable one. One run checks a whole tree, before it is packed (user/CMakeLists.txt): a
# cmake process per image cost ~80 ms of CPU each, about what linking the image costs.
find_program(READELF NAMES readelf REQUIRED)

macro(fail msg)
  file(REMOVE ${IMAGE}) # so that the next build tries again instead of embedding it
  message(FATAL_ERROR "check_image: ${IMAGE}: ${msg}\n${out}")
endmacro()

function(check_image IMAGE TYPE)
  execute_process(COMMAND ${READELF} -h -l -r -W ${IMAGE} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  get_filename_component(what ${IMAGE} NAME)

  if(NOT rc EQUAL 0)
    fail("readelf failed")
  endif()
  if(NOT out MATCHES "Type: +${TYPE} ")
    fail("not ET_${TYPE}")
  endif()
  if(out MATCHES "INTERP")
    fail("asks for a dynamic linker (PT_INTERP)")
  endif()
  if(NOT out MATCHES "There are no relocations in this file")
    fail("has relocations")
  endif()
  string(REGEX MATCH "Entry point address: +0x([0-9a-f]+)" m "${out}")
  math(EXPR entry "0x${CMAKE_MATCH_1}")

  string(REGEX MATCHALL "LOAD +0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ [RWE ]+ 0x[0-9a-f]+"
         loads "${out}")
  if(NOT loads)
    fail("no PT_LOAD")
  endif()
  set(prev_end 0)
  set(entry_ok FALSE)
  foreach(l ${loads})
    string(REGEX MATCH "LOAD +0x([0-9a-f]+) 0x([0-9a-f]+) 0x[0-9a-f]+ 0x([0-9a-f]+) 0x([0-9a-f]+) ([RWE ]+) 0x([0-9a-f]+)"
           m "${l}")
    math(EXPR off "0x${CMAKE_MATCH_1}")
    math(EXPR vaddr "0x${CMAKE_MATCH_2}")
    math(EXPR filesz "0x${CMAKE_MATCH_3}")
    math(EXPR memsz "0x${CMAKE_MATCH_4}")
    set(flags "${CMAKE_MATCH_5}")
    math(EXPR align "0x${CMAKE_MATCH_6}")
    math(EXPR skew "(${vaddr} - ${off}) % ${PAGE}")
    math(EXPR start "${vaddr} - ${vaddr} % ${PAGE}")
    math(EXPR end "${vaddr} + ${memsz}")
    math(EXPR page_end "(${end} + ${PAGE} - 1) / ${PAGE} * ${PAGE}")
    if(NOT align EQUAL PAGE OR NOT skew EQUAL 0)
      fail("segment at ${vaddr} is not aligned to the ${PAGE}-byte page")
    endif()
    if(memsz EQUAL 0 OR filesz GREATER memsz)
      fail("segment at ${vaddr} is empty or has filesz > memsz")
    endif()
    if(start LESS prev_end)
      fail("segment at ${vaddr} shares a page with the one before it (or is out of order)")
    endif()
    if(flags MATCHES "W" AND flags MATCHES "E")
      fail("segment at ${vaddr} is writable and executable")
    endif()
    if(flags MATCHES "E" AND entry GREATER_EQUAL vaddr AND entry LESS end)
      set(entry_ok TRUE)
    endif()
    set(prev_end ${page_end})
  endforeach()
  if(NOT entry_ok)
    fail("the entry point is not inside an executable segment")
  endif()
endfunction()

foreach(type EXEC DYN)
  string(REPLACE "," ";" images "${${type}}")
  foreach(image ${images})
    check_image(${image} ${type})
  endforeach()
endforeach()
