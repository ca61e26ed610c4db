/* Runs a fuzz harness over files without libFuzzer, for the CTest corpus replay (any compiler,
 * ASan+UBSan): every argument is a file, or a directory whose regular files are each one input.
 * Exits 0 when every input ran; a harness invariant or a sanitizer aborts the process. */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long runs, still_failing;
static bool expect_failure;

/* --expect-failure: each input runs in a child that must die (invariant, sanitizer); an input
 * that passes is reported, since its finding has been fixed. */
static void run_input(const char *path, const uint8_t *data, size_t len)
{
	if (!expect_failure) {
		LLVMFuzzerTestOneInput(data, len);
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* The expected report goes to a log nobody needs to read. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		LLVMFuzzerTestOneInput(data, len);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		printf("%s: passes now: the finding is fixed; move it to corpus/ as a regression\n", path);
	else
		still_failing++;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		return -1;
	/* An exact-size copy, so ASan sees a read one byte past the input. */
	uint8_t *exact = malloc(len ? len : 1);
	memcpy(exact, buf, len);
	free(buf);
	run_input(path, exact, len);
	free(exact);
	runs++;
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), rc = 0;
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		    run_file(full) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;

	int first = 1;

	if (argc > 1 && strcmp(argv[1], "--expect-failure") == 0) {
		expect_failure = true;
		first = 2;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: %s [--expect-failure] FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = first; i < argc; i++)
		if (run_path(argv[i]) != 0)
			rc = 1;
	printf("%s: %lu inputs replayed%s", argv[0], runs, rc ? ", some unreadable" : "");
	if (expect_failure)
		printf(", %lu still failing as expected", still_failing);
	printf("\n");
	/* A replay of nothing is a broken corpus path, not a pass. */
	return rc || runs == 0 || (expect_failure && still_failing != runs);
}
