/* The initial user stack of a new program, laid out as Linux 6.1 lays it out (fs/exec.c puts
 * the file name and the strings at the top, fs/binfmt_elf.c's create_elf_tables the rest).
 * Pure computation over a description of the contents: kernel/exec.c supplies the values and
 * copies the result into the process; the host tests check the layout. */
#include <kernel/elf.h>
#include <kernel/exec.h>
#include <lib/string.h>

/* The addresses of everything, from the top down. */
struct stack_places {
	uint64_t execfn, env_start, arg_start, platform, random;
	uint64_t sp;       /* argc */
	unsigned nauxv;    /* words of auxv, AT_NULL pair included */
};

static uint64_t strings_len(int n, const char *const *v)
{
	uint64_t len = 0;

	for (int i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	return len;
}

uint64_t exec_stack_strings_size(const struct exec_stack *s)
{
	return s->top_gap + strlen(s->execfn) + 1 + strings_len(s->envc, s->envp) +
	       strings_len(s->argc, s->argv);
}

static void place(const struct exec_stack *s, struct stack_places *pl)
{
	uint64_t p = s->top - s->top_gap;

	p -= strlen(s->execfn) + 1;
	pl->execfn = p;
	p -= strings_len(s->envc, s->envp);
	pl->env_start = p;
	p -= strings_len(s->argc, s->argv);
	pl->arg_start = p;
	p -= s->lower;
	p &= ~(uint64_t)(s->align - 1);
	if (s->platform)
		p -= strlen(s->platform) + 1;
	pl->platform = p;
	p -= 16;
	pl->random = p;
	pl->nauxv = 0;
	while (s->auxv[pl->nauxv] != AT_NULL)
		pl->nauxv += 2;
	pl->nauxv += 2;
	/* STACK_ADD then STACK_ROUND: below the auxv, the vectors and argc, 16-byte aligned. */
	uint64_t items = (uint64_t)(s->argc + 1) + (uint64_t)(s->envc + 1) + 1;
	pl->sp = (p - (pl->nauxv + items) * s->word) & ~(uint64_t)15;
}

uint64_t exec_stack_size(const struct exec_stack *s)
{
	struct stack_places pl;

	place(s, &pl);
	return s->top - pl.sp;
}

static void put(uint8_t *buf, uint64_t sp, uint64_t addr, const void *data, size_t len)
{
	memcpy(buf + (addr - sp), data, len);
}

static uint64_t put_word(uint8_t *buf, uint64_t sp, uint64_t addr, uint64_t value, unsigned word)
{
	uint32_t v32 = (uint32_t)value;

	put(buf, sp, addr, word == 8 ? (const void *)&value : (const void *)&v32, word);
	return addr + word;
}

/* The strings of v from addr up, their addresses as words from *at up. */
static uint64_t put_vector(uint8_t *buf, uint64_t sp, uint64_t at, uint64_t addr, int n,
			   const char *const *v, unsigned word)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(v[i]) + 1;
		put(buf, sp, addr, v[i], len);
		at = put_word(buf, sp, at, addr, word);
		addr += len;
	}
	return put_word(buf, sp, at, 0, word);
}

uint64_t exec_stack_build(const struct exec_stack *s, uint8_t *buf)
{
	struct stack_places pl;

	place(s, &pl);
	memset(buf, 0, (size_t)(s->top - pl.sp));
	put(buf, pl.sp, pl.execfn, s->execfn, strlen(s->execfn) + 1);
	if (s->platform)
		put(buf, pl.sp, pl.platform, s->platform, strlen(s->platform) + 1);
	put(buf, pl.sp, pl.random, s->random, 16);

	uint64_t at = put_word(buf, pl.sp, pl.sp, (uint64_t)s->argc, s->word);
	at = put_vector(buf, pl.sp, at, pl.arg_start, s->argc, s->argv, s->word);
	at = put_vector(buf, pl.sp, at, pl.env_start, s->envc, s->envp, s->word);
	for (unsigned i = 0; i < pl.nauxv; i += 2) {
		uint64_t key = s->auxv[i], value = s->auxv[i + 1];
		if (key == AT_RANDOM)
			value = pl.random;
		else if (key == AT_EXECFN)
			value = pl.execfn;
		else if (key == AT_PLATFORM)
			value = pl.platform;
		s->auxv[i + 1] = value;
		at = put_word(buf, pl.sp, at, key, s->word);
		at = put_word(buf, pl.sp, at, value, s->word);
	}
	return pl.sp;
}
