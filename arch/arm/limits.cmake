# arm's vm.mmap_rnd_bits range (arch/arm/Kconfig's ARCH_MMAP_RND_BITS_MIN/MAX): the user half
# shrinks with PAGE_OFFSET, and so does the room for entropy. No compat tasks.
# Read by cmake/limits.cmake for every preset (the host tests configure them all at once).
function(rndbits_mmap_rnd_limits_arm bits page_shift va_bits page_offset)
  if(page_offset EQUAL 0x40000000)
    set(max 14)
  elseif(page_offset EQUAL 0x80000000)
    set(max 15)
  else()
    set(max 16)
  endif()
  set(RND_MIN 8 PARENT_SCOPE)
  set(RND_MAX ${max} PARENT_SCOPE)
  set(COMPAT 0 PARENT_SCOPE)
endfunction()
