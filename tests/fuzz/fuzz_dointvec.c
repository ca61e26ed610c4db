/* kernel/proc_dointvec.c under libFuzzer: dointvec_minmax_parse and proc_dointvec_minmax on
 * arbitrary bytes and ranges, checked against their contract and, differentially, against a
 * reference written from Linux's __do_proc_dointvec with the C library's strtoull.
 *
 * Input: 4 bytes min, 4 bytes max (little endian; swapped if min > max), 1 byte selecting a
 * real sysctl range instead, then the text written. */
#include "lib_under_test.h"
#include <kernel/sysctl.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fuzz.h"

#define REF_MAX_WRITE 4095
#define TMPBUFLEN 22

/* The ranges the kernel's own sysctls use, so most inputs exercise realistic bounds. */
static const int real_ranges[][2] = {
	{ 18, 33 }, { 8, 16 }, { 11, 16 }, { 0, 2 }, { INT_MIN, INT_MAX }, { 0, 0 }, { -1, 1 },
};

static bool ref_is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Linux's write path for one int (proc_get_long + do_proc_dointvec_minmax_conv). */
static long reference(const char *buf, size_t len, int min, int max, int *value)
{
	char tmp[TMPBUFLEN];
	size_t pos = 0;

	if (len > REF_MAX_WRITE)
		len = REF_MAX_WRITE;
	while (pos < len && isspace((unsigned char)buf[pos]))
		pos++;
	if (pos == len)
		return -EINVAL;
	size_t left = len - pos, n = left < TMPBUFLEN - 1 ? left : TMPBUFLEN - 1;
	memcpy(tmp, buf + pos, n);
	tmp[n] = '\0';
	char *p = tmp;
	bool neg = *p == '-' && left > 1;
	if (neg)
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	unsigned long long mag = strtoull(p, &p, 0);
	if (errno == ERANGE)
		return -EINVAL;
	size_t used = (size_t)(p - tmp);
	if (used == TMPBUFLEN - 1 || (used < left && !ref_is_sep(*p)))
		return -EINVAL;
	if (neg ? mag > (unsigned long long)INT_MAX + 1 : mag > INT_MAX)
		return -EINVAL;
	long long v = neg ? -(long long)mag : (long long)mag;
	if (v < min || v > max)
		return -EINVAL;
	*value = (int)v;
	pos += used;
	while (pos < len && isspace((unsigned char)buf[pos]))
		pos++;
	return (long)pos;
}

static void check_parse(const char *text, size_t len, int min, int max)
{
	const int untouched = 0x5a5a5a5a;
	int value = untouched, ref_value = untouched;
	long r = dointvec_minmax_parse(text, len, min, max, &value);
	long ref = reference(text, len, min, max, &ref_value);

	FUZZ_CHECK(r == -EINVAL || (r > 0 && (size_t)r <= len && r <= REF_MAX_WRITE));
	if (r < 0) {
		FUZZ_CHECK(value == untouched);
	} else {
		FUZZ_CHECK(value >= min && value <= max);
	}
	FUZZ_CHECK(r == ref);
	FUZZ_CHECK(value == ref_value);
}

/* The sysctl handler: a failed write leaves the value alone, a read prints "%d\n". */
static void check_handler(const char *text, size_t len, int min, int max)
{
	int data = min;
	struct sysctl_entry e = { .name = "fuzz.value", .data = &data, .mode = 0644,
				  .min = min, .max = max, .handler = proc_dointvec_minmax };
	char *copy = malloc(len ? len : 1);
	memcpy(copy, text, len);
	long r = proc_dointvec_minmax(&e, true, copy, len);
	free(copy);
	FUZZ_CHECK(r == -EINVAL || (r >= 0 && (size_t)r <= len));
	FUZZ_CHECK(len != 0 || r == 0);
	if (r < 0)
		FUZZ_CHECK(data == min);
	FUZZ_CHECK(data >= min && data <= max);

	char out[16], want[16];
	long n = proc_dointvec_minmax(&e, false, out, sizeof(out));
	snprintf(want, sizeof(want), "%d\n", data);
	FUZZ_CHECK(n == (long)strlen(want) && strcmp(out, want) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	int min = (int)(uint32_t)fuzz_take(&in, 4);
	int max = (int)(uint32_t)fuzz_take(&in, 4);
	unsigned pick = (unsigned)fuzz_take(&in, 1);

	if (pick < 2 * ARRAY_SIZE(real_ranges)) {
		min = real_ranges[pick / 2][0];
		max = real_ranges[pick / 2][1];
	} else if (min > max) {
		int t = min;
		min = max;
		max = t;
	}
	/* An exact-size copy: a read past the end of the text is an ASan report. */
	char *text = malloc(in.size ? in.size : 1);
	memcpy(text, in.data, in.size);
	check_parse(text, in.size, min, max);
	check_handler(text, in.size, min, max);
	free(text);
	return 0;
}
