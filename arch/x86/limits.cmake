# x86's vm.mmap_rnd_bits ranges (arch/x86/Kconfig): i386 8..16; x86_64 28..32 with ia32 compat
# tasks at 8..16. Read by cmake/limits.cmake for every preset (the host tests configure them all
# at once).
function(rndbits_mmap_rnd_limits_x86 bits page_shift va_bits page_offset)
  if(bits EQUAL 64)
    set(RND_MIN 28 PARENT_SCOPE)
    set(RND_MAX 32 PARENT_SCOPE)
    set(COMPAT 1 PARENT_SCOPE)
    set(COMPAT_MIN 8 PARENT_SCOPE)
    set(COMPAT_MAX 16 PARENT_SCOPE)
  else()
    set(RND_MIN 8 PARENT_SCOPE)
    set(RND_MAX 16 PARENT_SCOPE)
    set(COMPAT 0 PARENT_SCOPE)
  endif()
endfunction()
