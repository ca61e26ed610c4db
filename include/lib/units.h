/* Sizes and durations for people (lib/units.c): the largest unit that keeps the number at or
 * above 1, one decimal. Every `aslr` report prints through these, so 2^45 bytes reads
 * "32.0 TiB" and a brute force of 2^33 respawns reads in years, not "268433394 MiB". */
#ifndef RNDBITS_LIB_UNITS_H
#define RNDBITS_LIB_UNITS_H

#include <lib/types.h>

/* Room for any result of the two functions, with the terminator. */
#define UNITS_MAX 24

/* "0 bytes", "1023 bytes", "4.0 KiB", "1.5 MiB", ... "16.0 EiB" (binary units, rounded to
 * the nearest tenth; a value that rounds to 1024.0 of a unit reads as 1.0 of the next). */
void units_bytes(char *buf, size_t n, uint64_t bytes);

/* A duration given in tenths of a second: "0.5 seconds", "2.5 minutes", "45.5 hours" (hours
 * up to three days, as such figures are usually quoted), "12.3 days", "1.2 years" (from one
 * year of 365.25 days on). */
void units_duration(char *buf, size_t n, uint64_t tenths_of_s);

#endif
