/* INTERIM (replaced by the initramfs work of issue 15): the built-in programs as files of the
 * namespace, straight from the user_programs section; /bin holds the native builds, /bin32 the
 * 32-bit ones of a 64-bit preset. */
#include <exec.h>
#include <fs.h>
#include <initramfs.h>
#include <kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>

struct user_program {
	const char *name;
	const uint8_t *image;
	const uint8_t *image_end;
	uintptr_t compat;
};
extern const struct user_program __start_user_programs[], __stop_user_programs[];

#define MAX_BUILTIN 64
static struct fs_file files[MAX_BUILTIN];
static char paths[MAX_BUILTIN][40];
static unsigned nr_files;

static void index_builtins(void)
{
	if (nr_files)
		return;
	for (const struct user_program *p = __start_user_programs;
	     p < __stop_user_programs && nr_files < MAX_BUILTIN; p++) {
		struct fs_file *f = &files[nr_files];
		snprintf(paths[nr_files], sizeof(paths[0]), "%s/%s", p->compat ? "/bin32" : "/bin",
			 p->name);
		f->path = paths[nr_files];
		f->name = p->name;
		f->data = p->image;
		f->size = (size_t)(p->image_end - p->image);
		f->mode = 0100755;
		f->ino = ++nr_files + 1;
	}
}

const struct fs_file *fs_file_lookup(const char *path)
{
	index_builtins();
	for (unsigned i = 0; i < nr_files; i++)
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	return NULL;
}

/* ls /bin: each native program once, in name order. */
static void list_bin(void (*emit)(const char *name))
{
	const char *last = "";

	index_builtins();
	for (;;) {
		const char *next = NULL;
		for (unsigned i = 0; i < nr_files; i++)
			if (strncmp(files[i].path, "/bin/", 5) == 0 && strcmp(files[i].name, last) > 0 &&
			    (!next || strcmp(files[i].name, next) < 0))
				next = files[i].name;
		if (!next)
			return;
		emit(next);
		last = next;
	}
}
FS_DIR(bin, "/bin", list_bin);

int initramfs_unpack(const void *data, size_t size, const char *what)
{
	(void)data, (void)size;
	printk("initramfs: %s: not supported yet\n", what);
	return -ENOSYS;
}
