/* The campaign's kernel: a litmus test's columns, translated by the same
 * code that makes the simulator's kernel (lit_ptx_column), inside a grid
 * where every thread has a role. Testing threads load the addresses of
 * their instance's locations, stress memory a little, wait for the other
 * threads of their instance (bounded), run their column and store the
 * registers the condition names; the others stress a scratchpad
 * (Alglave et al., ASPLOS 2015; Sorensen and Donaldson, PLDI 2016). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/litmus_gpu/campaign.h"

/* The first word of an instruction, up to its first '.' or blank. */
static void opcode(const char *s, char *op, size_t n)
{
    size_t k = 0;
    while (s[k] && s[k] != '.' && !isspace((unsigned char)s[k]) && k + 1 < n) {
        op[k] = s[k];
        k++;
    }
    op[k] = 0;
}

static bool is_label(const char *s)
{
    const size_t n = strlen(s);
    return n > 0 && s[n - 1] == ':';
}

/* The label a branch goes to ("goto L", "bne r, 1, L"), or NULL. */
static const char *branch_target(const char *s)
{
    char op[16];
    opcode(s, op, sizeof op);
    if (strcmp(op, "goto") != 0 && strcmp(op, "bne") != 0 && strcmp(op, "beq") != 0)
        return NULL;
    const char *comma = strrchr(s, ',');
    const char *t = comma ? comma + 1 : s + strlen(op);
    while (isspace((unsigned char)*t))
        t++;
    return t;
}

/* Whether a barrier is the one form the campaign runs: bar.sync with one
 * id and no count (the whole CTA, stressing threads too), the same id in
 * every thread; *id holds the test's id so far (-1: none yet). */
static bool campaign_barrier(const char *s, long *id)
{
    const char *sync = strstr(s, ".sync ");
    if (!sync)
        return false;
    char *end;
    const long v = strtol(sync + 6, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (end == sync + 6 || *end || v < 0 || v > 15 || (*id >= 0 && *id != v))
        return false;
    *id = v;
    return true;
}

static unsigned barriers_of(const lit_thread *th)
{
    unsigned n = 0;
    char op[16];
    for (unsigned i = 0; i < th->ninsns; i++) {
        opcode(th->insn[i], op, sizeof op);
        n += strcmp(op, "bar") == 0 || strcmp(op, "barrier") == 0;
    }
    return n;
}

const char *lg_inexpressible(const lit_test *t, bool bounded_loops)
{
    if (t->unsupported[0])
        return t->unsupported;
    if (t->ngpus > 1)
        return "threads on several GPUs (the campaign runs on one)";
    long bar_id = -1;
    for (unsigned k = 0; k < t->nthreads; k++)
        for (unsigned j = 0; j < t->th[k].ninsns; j++) {
            char op[16];
            opcode(t->th[k].insn[j], op, sizeof op);
            if ((strcmp(op, "bar") == 0 || strcmp(op, "barrier") == 0) &&
                !campaign_barrier(t->th[k].insn[j], &bar_id))
                return "a named barrier, a thread count, bar.arrive or two barrier ids (the campaign runs bar.sync "
                       "with one id, passed by every thread of the CTA)";
        }
    unsigned nbar = 0;
    for (unsigned k = 0; k < t->nthreads; k++) {
        const lit_thread *th = &t->th[k];
        bool branches = false;
        for (unsigned j = 0; j < th->ninsns; j++) {
            const char *target = branch_target(th->insn[j]);
            if (!target)
                continue;
            branches = true;
            bool ahead = false;
            for (unsigned i = j + 1; i < th->ninsns; i++) {
                const size_t n = strlen(target);
                ahead |= is_label(th->insn[i]) && strncmp(th->insn[i], target, n) == 0 && th->insn[i][n] == ':';
            }
            if (!ahead && !bounded_loops)
                return "a backward branch or an unknown label (a loop: on the GPU a spin could last forever)";
        }
        const unsigned b = barriers_of(th);
        if (b && branches)
            return "a barrier in a thread that branches (how often each thread passes it is not fixed)";
        if (b && nbar && b != nbar)
            return "threads that pass different numbers of barriers";
        if (b)
            nbar = b;
    }
    return NULL;
}

static void bars(FILE *f, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "    call litmus_bar;\n");
}

/* The pointer parameter p into a global address register. */
static void param_ptr(FILE *f, const char *reg, const char *p)
{
    fprintf(f, "    ld.param.u64 %s, [%s];\n    cvta.to.global.u64 %s, %s;\n", reg, p, reg, reg);
}

/* Every thread: its role, then the stress (LG_P_ITERS for a stressing
 * thread, LG_P_PRE_ITERS for a testing one) on one word of a scratchpad
 * line picked by CTA and warp, one word per lane. */
static void prologue(FILE *f, unsigned nlocs)
{
    fprintf(f, "    .reg .pred %%p, %%q, %%stresser;\n");
    fprintf(f, "    .reg .b32 %%x, %%y, %%role, %%k, %%inst, %%i, %%n, %%pat, %%line;\n");
    fprintf(f, "    .reg .b32 %%v<%u>;\n", LIT_MAX_THREADS * LIT_MAX_REGS);
    fprintf(f, "    .reg .b64 %%base, %%out, %%ptr, %%off, %%sa, %%params;\n");
    fprintf(f, "    .reg .b64 %%a<%u>;\n", nlocs ? nlocs : 1);
    param_ptr(f, "%base", "p_mem");
    param_ptr(f, "%out", "p_out");
    param_ptr(f, "%params", "p_params");
    fprintf(f, "    mov.u32 %%x, %%ctaid.x;\n    mov.u32 %%y, %%ntid.x;\n    mov.u32 %%i, %%tid.x;\n"
               "    mad.lo.u32 %%x, %%x, %%y, %%i;\n");
    param_ptr(f, "%ptr", "p_roles");
    fprintf(f, "    mul.wide.u32 %%off, %%x, 4;\n    add.u64 %%ptr, %%ptr, %%off;\n"
               "    ld.global.u32 %%role, [%%ptr];\n    setp.eq.u32 %%stresser, %%role, %u;\n",
            LG_ROLE_STRESS);
    fprintf(f, "    ld.global.u32 %%n, [%%params+%d];\n    ld.global.u32 %%x, [%%params+%d];\n"
               "    selp.b32 %%n, %%n, %%x, %%stresser;\n    ld.global.u32 %%pat, [%%params+%d];\n",
            4 * LG_P_ITERS, 4 * LG_P_PRE_ITERS, 4 * LG_P_PATTERN);
    /* line = (ctaid + warp) % lines; word = line * line_words + lane */
    fprintf(f, "    ld.global.u32 %%y, [%%params+%d];\n    mov.u32 %%x, %%ctaid.x;\n    shr.u32 %%line, %%i, 5;\n"
               "    add.u32 %%line, %%line, %%x;\n    rem.u32 %%line, %%line, %%y;\n"
               "    ld.global.u32 %%y, [%%params+%d];\n    mov.u32 %%x, %%laneid;\n"
               "    mad.lo.u32 %%line, %%line, %%y, %%x;\n",
            4 * LG_P_LINES, 4 * LG_P_LINE_WORDS);
    param_ptr(f, "%sa", "p_scratch");
    fprintf(f, "    mul.wide.u32 %%off, %%line, 4;\n    add.u64 %%sa, %%sa, %%off;\n");
    /* volatile, so that the assembler keeps every access */
    fprintf(f, "    mov.u32 %%i, 0;\n    setp.eq.u32 %%p, %%n, 0;\n    @%%p bra S_DONE;\n"
               "S_LOOP:\n"
               "    and.b32 %%x, %%pat, 2;\n    setp.ne.u32 %%p, %%x, 0;\n"
               "    @%%p ld.volatile.global.u32 %%y, [%%sa];\n    @!%%p st.volatile.global.u32 [%%sa], %%i;\n"
               "    and.b32 %%x, %%pat, 1;\n    setp.ne.u32 %%p, %%x, 0;\n"
               "    @%%p ld.volatile.global.u32 %%y, [%%sa];\n    @!%%p st.volatile.global.u32 [%%sa], %%i;\n"
               "    add.u32 %%i, %%i, 1;\n    setp.lt.u32 %%p, %%i, %%n;\n    @%%p bra S_LOOP;\n"
               "S_DONE:\n    @%%stresser bra STRESSER;\n");
}

/* A testing thread: its instance and thread, the addresses of the
 * instance's locations, then the start: every thread of the instance adds
 * one to the instance's word and polls it until all have (at most
 * LG_P_SPIN polls, a timeout counted), so that they begin together. The
 * word is nothing the test reads, and relaxed: it orders nothing. */
static void start(FILE *f, const lit_test *t, const lg_results *r, bool bounded_loops)
{
    fprintf(f, "    sub.u32 %%role, %%role, 1;\n    and.b32 %%k, %%role, %u;\n    shr.u32 %%inst, %%role, 3;\n",
            LIT_MAX_THREADS - 1);
    param_ptr(f, "%ptr", "p_addr");
    fprintf(f, "    mul.lo.u32 %%x, %%inst, %u;\n    mul.wide.u32 %%off, %%x, 4;\n    add.u64 %%ptr, %%ptr, %%off;\n",
            t->nlocs);
    for (unsigned l = 0; l < t->nlocs; l++)
        fprintf(f, "    ld.global.u32 %%x, [%%ptr+%u];\n    mul.wide.u32 %%off, %%x, 4;\n"
                   "    add.u64 %%a%u, %%base, %%off;\n",
                4 * l, l);
    if (bounded_loops) /* a progress run: each thread starts when it is dispatched */
        fprintf(f, "    bra.uni GO;\n");
    param_ptr(f, "%ptr", "p_sync");
    fprintf(f, "    mul.wide.u32 %%off, %%inst, 4;\n    add.u64 %%ptr, %%ptr, %%off;\n"
               "    atom.relaxed.gpu.global.add.u32 %%x, [%%ptr], 1;\n"
               "    ld.global.u32 %%n, [%%params+%d];\n    mov.u32 %%i, 0;\n"
               "SPIN:\n    ld.relaxed.gpu.global.u32 %%x, [%%ptr];\n    setp.ge.u32 %%p, %%x, %u;\n"
               "    @%%p bra GO;\n    add.u32 %%i, %%i, 1;\n    setp.lt.u32 %%p, %%i, %%n;\n    @%%p bra SPIN;\n"
               "    red.relaxed.gpu.global.add.u32 [%%params+%d], 1;\n"
               "GO:\n",
            4 * LG_P_SPIN, t->nthreads, 4 * LG_P_TIMEOUTS);
    fprintf(f, "    mul.lo.u32 %%x, %%inst, %u;\n    mul.wide.u32 %%off, %%x, 4;\n    add.u64 %%out, %%out, %%off;\n",
            r->nres);
    for (unsigned k = 0; k < t->nthreads; k++)
        fprintf(f, "    setp.eq.u32 %%p, %%k, %u;\n    @%%p bra T%u;\n", k, k);
    fprintf(f, "    ret;\n");
}

/* Thread k's column, each of its labels ("Lk_NAME:") followed by a count
 * of the thread's label visits: at LG_P_LOOP_BOUND the thread leaves for
 * Hk. A forward label is visited once, so only a loop reaches the bound. */
static void bounded_column(FILE *f, const char *col, unsigned k)
{
    for (const char *line = col; *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line + 1) : strlen(line);
        fwrite(line, 1, n, f);
        if (line[0] == 'L' && n >= 2 && line[n - (end ? 2 : 1)] == ':')
            fprintf(f, "    add.u32 %%spin, %%spin, 1;\n    setp.ge.u32 %%hp, %%spin, %%bound;\n    @%%hp bra H%u;\n", k);
        line += n;
    }
}

char *lg_kernel_ptx(lit_test *t, const lg_results *r, bool bounded_loops, char *err, size_t errlen)
{
    const char *why = lg_inexpressible(t, bounded_loops);
    if (why) {
        snprintf(err, errlen, "%s: %s", t->path, why);
        return NULL;
    }
    char *col[LIT_MAX_THREADS] = {0};
    t->barrier_id = -1;
    unsigned nbar = 0;
    for (unsigned k = 0; k < t->nthreads; k++) {
        if (!(col[k] = lit_ptx_column(t, k, LIT_ADDR_REGS, err, errlen))) {
            for (unsigned j = 0; j < k; j++)
                free(col[j]);
            return NULL;
        }
        if (barriers_of(&t->th[k]) > nbar)
            nbar = barriers_of(&t->th[k]);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fprintf(f, "// %s: the litmus campaign's kernel (tools/litmus_gpu)\n", t->name);
        fprintf(f, ".version 8.0\n.target sm_90\n.address_size 64\n\n");
        if (t->barrier_id >= 0) /* the simulator's form: every thread of the CTA at one site */
            fprintf(f, ".func litmus_bar()\n{\n    barrier.sync %d;\n    ret;\n}\n\n", t->barrier_id);
        fprintf(f, ".visible .entry litmus_gpu(.param .u64 p_mem, .param .u64 p_out, .param .u64 p_roles,\n"
                   "    .param .u64 p_addr, .param .u64 p_sync, .param .u64 p_scratch, .param .u64 p_params)\n{\n");
        prologue(f, t->nlocs);
        if (bounded_loops)
            fprintf(f, "    .reg .pred %%hp;\n    .reg .b32 %%spin, %%bound;\n");
        start(f, t, r, bounded_loops);
        for (unsigned k = 0; k < t->nthreads; k++) {
            const lit_thread *th = &t->th[k];
            fprintf(f, "T%u:\n", k);
            for (unsigned j = 0; j < th->nregs; j++)
                fprintf(f, "    mov.u32 %%v%u, %lld;\n", k * LIT_MAX_REGS + j, (long long)th->reg_init[j]);
            if (bounded_loops) {
                fprintf(f, "    mov.u32 %%spin, 0;\n    ld.global.u32 %%bound, [%%params+%d];\n", 4 * LG_P_LOOP_BOUND);
                bounded_column(f, col[k], k);
                fprintf(f, "    bra.uni R%u;\nH%u:\n    red.relaxed.gpu.global.add.u32 [%%params+%d], 1;\nR%u:\n", k, k,
                        4 * LG_P_HUNG, k);
            } else {
                fputs(col[k], f);
            }
            for (unsigned n = 0; n < t->nnamed; n++)
                if (t->named[n].kind == LIT_T_REG && t->named[n].thread == (int)k)
                    fprintf(f, "    st.global.u32 [%%out+%d], %%v%u;\n", 4 * r->slot[n],
                            k * LIT_MAX_REGS + (unsigned)t->named[n].index);
            /* a thread of a test with barriers that passes none: the
             * CTA's other threads wait for it at each */
            bars(f, barriers_of(th) ? 0 : nbar);
            fprintf(f, "    ret;\n");
        }
        fprintf(f, "STRESSER:\n");
        bars(f, nbar);
        fprintf(f, "    ret;\n}\n");
    }
    for (unsigned k = 0; k < t->nthreads; k++)
        free(col[k]);
    if (!f || fclose(f) != 0 || !text) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return NULL;
    }
    return text;
}
