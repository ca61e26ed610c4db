/* PROT_NONE keeps a page's contents (Linux 6.1; JITs and garbage collectors rely on it): a
 * page written, made inaccessible by mprotect, read (SIGSEGV with SEGV_ACCERR at the page, to a
 * handler that jumps out), handed to write(2) (EFAULT: the kernel refuses it as well), inherited
 * by a fork child that makes its copy readable, then made readable again in the parent: the
 * bytes written before are still there. Each check prints "ok: ..." or "FAIL: ..."; the exit
 * status is the number of failures. The same binary prints the same lines on Linux. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf back;
static volatile siginfo_t seen;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	seen = *si;
	siglongjmp(back, 1);
}

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

/* Read p[0]; 1 if that raised SIGSEGV (seen holds its siginfo), 0 if it read. */
static int read_faults(volatile char *p)
{
	if (sigsetjmp(back, 1))
		return 1;
	(void)p[0];
	return 0;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	struct sigaction sa;

	if (p == MAP_FAILED) {
		perror("protnone: mmap");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);

	strcpy(p, "kept");
	p[page - 1] = 'z';
	check(mprotect(p, (size_t)page, PROT_NONE) == 0, "mprotect(PROT_NONE) of a written page");
	check(read_faults(p) && seen.si_code == SEGV_ACCERR && seen.si_addr == p,
	      "a read of it is SIGSEGV, SEGV_ACCERR, si_addr the page");
	errno = 0;
	check(write(STDOUT_FILENO, p, 4) == -1 && errno == EFAULT, "write(2) from it is EFAULT");

	pid_t child = fork();
	if (child == 0) {
		int ok = mprotect(p, (size_t)page, PROT_READ) == 0 && strcmp(p, "kept") == 0;
		_exit(ok ? 0 : 1);
	}
	int status = -1;
	waitpid(child, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a fork child made its copy readable and read the bytes");

	check(mprotect(p, (size_t)page, PROT_READ | PROT_WRITE) == 0 && strcmp(p, "kept") == 0 &&
		      p[page - 1] == 'z',
	      "readable again, the page still holds what was written");
	strcpy(p, "new");
	check(strcmp(p, "new") == 0, "and it takes writes");
	check(munmap(p, (size_t)page) == 0, "munmap");
	return failures;
}
