/* The initramfs (include/kernel/initramfs.h): cpio newc archives unpacked into a read-only tree of
 * directories and files, the way Linux's populate_rootfs fills its rootfs: the archive built
 * into the image first (the built-in programs), then the one the boot loader passed.
 *
 * The built-in archive is added when the tree is first used (a lookup, a listing, another
 * archive), not at boot: most boots run a few programs, and its checking and adding is the
 * largest part of what the boot would otherwise do (docs/benchmarks.md). Its files are used in
 * place, so adding it later takes no frames the boot did not.
 *
 * The tree is a flat table of nodes (struct fs_file), found by path. A later node with the same
 * path replaces an earlier one (lookups go from the newest), so an archive can overwrite a file
 * of an earlier one; an archive is added whole or not at all: it is walked and checked once
 * before anything changes, and if adding it still fails (no frames, a file where a directory
 * must be) the nodes added so far are taken back. */
#include <arch/memory.h>
#include <kernel/fs.h>
#include <kernel/initramfs.h>
#include <kernel/kernel.h>
#include <lib/cpio.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/path.h>
#include <lib/string.h>
#include <mm/pmm.h>

#define MAX_NODES 1024
#define NAMES_SIZE (48u << 10) /* the nodes' paths, NUL-terminated, one after another */
#define DIR_MODE (CPIO_S_IFDIR | 0755)

static struct fs_file nodes[MAX_NODES];
static unsigned copied_pages[MAX_NODES]; /* frames holding a node's copied data, else 0 */
static unsigned nr_nodes;
static char names[NAMES_SIZE];
static size_t names_used;

static void add_pending_builtin(void);

static bool is_dir(const struct fs_file *f)
{
	return (f->mode & CPIO_S_IFMT) == CPIO_S_IFDIR;
}

static struct fs_file *find_node(const char *path)
{
	for (unsigned i = nr_nodes; i-- > 0;)
		if (strcmp(nodes[i].path, path) == 0)
			return &nodes[i];
	return NULL;
}

const struct fs_file *ramfs_lookup(const char *path)
{
	add_pending_builtin();
	return find_node(path);
}

const struct fs_file *fs_file_lookup(const char *path)
{
	const struct fs_file *f = ramfs_lookup(path);

	return f && !is_dir(f) ? f : NULL;
}

/* Is f's parent directory dir ("/" or "/bin")? */
static bool in_dir(const struct fs_file *f, const char *dir, size_t dir_len)
{
	size_t parent_len = (size_t)(f->name - f->path) - 1; /* up to the last slash */

	if (dir_len == 1) /* the root */
		return parent_len == 0;
	return parent_len == dir_len && strncmp(f->path, dir, dir_len) == 0;
}

const struct fs_file *ramfs_next_child(const char *dir, const char *after)
{
	size_t dir_len = strlen(dir);
	const struct fs_file *next = NULL;

	add_pending_builtin();
	for (unsigned i = 0; i < nr_nodes; i++) {
		const struct fs_file *f = &nodes[i];
		if (!in_dir(f, dir, dir_len) || strcmp(f->name, after) <= 0)
			continue;
		/* Of equal names the newest: the one a lookup of its path finds. */
		if (!next || strcmp(f->name, next->name) <= 0)
			next = f;
	}
	return next;
}

/* --- Names ------------------------------------------------------------------------------- */

/* The namespace path of archive name `name` for an entry of type `type` into out ("/bin/x"):
 * 1, 0 for the root itself (passed over), or -EINVAL with *why set. */
static int archive_path(const char *name, unsigned type, char *out, size_t size, const char **why)
{
	size_t o = 0;
	unsigned parts = 0;

	for (const char *s = name; *s;) {
		while (*s == '/')
			s++;
		const char *end = s;
		while (*end && *end != '/')
			end++;
		size_t len = (size_t)(end - s);
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			*why = "'..' in a name";
			return -EINVAL;
		}
		if (len && !(len == 1 && s[0] == '.')) {
			if (o + 1 + len >= size) {
				*why = "name too long";
				return -EINVAL;
			}
			out[o++] = '/';
			memcpy(out + o, s, len);
			o += len;
			parts++;
		}
		s = end;
	}
	out[o] = '\0';
	if (parts == 0)
		return 0;
	if (parts == 1 && type != CPIO_S_IFDIR) { /* a bare name: /bin/NAME */
		if (o + 4 >= size) {
			*why = "name too long";
			return -EINVAL;
		}
		memmove(out + 4, out, o + 1);
		memcpy(out, "/bin", 4);
	}
	return 1;
}

/* --- Adding nodes ------------------------------------------------------------------------ */

static const char *save_name(const char *path)
{
	size_t len = strlen(path) + 1;

	if (len > NAMES_SIZE - names_used)
		return NULL;
	char *s = names + names_used;
	memcpy(s, path, len);
	names_used += len;
	return s;
}

static struct fs_file *new_node(const char *path, unsigned mode)
{
	if (nr_nodes == MAX_NODES)
		return NULL;
	const char *saved = save_name(path);
	if (!saved)
		return NULL;
	struct fs_file *f = &nodes[nr_nodes];
	memset(f, 0, sizeof(*f));
	copied_pages[nr_nodes] = 0;
	f->path = saved;
	f->name = strrchr(saved, '/') + 1;
	f->mode = mode;
	/* Inode numbers as Linux 6.1's tmpfs rootfs hands them out in creation order: 1 is the
	 * root's, 2-4 the built-in default initramfs's /dev, /dev/console and /root (unpacked
	 * before any initrd), so the archive's first entry is 5. */
	f->ino = nr_nodes + 5;
	nr_nodes++;
	return f;
}

/* Make the directory path and its parents exist: 0, -ENOTDIR (a file is in the way),
 * -ENOSPC (no room for the node). An existing directory keeps its mode. */
static int make_dirs(const char *path, unsigned mode)
{
	char prefix[FS_PATH_MAX];
	size_t len = strlen(path);

	for (size_t i = 1; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		const struct fs_file *f = find_node(prefix);
		if (f && !is_dir(f))
			return -ENOTDIR;
		if (!f && !new_node(prefix, i == len ? mode : DIR_MODE))
			return -ENOSPC;
	}
	return 0;
}

static unsigned order_for(size_t pages)
{
	unsigned order = 0;

	while (((size_t)1 << order) < pages)
		order++;
	return order;
}

/* Page-aligned bytes for e's data: in place if it is aligned already, else copied into frames
 * (the tail of the power-of-two block given back). *pages: how many frames were taken. */
static const uint8_t *place_data(const struct cpio_entry *e, unsigned *pages)
{
	*pages = 0;
	if (((uintptr_t)e->data & (PAGE_SIZE - 1)) == 0 || e->size == 0)
		return e->data;
	size_t n = (e->size + PAGE_SIZE - 1) / PAGE_SIZE;
	unsigned order = order_for(n);
	phys_addr_t pa = pmm_alloc_pages(order);
	if (!pa)
		return NULL;
	for (size_t i = n; i < ((size_t)1 << order); i++)
		pmm_free_page(pa + (phys_addr_t)i * PAGE_SIZE);
	uint8_t *copy = __va(pa);
	memcpy(copy, e->data, e->size);
	*pages = (unsigned)n;
	return copy;
}

static int add_file(const struct cpio_entry *e, const char *path)
{
	char parent[FS_PATH_MAX];

	strlcpy(parent, path, sizeof(parent));
	*strrchr(parent, '/') = '\0';
	int err = *parent ? make_dirs(parent, DIR_MODE) : 0;
	if (err)
		return err;
	const struct fs_file *old = find_node(path);
	if (old && is_dir(old))
		return -EISDIR;
	struct fs_file *f = new_node(path, e->mode);
	if (!f)
		return -ENOSPC;
	unsigned pages;
	f->data = place_data(e, &pages);
	if (!f->data) {
		nr_nodes--;
		return -ENOMEM;
	}
	f->size = e->size;
	copied_pages[f - nodes] = pages;
	return 0;
}

/* Take back every node from `first` on, and the frames they hold. */
static void roll_back(unsigned first, size_t names_mark)
{
	for (unsigned i = first; i < nr_nodes; i++)
		for (unsigned p = 0; p < copied_pages[i]; p++)
			pmm_free_page(__pa(nodes[i].data) + (phys_addr_t)p * PAGE_SIZE);
	nr_nodes = first;
	names_used = names_mark;
}

/* --- Archives ---------------------------------------------------------------------------- */

struct archive_counts {
	unsigned files, dirs, links, skipped;
	unsigned link_entries; /* symbolic links in the archive: add_links runs only if any */
	uint64_t bytes;
};

/* The whole archive checked (format, names) and counted, without changing anything. */
static int check_archive(const void *data, size_t size, struct archive_counts *c,
			 const char **why, unsigned *entry)
{
	struct cpio_reader r;
	struct cpio_entry e;
	char path[FS_PATH_MAX];
	int n;

	memset(c, 0, sizeof(*c));
	cpio_init(&r, data, size);
	while ((n = cpio_next(&r, &e)) > 0) {
		unsigned type = e.mode & CPIO_S_IFMT;
		*entry = r.index;
		if (archive_path(e.name, type, path, sizeof(path), why) < 0)
			return -EINVAL;
		if (type == CPIO_S_IFREG) {
			c->files++;
			c->bytes += e.size;
		} else if (type == CPIO_S_IFDIR) {
			c->dirs++;
		} else if (type == CPIO_S_IFLNK) {
			c->link_entries++; /* links are counted as they are added */
		} else {
			c->skipped++;
		}
	}
	*entry = r.index + 1;
	*why = r.error;
	return n;
}

/* The regular file a symbolic link entry leads to (its data is the target, relative to the
 * link's directory unless absolute), or NULL if there is none (yet). */
static const struct fs_file *link_target(const struct cpio_entry *e, const char *path)
{
	char target[FS_PATH_MAX], dir[FS_PATH_MAX], clean[FS_PATH_MAX];
	bool slash;

	if (e->size == 0 || e->size >= sizeof(target))
		return NULL;
	memcpy(target, e->data, e->size);
	target[e->size] = '\0';
	strlcpy(dir, path, sizeof(dir));
	char *last = strrchr(dir, '/');
	last[last == dir ? 1 : 0] = '\0';
	if (path_clean(dir, target, clean, sizeof(clean), &slash) || slash)
		return NULL;
	const struct fs_file *f = find_node(clean);

	return f && !is_dir(f) ? f : NULL;
}

/* Symbolic links to files: the tree has no links of its own, so a link becomes a second name
 * for its target's bytes (stat and exec see the target, as through a followed link: `run sh`
 * of busybox's /bin/sh -> busybox runs busybox as sh). Links to links resolve over rounds, in
 * any archive order; links to directories, or to nothing, are passed over and counted. */
static int add_links(const void *data, size_t size, struct archive_counts *c)
{
	struct cpio_reader r;
	struct cpio_entry e;
	char path[FS_PATH_MAX];
	const char *why;
	unsigned total = 0;

	for (unsigned round = 0; round < 8; round++) {
		unsigned added = 0;
		total = 0;
		cpio_init(&r, data, size);
		while (cpio_next(&r, &e) > 0) {
			if ((e.mode & CPIO_S_IFMT) != CPIO_S_IFLNK ||
			    archive_path(e.name, CPIO_S_IFLNK, path, sizeof(path), &why) <= 0)
				continue;
			total++;
			const struct fs_file *t = link_target(&e, path), *old = find_node(path);
			if (!t || (old && old->data == t->data && old->size == t->size) ||
			    (old && (old->mode & CPIO_S_IFMT) == CPIO_S_IFDIR))
				continue;
			struct fs_file *f = new_node(path, t->mode);
			if (!f)
				return -ENOSPC;
			f->data = t->data;
			f->size = t->size;
			f->ino = t->ino;
			added++;
		}
		c->links += added;
		if (!added)
			break;
	}
	c->skipped += total - c->links;
	return 0;
}

static int add_archive(const void *data, size_t size, const char **why, unsigned *entry)
{
	struct cpio_reader r;
	struct cpio_entry e;
	char path[FS_PATH_MAX];

	cpio_init(&r, data, size);
	while (cpio_next(&r, &e) > 0) {
		unsigned type = e.mode & CPIO_S_IFMT;
		int err = 0;
		*entry = r.index;
		if (archive_path(e.name, type, path, sizeof(path), why) <= 0)
			continue; /* the root (checked: no error here) */
		if (type == CPIO_S_IFDIR)
			err = make_dirs(path, e.mode);
		else if (type == CPIO_S_IFREG)
			err = add_file(&e, path);
		if (err) {
			*why = err == -ENOTDIR ? "a file where a directory must be" :
			       err == -EISDIR  ? "a file over a directory" :
			       err == -ENOMEM  ? "out of memory" : "too many files";
			return err;
		}
	}
	return 0;
}

static void report_refusal(const char *what, const char *why, unsigned entry)
{
	printk("initramfs: %s: refused: %s (entry %u)\n", what, why, entry);
}

/* Add the archive checked by check_archive (c: its counts), whole or not at all. */
static int add_checked(const void *data, size_t size, struct archive_counts *c,
		       const char **why, unsigned *entry)
{
	unsigned first = nr_nodes;
	size_t names_mark = names_used;
	int err = add_archive(data, size, why, entry);

	if (!err && c->link_entries && (err = add_links(data, size, c)))
		*why = "too many files";
	if (err)
		roll_back(first, names_mark);
	return err;
}

int initramfs_unpack(const void *data, size_t size, const char *what)
{
	struct archive_counts c;
	const char *why = NULL;
	unsigned entry = 0;
	int err;

	add_pending_builtin(); /* first: a later archive's files replace its */
	err = check_archive(data, size, &c, &why, &entry);
	if (!err)
		err = add_checked(data, size, &c, &why, &entry);
	if (err) {
		report_refusal(what, why, entry);
		return err;
	}
	printk("initramfs: %s: %u file%s, %llu bytes", what, c.files, c.files == 1 ? "" : "s",
	       (unsigned long long)c.bytes);
	if (c.links)
		printk(", %u link%s", c.links, c.links == 1 ? "" : "s");
	if (c.skipped)
		printk(", %u skipped (not a file, directory or link to a file)", c.skipped);
	printk("\n");
	return 0;
}

/* The built-in programs' archive (user/CMakeLists.txt): page aligned in the image's rodata, and
 * its files' data page aligned within it (tools/mkcpio.py --align), so they are used in place:
 * nothing is copied, and exec maps the image's own frames. */
extern const uint8_t __initramfs_builtin_start[], __initramfs_builtin_end[];
static bool builtin_pending;

void initramfs_unpack_builtin(void)
{
	printk("initramfs: built-in: %lu bytes, unpacked when first used\n",
	       (unsigned long)(__initramfs_builtin_end - __initramfs_builtin_start));
	builtin_pending = true;
}

/* The built-in archive is checked and added like any other, only silently: its boot line has
 * been printed. A refusal (which a build of ours never makes) still gets its line. */
static void add_pending_builtin(void)
{
	size_t size = (size_t)(__initramfs_builtin_end - __initramfs_builtin_start);
	struct archive_counts c;
	const char *why = NULL;
	unsigned entry = 0;
	int err;

	if (!builtin_pending)
		return;
	builtin_pending = false;
	err = check_archive(__initramfs_builtin_start, size, &c, &why, &entry);
	if (!err)
		err = add_checked(__initramfs_builtin_start, size, &c, &why, &entry);
	if (err)
		report_refusal("built-in", why, entry);
}
