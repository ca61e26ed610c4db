/* lib/cpio.c: archives written by the host's GNU cpio (-H newc and -H crc) and by
 * tools/mkcpio.py (with --align) read back entry by entry; every malformed form refused with
 * -EINVAL and its reason; every truncation and every single-byte corruption of a real archive
 * read without a byte outside the buffer (ASan: each archive sits in a malloc'd buffer of exactly
 * its size). */
#include "lib_under_test.h"
#include <lib/cpio.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_files.h"

#ifndef MKCPIO
#define MKCPIO "tools/mkcpio.py"
#endif

static char tmpdir[64];

/* The files every archive here holds: sizes 0..5 and one over a page, to see each 4-byte
 * padding case. */
struct member {
	const char *name;
	size_t size;
	bool dir;
};
static const struct member members[] = {
	{ "bin", 0, true },     { "bin/empty", 0 },  { "bin/one", 1 },   { "bin/two", 2 },
	{ "bin/three", 3 },     { "bin/four", 4 },   { "bin/five", 5 },  { "bin/big", 5000 },
	{ "etc", 0, true },     { "etc/deep", 0, true }, { "etc/deep/f", 7 },
};

static uint8_t content_byte(const char *name, size_t i)
{
	return (uint8_t)(strlen(name) * 31 + i * 7 + (i >> 8));
}

static void run(const char *cmd)
{
	int rc = system(cmd);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, cmd);
}

static int make_tree(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/test_cpio.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	char path[256];
	for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, members[m].name);
		if (members[m].dir) {
			if (mkdir(path, 0755))
				return -1;
			continue;
		}
		FILE *f = fopen(path, "wb");
		if (!f)
			return -1;
		for (size_t i = 0; i < members[m].size; i++)
			fputc(content_byte(members[m].name, i), f);
		fclose(f);
	}
	return 0;
}

static int remove_tree(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

/* An archive of the tree by GNU cpio in format fmt ("newc", "crc"), loaded. */
static uint8_t *gnu_archive(const char *fmt, size_t *size)
{
	char cmd[512], out[128];
	snprintf(out, sizeof(out), "%s.%s.cpio", tmpdir, fmt);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf '%%s\\n' bin bin/empty bin/one bin/two bin/three bin/four bin/five "
		 "bin/big etc etc/deep etc/deep/f | cpio --quiet -o -H %s > %s",
		 tmpdir, fmt, out);
	run(cmd);
	uint8_t *data = host_load_file(out, size);
	unlink(out);
	return data;
}

/* The same files by tools/mkcpio.py (which adds the implied directories itself). */
static uint8_t *mkcpio_archive(const char *opts, size_t *size)
{
	char cmd[1024], out[128];
	snprintf(out, sizeof(out), "%s.mk.cpio", tmpdir);
	int n = snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s %s %s", MKCPIO, opts, out);
	for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, members[m].dir ? " %s/=" : " %s=%s/%s",
			      members[m].name, tmpdir, members[m].name);
	run(cmd);
	uint8_t *data = host_load_file(out, size);
	unlink(out);
	return data;
}

/* Every entry of data is one of members, in order, with its bytes; the walk then ends. */
static void check_members(const uint8_t *data, size_t size)
{
	struct cpio_reader r;
	struct cpio_entry e;

	cpio_init(&r, data, size);
	for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
		assert_int_equal(cpio_next(&r, &e), 1);
		assert_string_equal(e.name, members[m].name);
		assert_int_equal(e.size, members[m].size);
		assert_int_equal(e.mode & CPIO_S_IFMT, members[m].dir ? CPIO_S_IFDIR : CPIO_S_IFREG);
		assert_int_equal((e.data - data) % 4, 0);
		for (size_t i = 0; i < e.size; i++)
			assert_int_equal(e.data[i], content_byte(members[m].name, i));
	}
	assert_int_equal(cpio_next(&r, &e), 0);
	assert_int_equal(cpio_next(&r, &e), 0); /* stays ended */
	assert_null(r.error);
}

static void test_gnu_newc(void **state)
{
	size_t size;
	uint8_t *data = gnu_archive("newc", &size);
	check_members(data, size);
	free(data);
}

static void test_gnu_crc(void **state)
{
	size_t size;
	uint8_t *data = gnu_archive("crc", &size);
	check_members(data, size);
	free(data);
}

static void test_mkcpio_aligned(void **state)
{
	size_t size;
	uint8_t *data = mkcpio_archive("--align 4096", &size);
	struct cpio_reader r;
	struct cpio_entry e;

	check_members(data, size);
	cpio_init(&r, data, size);
	while (cpio_next(&r, &e) > 0)
		if ((e.mode & CPIO_S_IFMT) == CPIO_S_IFREG)
			assert_int_equal((e.data - data) % 4096, 0);
	free(data);
	data = mkcpio_archive("--crc", &size);
	check_members(data, size);
	free(data);
}

/* The result of reading all of a copy of bytes [0, len) of data: 0 or -EINVAL (reason in
 * *why), in a buffer of exactly len bytes. */
static int read_all(const uint8_t *data, size_t len, const char **why, unsigned *entries)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct cpio_reader r;
	struct cpio_entry e;
	int n;

	memcpy(copy, data, len);
	cpio_init(&r, copy, len);
	while ((n = cpio_next(&r, &e)) > 0) {
		assert_true(e.data >= copy && e.size <= (size_t)(copy + len - e.data));
		assert_true(e.name[0] != '\0');
	}
	*why = r.error;
	if (entries)
		*entries = r.index;
	free(copy);
	return n;
}

/* Cut at every byte: refused (never a crash, never a read past the cut) until the trailer is
 * whole; only the NUL padding after it may go. */
static void test_truncated_everywhere(void **state)
{
	size_t size;
	uint8_t *data = gnu_archive("newc", &size);
	const char *why;
	size_t name_at = (size_t)((uint8_t *)memmem(data, size, "TRAILER!!!", 11) - data);
	size_t end = (name_at + 11 + 3) & ~(size_t)3; /* the trailer's name and its padding */

	for (size_t cut = 0; cut < size; cut++) {
		int n = read_all(data, cut, &why, NULL);
		if (cut < end) {
			assert_int_equal(n, -EINVAL);
			assert_non_null(why);
		} else {
			assert_int_equal(n, 0);
		}
	}
	assert_int_equal(read_all(data, 0, &why, NULL), -EINVAL);
	assert_string_equal(why, "empty archive");
	free(data);
}

/* Any byte changed anywhere: whatever the result, nothing is read outside the buffer. */
static void test_corrupted_everywhere(void **state)
{
	size_t size;
	uint8_t *data = gnu_archive("crc", &size);
	const char *why;
	static const uint8_t values[] = { 0, '0', '7', '9', 'f', 'F', 'g', 0xff };

	for (size_t at = 0; at < size; at++) {
		uint8_t keep = data[at];
		for (size_t v = 0; v < sizeof(values); v++) {
			data[at] = values[v];
			(void)read_all(data, size, &why, NULL);
		}
		data[at] = keep;
	}
	free(data);
}

/* A one-entry archive built by hand: a header with the given fields, name, data, trailer. */
static size_t build(uint8_t *out, const char *magic, uint32_t mode, uint32_t filesize,
		    uint32_t namesize, const char *name, const char *data, bool with_trailer)
{
	size_t n = (size_t)sprintf((char *)out, "%s%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
				   magic, 5, mode, 0, 0, 1, 0, filesize, 0, 0, 0, 0, namesize, 0);
	memcpy(out + n, name, strlen(name) + 1);
	n += MIN(namesize, strlen(name) + 1); /* a namesize past the name: laid out as the name */
	while (n % 4)
		out[n++] = 0;
	memcpy(out + n, data, strlen(data));
	n += strlen(data);
	while (n % 4)
		out[n++] = 0;
	if (with_trailer)
		n += build(out + n, "070701", 0, 0, 11, "TRAILER!!!", "", false);
	return n;
}

static void expect_refused(const uint8_t *buf, size_t len, const char *reason, unsigned entry)
{
	const char *why;
	unsigned entries;
	assert_int_equal(read_all(buf, len, &why, &entries), -EINVAL);
	assert_string_equal(why, reason);
	assert_int_equal(entries + 1, entry);
}

static void test_malformed(void **state)
{
	uint8_t buf[1024];
	size_t n;
	const char *why;

	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", true);
	assert_int_equal(read_all(buf, n, &why, NULL), 0);

	n = build(buf, "070707", 0100644, 3, 4, "abc", "xyz", true); /* odc's magic */
	expect_refused(buf, n, "bad magic", 1);
	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", true);
	buf[6 + 8 + 3] = 'x'; /* inside the mode field */
	expect_refused(buf, n, "bad header field", 1);
	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", true);
	buf[6 + 8 * 11 + 7] = ' '; /* namesize */
	expect_refused(buf, n, "bad header field", 1);
	n = build(buf, "070701", 0100644, 0, 0, "", "", true);
	expect_refused(buf, n, "empty name", 1);
	n = build(buf, "070701", 0100644, 0, 1, "", "", true);
	expect_refused(buf, n, "empty name", 1);
	n = build(buf, "070701", 0100644, 3, 3, "abc", "xyz", true); /* NUL not counted */
	expect_refused(buf, n, "name not terminated", 1);
	n = build(buf, "070701", 0100644, 3, 0x7fffffff, "abc", "", false);
	expect_refused(buf, n, "truncated archive", 1);
	n = build(buf, "070701", 0100644, 0xffffffff, 4, "abc", "", false);
	expect_refused(buf, n, "truncated archive", 1);
	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", false);
	expect_refused(buf, n, "missing trailer", 2);
	/* The second entry bad: its number is in the error. */
	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", false);
	n += build(buf + n, "07070X", 0100644, 3, 4, "abc", "xyz", true);
	expect_refused(buf, n, "bad magic", 2);
	/* 070702 with a wrong checksum (0, the data sums to something else). */
	n = build(buf, "070702", 0100644, 3, 4, "abc", "xyz", true);
	expect_refused(buf, n, "checksum mismatch", 1);
	/* After the trailer: NULs are fine, anything else must be a further archive. */
	n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", true);
	memset(buf + n, 0, 8);
	assert_int_equal(read_all(buf, n + 8, &why, NULL), 0);
	buf[n + 4] = 'j';
	expect_refused(buf, n + 8, "truncated archive", 3); /* 4 bytes: no room for a header */
	buf[n + 4] = 0;
	buf[n + 5] = '0';
	expect_refused(buf, n + 8, "bad padding after trailer", 3);
}

/* Two archives back to back (with NUL padding between), as a boot loader may concatenate. */
static void test_concatenated(void **state)
{
	uint8_t buf[1024];
	size_t n = build(buf, "070701", 0100644, 3, 4, "abc", "xyz", true);
	memset(buf + n, 0, 12);
	n += 12;
	n += build(buf + n, "070701", 040755, 0, 4, "dir", "", true);
	struct cpio_reader r;
	struct cpio_entry e;

	cpio_init(&r, buf, n);
	assert_int_equal(cpio_next(&r, &e), 1);
	assert_string_equal(e.name, "abc");
	assert_memory_equal(e.data, "xyz", 3);
	assert_int_equal(cpio_next(&r, &e), 1);
	assert_string_equal(e.name, "dir");
	assert_int_equal(e.mode, 040755);
	assert_int_equal(cpio_next(&r, &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gnu_newc),
		cmocka_unit_test(test_gnu_crc),
		cmocka_unit_test(test_mkcpio_aligned),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_corrupted_everywhere),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_concatenated),
	};
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
