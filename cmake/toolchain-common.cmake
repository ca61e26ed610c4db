# Shared by the per-ISA toolchain files: a freestanding kernel, no OS, no libc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# CMake's compiler checks are skipped (identifying the compiler and its ABI takes a few compiles,
# ~0.8 s of CPU per build directory, and make test configures 18): these are gcc, known to work.
set(CMAKE_C_COMPILER_FORCED TRUE)
set(CMAKE_C_COMPILER_ID GNU)
