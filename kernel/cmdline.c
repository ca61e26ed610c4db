/* The kernel command line: kept in the boot record as whole words, then looked up by key
 * ("rng.seed=1", "sysctl.vm.mmap_rnd_bits=20", "initrd=ADDR,SIZE"), every occurrence in order
 * as Linux's parse_args takes them. */
#include <kernel/boot.h>
#include <lib/string.h>

/* How much of a command line of len bytes fits in max bytes as whole words: all of it if it
 * fits, else up to the last blank before the word the limit cuts (or that starts right at it),
 * without the blanks in front of that word. */
static size_t whole_words_within(const char *cmdline, size_t len, size_t max)
{
	size_t keep = max;

	if (len <= max)
		return len;
	while (keep > 0 && cmdline[keep] != ' ' && cmdline[keep - 1] != ' ')
		keep--;
	while (keep > 0 && cmdline[keep - 1] == ' ')
		keep--;
	return keep;
}

void boot_set_cmdline(struct boot_info *bi, const char *cmdline, bool strip_image_path)
{
	size_t len, keep;

	bi->cmdline[0] = '\0';
	bi->cmdline_given = 0;
	bi->cmdline_refused[0] = '\0';
	if (!cmdline)
		return;
	if (strip_image_path) {
		while (*cmdline && *cmdline != ' ')
			cmdline++;
	}
	while (*cmdline == ' ')
		cmdline++;
	len = strlen(cmdline);
	keep = whole_words_within(cmdline, len, sizeof(bi->cmdline) - 1);
	memcpy(bi->cmdline, cmdline, keep);
	bi->cmdline[keep] = '\0';
	bi->cmdline_given = len;
	if (keep < len) {
		const char *tail = cmdline + keep;

		while (*tail == ' ')
			tail++;
		strlcpy(bi->cmdline_refused, tail, sizeof(bi->cmdline_refused));
	}
}

size_t cmdline_next_word(const char **p, const char **word)
{
	while (**p == ' ')
		(*p)++;
	*word = *p;
	while (**p && **p != ' ')
		(*p)++;
	return (size_t)(*p - *word);
}

int boot_cmdline_next(const char **pos, const char *key, const char **value)
{
	size_t klen = strlen(key), len;
	const char *word;

	while ((len = cmdline_next_word(pos, &word)) != 0) {
		if (len > klen && strncmp(word, key, klen) == 0 && word[klen] == '=') {
			*value = word + klen + 1;
			return (int)(len - klen - 1);
		}
	}
	return -1;
}

int boot_cmdline_get(const struct boot_info *bi, const char *key, const char **value)
{
	const char *pos = bi->cmdline;

	return boot_cmdline_next(&pos, key, value);
}
