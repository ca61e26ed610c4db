/* The sysctl table and its front ends: the procps-style `sysctl` command and the kernel command
 * line. (/proc/sys files are in kernel/procfs.c.) */
#include <kernel/boot.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <kernel/shell.h>
#include <kernel/sysctl.h>

extern const struct sysctl_entry __start_sysctl_table[], __stop_sysctl_table[];

#define SYSCTL_NAME_MAX 64
#define SYSCTL_VALUE_MAX 32

/* Compare a dotted name with a dotted-or-slashed one, treating '/' as '.'. */
static bool name_matches(const char *dotted, const char *name)
{
	for (; *dotted && *name; dotted++, name++) {
		char c = *name == '/' ? '.' : *name;
		if (c != *dotted)
			return false;
	}
	return *dotted == *name;
}

const struct sysctl_entry *sysctl_find(const char *name)
{
	for (const struct sysctl_entry *e = __start_sysctl_table; e < __stop_sysctl_table; e++)
		if (name_matches(e->name, name))
			return e;
	return NULL;
}

const struct sysctl_entry *sysctl_next(const struct sysctl_entry *prev)
{
	const struct sysctl_entry *next = NULL;

	for (const struct sysctl_entry *e = __start_sysctl_table; e < __stop_sysctl_table; e++) {
		if (prev && strcmp(e->name, prev->name) <= 0)
			continue;
		if (!next || strcmp(e->name, next->name) < 0)
			next = e;
	}
	return next;
}

/* Linux's test_perm: root is judged by the owner bits, everyone else by the "other" bits (the
 * shell's users are not in group root). */
static bool permitted(const struct sysctl_entry *e, unsigned uid, unsigned want)
{
	unsigned mode = uid == 0 ? e->mode >> 6 : e->mode;

	return (want & ~mode & 07) == 0;
}

long sysctl_read(const struct sysctl_entry *e, unsigned uid, char *buf, size_t size)
{
	if (!permitted(e, uid, 04))
		return -EACCES;
	return e->handler(e, false, buf, size);
}

long sysctl_write(const struct sysctl_entry *e, unsigned uid, const char *buf, size_t len)
{
	if (!permitted(e, uid, 02))
		return -EACCES;
	/* Write handlers only read the buffer; the shared signature is the /proc file's. */
	return e->handler(e, true, (char *)buf, len);
}

/* "vm.mmap_rnd_bits" from "vm/mmap_rnd_bits", as procps prints keys. */
static void dotted_name(const char *name, char *out, size_t size)
{
	strlcpy(out, name, size);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '.';
}

/* The /proc/sys path of a key, for procps' "cannot stat" message. */
static void proc_path(const char *name, char *out, size_t size)
{
	snprintf(out, size, "/proc/sys/%s", name);
	for (char *p = out + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
}

static void strip_newline(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

struct sysctl_opts {
	bool names_off; /* -n: values only */
	bool quiet;     /* -q: no echo after a write */
	bool write;     /* -w */
};

static int show_key(const struct sysctl_opts *o, const char *name, bool listing)
{
	const struct sysctl_entry *e = sysctl_find(name);
	char key[SYSCTL_NAME_MAX], value[SYSCTL_VALUE_MAX], path[SYSCTL_NAME_MAX + 16];

	dotted_name(name, key, sizeof(key));
	if (!e) {
		proc_path(key, path, sizeof(path));
		printk("sysctl: cannot stat %s: No such file or directory\n", path);
		return 1;
	}
	long n = sysctl_read(e, current_uid(), value, sizeof(value));
	if (n == -EACCES) {
		printk("sysctl: permission denied on key '%s'\n", key);
		return listing ? 0 : 1;
	}
	strip_newline(value);
	if (o->names_off)
		printk("%s\n", value);
	else
		printk("%s = %s\n", key, value);
	return 0;
}

static int write_key(const struct sysctl_opts *o, char *assignment)
{
	char *eq = strchr(assignment, '=');
	char key[SYSCTL_NAME_MAX], path[SYSCTL_NAME_MAX + 16], text[SYSCTL_VALUE_MAX + 2];

	if (!eq) {
		printk("sysctl: \"%s\" must be of the form name=value\n", assignment);
		return 1;
	}
	*eq = '\0';
	const char *value = eq + 1;
	dotted_name(assignment, key, sizeof(key));
	const struct sysctl_entry *e = sysctl_find(assignment);
	if (!e) {
		proc_path(key, path, sizeof(path));
		printk("sysctl: cannot stat %s: No such file or directory\n", path);
		return 1;
	}
	/* procps writes the value followed by a newline, in one write. */
	int len = snprintf(text, sizeof(text), "%s\n", value);
	if (len >= (int)sizeof(text))
		len = (int)sizeof(text) - 1; /* longer than any valid int: the handler refuses it */
	long r = sysctl_write(e, current_uid(), text, (size_t)len);
	if (r == -EACCES) {
		printk("sysctl: permission denied on key \"%s\"\n", key);
		return 1;
	}
	if (r < 0) {
		printk("sysctl: setting key \"%s\": %s\n", key, strerror((int)-r));
		return 1;
	}
	if (!o->quiet) { /* procps echoes the value as it was given */
		if (o->names_off)
			printk("%s\n", value);
		else
			printk("%s = %s\n", key, value);
	}
	return 0;
}

static int list_all(const struct sysctl_opts *o)
{
	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e))
		show_key(o, e->name, true);
	return 0;
}

static void sysctl_usage(void)
{
	printk("usage: sysctl [-n] [-q] [-w] NAME[=VALUE]...\n"
	       "       sysctl -a\n");
}

static int cmd_sysctl(int argc, char **argv)
{
	struct sysctl_opts o = { 0 };
	bool all = false;
	int i, status = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *f = argv[i] + 1; *f; f++) {
			switch (*f) {
			case 'n': o.names_off = true; break;
			case 'q': o.quiet = true; break;
			case 'w': o.write = true; break;
			case 'a':
			case 'A':
			case 'X': all = true; break;
			default:
				printk("sysctl: invalid option -- '%c'\n", *f);
				sysctl_usage();
				return 1;
			}
		}
	}
	if (all)
		return list_all(&o);
	if (i == argc) {
		sysctl_usage();
		return 1;
	}
	for (; i < argc; i++) {
		if (o.write || strchr(argv[i], '='))
			status |= write_key(&o, argv[i]);
		else
			status |= show_key(&o, argv[i], false);
	}
	return status;
}
SHELL_COMMAND(sysctl, "sysctl", "sysctl [-n] [-q] [-w] NAME[=VALUE] | -a   read or set kernel parameters",
	      cmd_sysctl);

/* One sysctl.NAME=VALUE of the kernel command line, refused in Linux 6.1's words
 * (process_sysctl_arg). An empty value is refused before the write, as Linux does: as a write
 * it would change nothing and report success. */
static void apply_cmdline_param(const char *name, const char *value, size_t vlen)
{
	const struct sysctl_entry *e = sysctl_find(name);

	if (!e) {
		printk("sysctl: Failed to set sysctl parameter '%s=%s': parameter not found\n", name,
		       value);
		return;
	}
	if (vlen == 0 || sysctl_write(e, 0, value, vlen) < 0) {
		printk("sysctl: Failed to set sysctl parameter '%s=%s': invalid value; keeping %d\n",
		       e->name, value, *e->data);
		return;
	}
	printk("sysctl: %s = %d (from the kernel command line)\n", e->name, *e->data);
}

/* Every sysctl.NAME=VALUE in the order given, as Linux applies them: a repeated name ends with
 * its last value that was not refused. */
void sysctl_apply_cmdline(const char *cmdline)
{
	const char *p = cmdline, *word;
	static const char prefix[] = "sysctl.";
	size_t wlen;

	while ((wlen = cmdline_next_word(&p, &word)) != 0) {
		if (wlen <= sizeof(prefix) - 1 || strncmp(word, prefix, sizeof(prefix) - 1) != 0)
			continue;
		char name[SYSCTL_NAME_MAX], value[SYSCTL_VALUE_MAX];
		const char *eq = word;
		while (eq < p && *eq != '=')
			eq++;
		size_t nlen = (size_t)(eq - word) - (sizeof(prefix) - 1);
		size_t vlen = eq < p ? (size_t)(p - eq - 1) : 0;
		if (eq == p || nlen >= sizeof(name) || vlen >= sizeof(value)) {
			printk("sysctl: ignoring malformed kernel parameter \"%.*s\"\n", (int)wlen, word);
			continue;
		}
		memcpy(name, word + sizeof(prefix) - 1, nlen);
		name[nlen] = '\0';
		memcpy(value, eq + 1, vlen);
		value[vlen] = '\0';
		apply_cmdline_param(name, value, vlen);
	}
}
