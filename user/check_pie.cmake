# cmake -DIMAGE=<elf> -P check_pie.cmake: fails the build unless IMAGE is a position-independent
# executable the kernel can load without a relocation pass: ET_DYN, no PT_INTERP, no relocations.
find_program(READELF NAMES readelf REQUIRED)
execute_process(COMMAND ${READELF} -h -l -r -W ${IMAGE}
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_pie: readelf failed on ${IMAGE}")
endif()
if(NOT out MATCHES "Type: +DYN ")
  message(FATAL_ERROR "check_pie: ${IMAGE} is not ET_DYN")
endif()
if(out MATCHES "INTERP")
  message(FATAL_ERROR "check_pie: ${IMAGE} asks for a dynamic linker (PT_INTERP)")
endif()
if(NOT out MATCHES "There are no relocations in this file")
  message(FATAL_ERROR "check_pie: ${IMAGE} has relocations; a static PIE here must have none:\n${out}")
endif()
