/* Thread-local storage: initialised (.tdata) and zeroed (.tbss) __thread variables, read through
 * the thread pointer the libc set up from the ELF's PT_TLS (x86_64 arch_prctl, i386
 * set_thread_area, ARM set_tls, AArch64 TPIDR_EL0), changed, and read again. */
#include <stdio.h>
#include <string.h>

__thread int counter = 42;
__thread char word[16] = "initial";
__thread long zeroed;

static void show(const char *when)
{
	printf("tls %s: counter=%d word=%s zeroed=%ld\n", when, counter, word, zeroed);
}

int main(void)
{
	show("before");
	counter += 58;
	strcpy(word, "changed");
	zeroed = -1;
	show("after");
	return counter == 100 ? 0 : 1;
}
