/* Path names (lib/path.c): the lexical clean-up the file namespace resolves names with. */
#ifndef RNDBITS_LIB_PATH_H
#define RNDBITS_LIB_PATH_H

#include <lib/types.h>

/* path (absolute, or relative to the absolute, clean directory dir) as an absolute, clean path
 * in out: duplicate slashes and "." components go, ".." takes back one component (never above
 * "/"). *trailing_slash says whether path ended with one. 0, or -ENAMETOOLONG if the result
 * does not fit in size bytes. */
long path_clean(const char *dir, const char *path, char *out, size_t size, bool *trailing_slash);

#endif
