/* Basic types for freestanding code (kernel, user programs and lib/). */
#ifndef RNDBITS_TYPES_H
#define RNDBITS_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Physical addresses are 64-bit everywhere, so one walker serves every format. */
typedef uint64_t phys_addr_t;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define __section(s) __attribute__((section(s)))
#define __used __attribute__((used))
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __aligned(n) __attribute__((aligned(n)))
#define __packed __attribute__((packed))

#endif
