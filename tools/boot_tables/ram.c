/* The RAM the boot tables are built in, for mm/pgtable.c: the .boot_tables section's bytes at
 * its physical address (tests/host/fake/asm/memory.h's host_ram), and the ISA's pool of tables
 * as the page allocator (pmm_alloc_pages), which hands out its tables in order, each once: the
 * order the ISA's list of mappings needs them in. A table is the pool's table size (arm's 1 KiB
 * L2 tables are smaller than a page; the kernel's allocator would give each a page). Nothing is
 * freed but what a failing pt_map takes back, and the tables are not live: no barrier, no TLB to flush. */
#include <arch/memory.h>
#include <kernel/kernel.h>
#include <mm/pmm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_tables.h"

uint8_t *host_ram;
phys_addr_t host_ram_pa;
uint64_t host_ram_size;
static phys_addr_t pool_start, pool_next, pool_end;
/* Tables given back but not yet returned to the pool's end (see pmm_free_pages). */
#define POOL_TRACKED 4096
static bool pool_freed[POOL_TRACKED];
static uint64_t pool_table_bytes;
static unsigned pool_used;

void boot_ram_init(uint8_t *bytes, phys_addr_t pa, uint64_t size, phys_addr_t pool,
		   unsigned pool_tables, uint64_t table_bytes)
{
	host_ram = bytes;
	host_ram_pa = pa;
	host_ram_size = size;
	pool_start = pool_next = pool;
	memset(pool_freed, 0, sizeof(pool_freed));
	pool_end = pool + pool_tables * table_bytes;
	pool_table_bytes = table_bytes;
	pool_used = 0;
}

/* Every table the mapper reaches is one the tool placed in the section: anything else is a bug
 * in the tool, not a layout to report. */
void *host_fake_va(phys_addr_t pa)
{
	if (pa < host_ram_pa || pa - host_ram_pa >= host_ram_size) {
		fprintf(stderr, "boot_tables: %#llx is outside the .boot_tables section\n",
			(unsigned long long)pa);
		abort();
	}
	return host_ram + (pa - host_ram_pa);
}

void *boot_ram_va(phys_addr_t pa)
{
	return host_fake_va(pa);
}

unsigned boot_ram_pool_used(void)
{
	return pool_used;
}

/* Below the roots every table fits a page (table_order 0); 0 when the pool is used up, which
 * pt_map reports as -ENOMEM. The section starts zeroed and nothing else writes the pool. */
phys_addr_t pmm_alloc_pages(unsigned order)
{
	phys_addr_t pa = pool_next;

	if (order != 0 || pa == pool_end)
		return 0;
	pool_next += pool_table_bytes;
	pool_used++;
	return pa;
}

/* The mapper frees only what a failing pt_map allocated and takes back: the newest tables, in
 * whatever order it unlinks them. The pool takes them back from its end once the newest of
 * them has been given back; a free of anything older than what pt_map allocated is a bug. */
void pmm_free_pages(phys_addr_t pa, unsigned order)
{
	uint64_t index = (pa - pool_start) / pool_table_bytes;

	if (order != 0 || pa < pool_start || pa >= pool_next || index >= POOL_TRACKED ||
	    pool_freed[index]) {
		fprintf(stderr, "boot_tables: the mapper freed %#llx (order %u), not a table it "
			"had from the pool\n", (unsigned long long)pa, order);
		abort();
	}
	pool_freed[index] = true;
	while (pool_used && pool_freed[pool_used - 1]) {
		pool_freed[--pool_used] = false;
		pool_next -= pool_table_bytes;
	}
}

void arch_pt_sync(void)
{
}

void arch_tlb_flush_page(uintptr_t va)
{
	(void)va;
}

/* pt_print_walk's output, should anything print a walk: kernel/printk.c's printk over this. */
int vprintk(const char *fmt, va_list ap)
{
	return vfprintf(stderr, fmt, ap);
}
