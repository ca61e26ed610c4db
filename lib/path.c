/* Lexical path clean-up (include/lib/path.h). Lexical ".." is right here: the namespace has no
 * symbolic links in the middle of a path but /proc/self, which resolves to a directory of
 * /proc whose parent is /proc either way. */
#include <lib/errno.h>
#include <lib/path.h>
#include <lib/string.h>

/* Append the components of s to out (o bytes used so far). */
static long append(const char *s, char *out, size_t size, size_t *o)
{
	while (*s) {
		while (*s == '/')
			s++;
		const char *end = s;
		while (*end && *end != '/')
			end++;
		size_t len = (size_t)(end - s);
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			while (*o > 0 && out[--*o] != '/')
				;
		} else if (len && !(len == 1 && s[0] == '.')) {
			if (*o + 1 + len + 1 > size)
				return -ENAMETOOLONG;
			out[(*o)++] = '/';
			memcpy(out + *o, s, len);
			*o += len;
		}
		s = end;
	}
	return 0;
}

long path_clean(const char *dir, const char *path, char *out, size_t size, bool *trailing_slash)
{
	size_t o = 0, n = strlen(path);
	long err = 0;

	*trailing_slash = n > 0 && path[n - 1] == '/';
	if (size < 2)
		return -ENAMETOOLONG;
	if (path[0] != '/')
		err = append(dir, out, size, &o);
	if (!err)
		err = append(path, out, size, &o);
	if (err)
		return err;
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}
