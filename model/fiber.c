#include "fiber.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Simulated threads run short kernels and touch little stack: 16 KiB each
 * (docs/dialect.md). Stacks are carved from 2 MiB slabs backed by huge
 * pages where the kernel allows: a block's thousand fibers then share 8
 * TLB entries instead of a thousand (page walks dominate the switch
 * otherwise, above all under a hypervisor). The sanitizers need deeper
 * stacks. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define FIBER_STACK_BYTES ((size_t)256 * 1024)
#else
#define FIBER_STACK_BYTES ((size_t)16 * 1024)
#endif
#define FIBER_SLAB_BYTES ((size_t)2 * 1024 * 1024)
/* Written at the lowest address of each stack: a thread that ran past its
 * stack overwrote it (and the top of the fiber below). */
#define FIBER_CANARY UINT64_C(0x5ca71ab57ac4ca4a)
#define FIBER_LINE 64
#define FIBER_COLORS 32

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif
#ifdef FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__) && !defined(SCANLAB_FIBER_UCONTEXT)
#define FIBER_ASM 1
#else
#include <ucontext.h>
#endif

struct model_fiber {
    void *stack;
    size_t size; /* usable bytes from stack up to this record */
#ifdef FIBER_ASM
    void *sp;
#else
    ucontext_t ctx;
#endif
    model_fiber_fn fn;
    void *arg;
};

static __thread model_fiber *running;
#ifdef FIBER_ASM
static __thread void *host_sp;
#else
static __thread ucontext_t host_ctx;
#endif
#ifdef FIBER_ASAN
static __thread const void *host_stack_bottom;
static __thread size_t host_stack_size;
static __thread int from_host; /* the switch in progress left the host */

/* After a switch into a fiber: learn the host's stack bounds when the
 * switch came from the host. */
static void asan_arrived(void *fake)
{
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(fake, &bottom, &size);
    if (from_host) {
        host_stack_bottom = bottom;
        host_stack_size = size;
        from_host = 0;
    }
}
#endif

model_fiber *model_fiber_new(void)
{
    static unsigned char *slab;
    static size_t slab_left;
    if (slab_left < FIBER_STACK_BYTES) {
        /* over-allocate to align the slab to a huge page */
        size_t len = FIBER_SLAB_BYTES * 2;
        unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                                -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        uintptr_t al = ((uintptr_t)m + FIBER_SLAB_BYTES - 1) & ~(uintptr_t)(FIBER_SLAB_BYTES - 1);
        if (al > (uintptr_t)m)
            munmap(m, al - (uintptr_t)m);
        munmap((void *)(al + FIBER_SLAB_BYTES), (uintptr_t)m + len - al - FIBER_SLAB_BYTES);
        slab = (unsigned char *)al;
        slab_left = FIBER_SLAB_BYTES;
#ifdef MADV_HUGEPAGE
        madvise(slab, FIBER_SLAB_BYTES, MADV_HUGEPAGE);
#endif
    }
    unsigned char *region = slab;
    slab += FIBER_STACK_BYTES;
    slab_left -= FIBER_STACK_BYTES;
    /* Stack tops at equal offsets of equal-sized stacks fall into the same
     * cache sets; thousands of fibers would evict each other at every
     * switch. Stagger them over cache lines. The fiber's own record sits
     * right above its stack top, in the lines a switch touches anyway. */
    static unsigned count;
    unsigned k = count++;
    size_t color = (size_t)(k % FIBER_COLORS) * FIBER_LINE;
    uintptr_t rec = ((uintptr_t)region + FIBER_STACK_BYTES - color - sizeof(model_fiber)) & ~(uintptr_t)(FIBER_LINE - 1);
    model_fiber *f = (model_fiber *)rec;
    memset(f, 0, sizeof *f);
    f->stack = region;
    f->size = rec - (uintptr_t)region;
    const uint64_t canary = FIBER_CANARY;
    memcpy(f->stack, &canary, sizeof canary);
    return f;
}

bool model_fiber_stack_intact(const model_fiber *f)
{
    uint64_t v;
    memcpy(&v, f->stack, sizeof v);
    return v == FIBER_CANARY;
}

void model_fiber_delete(model_fiber *f)
{
    if (!f)
        return;
    /* a fiber lives in its stack, in slabs shared with other fibers;
     * fibers are pooled for the life of the process, so nothing is
     * returned */
    (void)f;
}

static void fiber_main(model_fiber *f)
{
#ifdef FIBER_ASAN
    asan_arrived(NULL);
#endif
    f->fn(f->arg);
    for (;;) /* the function must never return into nothing */
        model_fiber_yield();
}

#ifdef FIBER_ASM
/* void fiber_switch(void **save_sp, void *new_sp) */
__asm__(".text\n"
        ".p2align 4\n"
        "scanlab_fiber_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".p2align 4\n"
        "scanlab_fiber_entry:\n"
        "  movq %r12, %rdi\n"
        "  call *%r13\n"
        "  ud2\n");
void scanlab_fiber_switch(void **save_sp, void *new_sp) __asm__("scanlab_fiber_switch");
void scanlab_fiber_entry(void) __asm__("scanlab_fiber_entry");

void model_fiber_reset(model_fiber *f, model_fiber_fn fn, void *arg)
{
    f->fn = fn;
    f->arg = arg;
#ifdef FIBER_ASAN
    /* a launch stopped mid-kernel abandons frames on this stack */
    ASAN_UNPOISON_MEMORY_REGION(f->stack, f->size);
#endif
    const uint64_t canary = FIBER_CANARY;
    memcpy(f->stack, &canary, sizeof canary);
    uintptr_t top = ((uintptr_t)f->stack + f->size) & ~(uintptr_t)15;
    /* popped by the switch: r15 r14 r13 r12 rbx rbp, then the return
     * address; sp is 8 mod 16 so that the entry's call is ABI-aligned. */
    void **sp = (void **)(top - 72);
    sp[0] = 0;                            /* r15 */
    sp[1] = 0;                            /* r14 */
    sp[2] = (void *)(uintptr_t)fiber_main; /* r13 */
    sp[3] = f;                            /* r12 */
    sp[4] = 0;                            /* rbx */
    sp[5] = 0;                            /* rbp */
    sp[6] = (void *)(uintptr_t)scanlab_fiber_entry;
    sp[7] = 0;
    f->sp = sp;
}

void model_fiber_run(model_fiber *f)
{
    running = f;
#ifdef FIBER_ASAN
    void *fake = NULL;
    from_host = 1;
    __sanitizer_start_switch_fiber(&fake, f->stack, f->size);
#endif
    scanlab_fiber_switch(&host_sp, f->sp);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    running = NULL;
}

void model_fiber_yield(void)
{
    model_fiber *f = running;
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, host_stack_bottom, host_stack_size);
#endif
    scanlab_fiber_switch(&f->sp, host_sp);
#ifdef FIBER_ASAN
    asan_arrived(fake);
#endif
}

void model_fiber_pass(model_fiber *to)
{
    model_fiber *f = running;
    running = to;
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, to->stack, to->size);
#endif
    scanlab_fiber_switch(&f->sp, to->sp);
#ifdef FIBER_ASAN
    asan_arrived(fake);
#endif
}
#else
static void fiber_tramp(unsigned hi, unsigned lo)
{
    fiber_main((model_fiber *)(((uintptr_t)hi << 32) | lo));
}

void model_fiber_reset(model_fiber *f, model_fiber_fn fn, void *arg)
{
    f->fn = fn;
    f->arg = arg;
    const uint64_t canary = FIBER_CANARY;
    memcpy(f->stack, &canary, sizeof canary);
    getcontext(&f->ctx);
    f->ctx.uc_stack.ss_sp = f->stack;
    f->ctx.uc_stack.ss_size = f->size;
    f->ctx.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->ctx, (void (*)(void))fiber_tramp, 2, (unsigned)(p >> 32), (unsigned)p);
}

void model_fiber_run(model_fiber *f)
{
    running = f;
#ifdef FIBER_ASAN
    void *fake = NULL;
    from_host = 1;
    __sanitizer_start_switch_fiber(&fake, f->stack, f->size);
#endif
    swapcontext(&host_ctx, &f->ctx);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    running = NULL;
}

void model_fiber_yield(void)
{
    model_fiber *f = running;
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, host_stack_bottom, host_stack_size);
#endif
    swapcontext(&f->ctx, &host_ctx);
#ifdef FIBER_ASAN
    asan_arrived(fake);
#endif
}

void model_fiber_pass(model_fiber *to)
{
    model_fiber *f = running;
    running = to;
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, to->stack, to->size);
#endif
    swapcontext(&f->ctx, &to->ctx);
#ifdef FIBER_ASAN
    asan_arrived(fake);
#endif
}
#endif

/* ---- snapshots ------------------------------------------------------------ */
/* What a parked fiber owns: its stack from the saved stack pointer up to
 * and including its record (the context), or, with ucontext, the whole
 * stack (the context lives in the record). */
static const unsigned char *saved_lo(const model_fiber *f)
{
#ifdef FIBER_ASM
    return (const unsigned char *)f->sp;
#else
    return (const unsigned char *)f->stack;
#endif
}

bool model_fiber_can_snapshot(void)
{
#ifdef FIBER_ASAN
    return false;
#else
    return true;
#endif
}

size_t model_fiber_saved_size(const model_fiber *f)
{
    return (size_t)((const unsigned char *)(f + 1) - saved_lo(f));
}

size_t model_fiber_save(const model_fiber *f, void *buf)
{
    const size_t n = model_fiber_saved_size(f);
    memcpy(buf, saved_lo(f), n);
    return n;
}

void model_fiber_restore(model_fiber *f, const void *buf, size_t size)
{
    /* the record is the last part of the bytes: its end is fixed */
    unsigned char *end = (unsigned char *)(f + 1);
    memcpy(end - size, buf, size);
}
