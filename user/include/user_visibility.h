/* Force-included first in every user object (user/CMakeLists.txt). Every symbol of a user
 * program lives in that one static image, so marking them hidden lets the compiler address them
 * PC-relative even under -fpie: the position-independent images (hello-pie) then need no GOT
 * entries and therefore no dynamic relocations at all. */
#pragma GCC visibility push(hidden)
