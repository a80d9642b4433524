/* The kernel dialect: one source, two compilations.
 *
 * A kernel file (cuda/<level>/<name>_tmpl.cuh) is written once with these
 * macros. nvcc turns them into the plain CUDA a hand-written kernel has
 * (__shared__, __syncthreads(), atomicAdd, __shfl_up_sync, ...); the C
 * compiler turns them into calls into the simulator (model/rt.h), which sees
 * every memory access, operator application and synchronisation.
 *
 * Backends (exactly one is selected by the wrapper translation unit):
 *   __CUDACC__        nvcc: plain CUDA, names suffixed _cuda
 *   SL_SIM_PLAIN      C, fibers and barriers kept but no accounting (the
 *                     speed baseline of `scanlab bench --backend sim`),
 *                     names suffixed _plain
 *   otherwise         C with full accounting, names suffixed _sim
 *
 * docs/dialect.md is the reference; each macro has a one-line comment here.
 */
#ifndef SCANLAB_DIALECT_H
#define SCANLAB_DIALECT_H

#include <stdint.h>
#include <string.h>
#include "cuda/launch.h"
#include "cuda/ops.h"
#include "cuda/status.h"

/* --- hardware constants --------------------------------------------------- */
#define SL_WARP_SIZE 32
#define SL_LOG2_WARP_SIZE 5
#define SL_FULL_MASK 0xffffffffu
#define SL_MAX_BLOCK_THREADS 1024

/* A 16-byte word, aligned as the GPU's 16-byte accesses need: the packed
 * (status, value) word of 8-byte types in the look-back protocol. */
#if defined(__CUDACC__)
typedef struct __align__(16) {
    uint64_t lo, hi;
} sl_u64x2;
#else
typedef struct {
    _Alignas(16) uint64_t lo;
    uint64_t hi;
} sl_u64x2;
#endif

/* --- names ---------------------------------------------------------------- */
#if defined(__CUDACC__)
#define SL_BACKEND_SUFFIX _cuda
#elif defined(SL_SIM_PLAIN)
#define SL_BACKEND_SUFFIX _plain
#else
#define SL_BACKEND_SUFFIX _sim
#endif
/* A name suffixed by the instantiation and the backend:
 * SL_KN(bk_scan) -> bk_scan_i32_add_sim. Use it for kernels, device
 * functions and host drivers inside a *_tmpl.cuh file. */
#define SL_KN(name) SL_CAT2(SL_FN(name), SL_BACKEND_SUFFIX)
/* The launch function that SL_DEFINE_LAUNCH defines for a kernel. */
#define SL_LAUNCH(name) SL_CAT2(SL_KN(name), _launch)

/* Statement helper for host drivers: on failure store the status in `st`
 * and jump to the label `done` (where the driver frees what it allocated). */
#define SL_TRY(expr)                  \
    do {                              \
        sl_status sl_try_ = (expr);   \
        if (sl_try_ != SL_OK) {       \
            st = sl_try_;             \
            goto done;                \
        }                             \
    } while (0)

/* Helpers to walk the (type, name) pairs of SL_DEFINE_LAUNCH, 1 to 8. */
#define SL_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define SL_NARGS(...) SL_NARGS_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SL_PT_(t, n) t
#define SL_PN_(t, n) n
#define SL_PTYPE(p) SL_PT_ p
#define SL_PNAME(p) SL_PN_ p
#define SL_PDECL(p) SL_PT_ p SL_PN_ p
#define SL_MAP1(M, s, a) M(a)
#define SL_MAP2(M, s, a, ...) M(a) s() SL_MAP1(M, s, __VA_ARGS__)
#define SL_MAP3(M, s, a, ...) M(a) s() SL_MAP2(M, s, __VA_ARGS__)
#define SL_MAP4(M, s, a, ...) M(a) s() SL_MAP3(M, s, __VA_ARGS__)
#define SL_MAP5(M, s, a, ...) M(a) s() SL_MAP4(M, s, __VA_ARGS__)
#define SL_MAP6(M, s, a, ...) M(a) s() SL_MAP5(M, s, __VA_ARGS__)
#define SL_MAP7(M, s, a, ...) M(a) s() SL_MAP6(M, s, __VA_ARGS__)
#define SL_MAP8(M, s, a, ...) M(a) s() SL_MAP7(M, s, __VA_ARGS__)
#define SL_MAP(M, s, ...) SL_CAT2(SL_MAP, SL_NARGS(__VA_ARGS__))(M, s, __VA_ARGS__)
#define SL_STR_(x) #x
#define SL_STR(x) SL_STR_(x)
#define SL_COMMA_() ,
#define SL_SEMI_() ;
#define SL_AFIELD_(p) a_->SL_PN_ p

/* ======================================================================== */
#if defined(__CUDACC__) /* ------------------------------ nvcc: plain CUDA */
/* ======================================================================== */
#include <cuda_runtime.h>
#include "cuda/bench/dev_arena.h"

#define SL_GLOBAL static __global__ void
/* A kernel with __launch_bounds__(threads, min_blocks_per_sm). */
#define SL_GLOBAL_BOUNDED(threads, min_blocks) static __global__ void __launch_bounds__(threads, min_blocks)
#define SL_DEVICE static __device__ __forceinline__
#define SL_HOST extern "C"
#define SL_UNROLL _Pragma("unroll")

#define LD(a, i) ((a)[i])
#define ST(a, i, v) ((a)[i] = (v))
#define LDV(a, i) (((volatile __typeof__((a)[0]) *)(a))[i])
#define STV(a, i, v) (((volatile __typeof__((a)[0]) *)(a))[i] = (v))
#define SHARED(T_, name, count) __shared__ T_ name[count]
#define SHARED_DYN(T_, name)                                   \
    extern __shared__ __align__(16) unsigned char sl_dyn_smem_[]; \
    T_ *name = (T_ *)sl_dyn_smem_

#define OP(a, b) SL_APPLY(a, b)
#define IDENTITY() SL_IDENTITY()

#define SYNCTHREADS() __syncthreads()
#define SYNCWARP() __syncwarp(SL_FULL_MASK)
#define SYNCWARP_MASK(m) __syncwarp(m)
#define THREADFENCE() __threadfence()
#define THREADFENCE_BLOCK() __threadfence_block()
#define THREADFENCE_SYSTEM() __threadfence_system()
#define NANOSLEEP(ns) __nanosleep(ns)
#define POPC(x) __popc(x)
#define FFS(x) __ffs(x)
#define CLZ(x) __clz(x)
/* A named point of a protocol (e.g. "look-back met an aggregate"): nothing
 * on the GPU; the simulator counts how often each was reached. */
#define PROBE(name) ((void)0)
/* What the calling thread waits for, in the kernel's terms ("tile #'s
 * status", # standing for index), or WAIT_DONE() once it waits no more:
 * nothing on the GPU; the deadlock explorer says it where a block hangs. */
#define WAITS_FOR(what, index) ((void)0)
#define WAIT_DONE() ((void)0)

/* Strong loads and stores of GPU scope, 4, 8 or 16 bytes, as the PTX
 * memory model defines them: relaxed (ld/st.relaxed.gpu), acquire
 * (ld.acquire.gpu), release (st.release.gpu). A 16-byte access is one
 * v2.b64 instruction (a volatile 16-byte access would split in two). */
#define SL_PTX_LD_(sem, T_, p, v)                                                                  \
    do {                                                                                           \
        if constexpr (sizeof(T_) == 4) {                                                           \
            uint32_t r_;                                                                           \
            asm volatile("ld." sem ".b32 %0, [%1];" : "=r"(r_) : "l"(p) : "memory");          \
            memcpy(&(v), &r_, 4);                                                                  \
        } else if constexpr (sizeof(T_) == 8) {                                                    \
            uint64_t r_;                                                                           \
            asm volatile("ld." sem ".b64 %0, [%1];" : "=l"(r_) : "l"(p) : "memory");          \
            memcpy(&(v), &r_, 8);                                                                  \
        } else {                                                                                   \
            uint64_t r0_, r1_;                                                                     \
            asm volatile("ld." sem ".v2.b64 {%0,%1}, [%2];" : "=l"(r0_), "=l"(r1_) : "l"(p) \
                         : "memory");                                                              \
            memcpy(&(v), &r0_, 8);                                                                 \
            memcpy((char *)&(v) + 8, &r1_, 8);                                                     \
        }                                                                                          \
    } while (0)
#define SL_PTX_ST_(sem, T_, p, v)                                                                  \
    do {                                                                                           \
        if constexpr (sizeof(T_) == 4) {                                                           \
            uint32_t r_;                                                                           \
            memcpy(&r_, &(v), 4);                                                                  \
            asm volatile("st." sem ".b32 [%0], %1;" ::"l"(p), "r"(r_) : "memory");            \
        } else if constexpr (sizeof(T_) == 8) {                                                    \
            uint64_t r_;                                                                           \
            memcpy(&r_, &(v), 8);                                                                  \
            asm volatile("st." sem ".b64 [%0], %1;" ::"l"(p), "l"(r_) : "memory");            \
        } else {                                                                                   \
            uint64_t r0_, r1_;                                                                     \
            memcpy(&r0_, &(v), 8);                                                                 \
            memcpy(&r1_, (const char *)&(v) + 8, 8);                                               \
            asm volatile("st." sem ".v2.b64 [%0], {%1,%2};" ::"l"(p), "l"(r0_), "l"(r1_)      \
                         : "memory");                                                              \
        }                                                                                          \
    } while (0)
/* One load and one store function per ordering and scope: the PTX
 * qualifiers the macros above put in the instruction. */
#define SL_PTX_LD_FN_(name, sem)                                                                   \
    template <typename T_> __device__ __forceinline__ T_ name(const T_ *p)                         \
    {                                                                                              \
        static_assert(sizeof(T_) == 4 || sizeof(T_) == 8 || sizeof(T_) == 16, "4, 8 or 16 bytes"); \
        T_ v;                                                                                      \
        SL_PTX_LD_(sem, T_, p, v);                                                                 \
        return v;                                                                                  \
    }
#define SL_PTX_ST_FN_(name, sem)                                                                   \
    template <typename T_, typename U_> __device__ __forceinline__ void name(T_ *p, U_ u)           \
    {                                                                                              \
        static_assert(sizeof(T_) == 4 || sizeof(T_) == 8 || sizeof(T_) == 16, "4, 8 or 16 bytes"); \
        const T_ v = (T_)u;                                                                        \
        SL_PTX_ST_(sem, T_, p, v);                                                                 \
    }
SL_PTX_LD_FN_(sl_ld_relaxed, "relaxed.gpu")
SL_PTX_LD_FN_(sl_ld_acquire, "acquire.gpu")
SL_PTX_ST_FN_(sl_st_relaxed, "relaxed.gpu")
SL_PTX_ST_FN_(sl_st_release, "release.gpu")
/* of system scope: orderings that reach the threads of other GPUs (peer
 * memory) */
SL_PTX_LD_FN_(sl_ld_acquire_sys, "acquire.sys")
SL_PTX_ST_FN_(sl_st_release_sys, "release.sys")
#define LD_RELAXED(a, i) sl_ld_relaxed(&(a)[i])
#define LD_ACQUIRE(a, i) sl_ld_acquire(&(a)[i])
#define ST_RELAXED(a, i, v) sl_st_relaxed(&(a)[i], v)
#define ST_RELEASE(a, i, v) sl_st_release(&(a)[i], v)
#define LD_ACQUIRE_SYS(a, i) sl_ld_acquire_sys(&(a)[i])
#define ST_RELEASE_SYS(a, i, v) sl_st_release_sys(&(a)[i], v)
#define SHFL_UP(v, d) __shfl_up_sync(SL_FULL_MASK, v, d)
#define SHFL_DOWN(v, d) __shfl_down_sync(SL_FULL_MASK, v, d)
#define SHFL_IDX(v, src) __shfl_sync(SL_FULL_MASK, v, src)
#define SHFL_XOR(v, m) __shfl_xor_sync(SL_FULL_MASK, v, m)
#define SHFL_UP_MASK(mask, v, d) __shfl_up_sync(mask, v, d)
#define SHFL_DOWN_MASK(mask, v, d) __shfl_down_sync(mask, v, d)
#define SHFL_IDX_MASK(mask, v, src) __shfl_sync(mask, v, src)
#define SHFL_XOR_MASK(mask, v, m) __shfl_xor_sync(mask, v, m)
#define BALLOT(p) __ballot_sync(SL_FULL_MASK, p)
#define ALL(p) __all_sync(SL_FULL_MASK, p)
#define ANY(p) __any_sync(SL_FULL_MASK, p)
#define BALLOT_MASK(mask, p) __ballot_sync(mask, p)
#define ALL_MASK(mask, p) __all_sync(mask, p)
#define ANY_MASK(mask, p) __any_sync(mask, p)

/* Atomics on 32- and 64-bit integers (CUDA spells the 64-bit ones with
 * unsigned long long / long long). */
__device__ __forceinline__ int32_t sl_atomic_add(int32_t *p, int32_t v) { return atomicAdd((int *)p, v); }
__device__ __forceinline__ uint32_t sl_atomic_add(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, v); }
__device__ __forceinline__ int64_t sl_atomic_add(int64_t *p, int64_t v)
{ return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v); }
__device__ __forceinline__ uint64_t sl_atomic_add(uint64_t *p, uint64_t v)
{ return atomicAdd((unsigned long long *)p, (unsigned long long)v); }
__device__ __forceinline__ int32_t sl_atomic_max(int32_t *p, int32_t v) { return atomicMax((int *)p, v); }
__device__ __forceinline__ uint32_t sl_atomic_max(uint32_t *p, uint32_t v) { return atomicMax((unsigned *)p, v); }
__device__ __forceinline__ int64_t sl_atomic_max(int64_t *p, int64_t v) { return atomicMax((long long *)p, (long long)v); }
__device__ __forceinline__ uint64_t sl_atomic_max(uint64_t *p, uint64_t v)
{ return atomicMax((unsigned long long *)p, (unsigned long long)v); }
__device__ __forceinline__ int32_t sl_atomic_min(int32_t *p, int32_t v) { return atomicMin((int *)p, v); }
__device__ __forceinline__ uint32_t sl_atomic_min(uint32_t *p, uint32_t v) { return atomicMin((unsigned *)p, v); }
__device__ __forceinline__ int64_t sl_atomic_min(int64_t *p, int64_t v) { return atomicMin((long long *)p, (long long)v); }
__device__ __forceinline__ uint64_t sl_atomic_min(uint64_t *p, uint64_t v)
{ return atomicMin((unsigned long long *)p, (unsigned long long)v); }
__device__ __forceinline__ int32_t sl_atomic_cas(int32_t *p, int32_t c, int32_t v) { return atomicCAS((int *)p, c, v); }
__device__ __forceinline__ uint32_t sl_atomic_cas(uint32_t *p, uint32_t c, uint32_t v) { return atomicCAS((unsigned *)p, c, v); }
__device__ __forceinline__ int64_t sl_atomic_cas(int64_t *p, int64_t c, int64_t v)
{ return (int64_t)atomicCAS((unsigned long long *)p, (unsigned long long)c, (unsigned long long)v); }
__device__ __forceinline__ uint64_t sl_atomic_cas(uint64_t *p, uint64_t c, uint64_t v)
{ return atomicCAS((unsigned long long *)p, (unsigned long long)c, (unsigned long long)v); }
__device__ __forceinline__ int32_t sl_atomic_exch(int32_t *p, int32_t v) { return atomicExch((int *)p, v); }
__device__ __forceinline__ uint32_t sl_atomic_exch(uint32_t *p, uint32_t v) { return atomicExch((unsigned *)p, v); }
__device__ __forceinline__ int64_t sl_atomic_exch(int64_t *p, int64_t v)
{ return (int64_t)atomicExch((unsigned long long *)p, (unsigned long long)v); }
__device__ __forceinline__ uint64_t sl_atomic_exch(uint64_t *p, uint64_t v)
{ return atomicExch((unsigned long long *)p, (unsigned long long)v); }
#define ATOMIC_ADD(p, v) sl_atomic_add(p, v)
#define ATOMIC_MAX(p, v) sl_atomic_max(p, v)
#define ATOMIC_MIN(p, v) sl_atomic_min(p, v)
#define ATOMIC_CAS(p, cmp, v) sl_atomic_cas(p, cmp, v)
#define ATOMIC_EXCH(p, v) sl_atomic_exch(p, v)

/* Launch: kernel<<<grid, block, shmem, stream>>>(args) and the launch
 * error; the stream is the calling thread's (sl_dev_stream_set in
 * cuda/bench/dev_arena.h: 0, the default stream, unless a driver that runs
 * on several GPUs set one). */
static inline dim3 sl_dim3_cuda(sl_dim3 d) { return dim3(d.x, d.y, d.z); }
static inline sl_status sl_cuda_status(cudaError_t e) { return e == cudaSuccess ? SL_OK : SL_ERR_CUDA; }
#define SL_DEFINE_LAUNCH(kname, ...)                                                          \
    static inline sl_status SL_CAT2(kname, _launch)(sl_launch cfg_,                           \
                                                    SL_MAP(SL_PDECL, SL_COMMA_, __VA_ARGS__)) \
    {                                                                                         \
        kname<<<sl_dim3_cuda(cfg_.grid), sl_dim3_cuda(cfg_.block), cfg_.shmem,                \
                (cudaStream_t)sl_dev_stream_current()>>>(SL_MAP(SL_PNAME, SL_COMMA_, __VA_ARGS__)); \
        return sl_cuda_status(cudaGetLastError());                                            \
    }

/* Device memory, written once for both compilations. Inside a device
 * arena (cuda/bench/dev_arena.h: a benchmark timing a driver) memory
 * comes from the arena and stays there. */
static inline sl_status sl_dev_alloc(void **p, size_t bytes)
{
    sl_dev_arena *s = sl_dev_arena_current();
    *p = NULL;
    if (bytes == 0)
        return SL_OK;
    if (s)
        return sl_dev_arena_alloc(s, p, bytes);
    return cudaMalloc(p, bytes) == cudaSuccess ? SL_OK : SL_ERR_NOMEM;
}
/* The role of the launches that follow in the simulator's launch table;
 * nothing to do on the GPU. */
static inline const char *sl_launch_role(const char *role)
{
    (void)role;
    return NULL;
}
/* The simulator's devices of the launches that follow; on the GPU each
 * device's kernels are launched on that device. */
static inline unsigned sl_launch_devices(unsigned blocks_per_device)
{
    (void)blocks_per_device;
    return 0;
}
static inline void sl_dev_free(void *p)
{
    sl_dev_arena *s = sl_dev_arena_current();
    if (p && !(s && sl_dev_arena_owns(s, p)))
        cudaFree(p);
}
static inline sl_status sl_dev_copy_to(void *dev, const void *host, size_t bytes)
{ return bytes == 0 ? SL_OK : sl_cuda_status(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)); }
static inline sl_status sl_dev_copy_from(void *host, const void *dev, size_t bytes)
{ return bytes == 0 ? SL_OK : sl_cuda_status(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost)); }
/* On the thread's stream where one is set, so that it is ordered with the
 * launches that follow. */
static inline sl_status sl_dev_memset(void *dev, int byte, size_t bytes)
{
    cudaStream_t s = (cudaStream_t)sl_dev_stream_current();
    if (bytes == 0)
        return SL_OK;
    return sl_cuda_status(s ? cudaMemsetAsync(dev, byte, bytes, s) : cudaMemset(dev, byte, bytes));
}
/* Waits for the launched kernels and returns their error, if any; inside a
 * device arena it only returns the launch error (the caller waits). */
static inline sl_status sl_dev_sync(void)
{
    return sl_cuda_status(sl_dev_arena_current() ? cudaGetLastError() : cudaDeviceSynchronize());
}
/* Whether a device arena is set (cuda/bench/dev_arena.h). */
static inline int sl_dev_in_arena(void) { return sl_dev_arena_current() != NULL; }
/* The run's epoch: 1, or the arena's run number. Protocol words written
 * with another epoch read as never written (cuda/device/tile_status.cuh). */
static inline uint32_t sl_dev_epoch(void)
{
    sl_dev_arena *s = sl_dev_arena_current();
    return s ? s->epoch : 1u;
}
/* The arena's error word for bounded spins, or NULL without an arena. */
static inline uint32_t *sl_dev_error_word(void)
{
    sl_dev_arena *s = sl_dev_arena_current();
    return s ? s->error : NULL;
}
/* Blocks of kernel kname (block threads, shmem dynamic bytes) that the GPU
 * holds at once: the occupancy of one SM times the SM count. A grid of
 * this size is resident all at once (persistent blocks). */
#define SL_RESIDENT_BLOCKS(kname, block, shmem) sl_dev_resident_blocks((const void *)(kname), block, shmem)
/* The same, where the simulator should run `sim_blocks` blocks unless the
 * run sets its occupancy (the GPU's answer, or the deadlock explorer's
 * blocks). */
#define SL_RESIDENT_BLOCKS_OR(kname, block, shmem, sim_blocks) SL_RESIDENT_BLOCKS(kname, block, shmem)
/* Bytes of the GPU's L2 cache (0 if unknown). */
#define SL_L2_BYTES() sl_dev_l2_bytes()

/* ======================================================================== */
#else /* ------------------------------------------- C: the step-level model */
/* ======================================================================== */
#include "model/rt.h"

#define SL_GLOBAL static void
#define SL_GLOBAL_BOUNDED(threads, min_blocks) static void
#define SL_DEVICE static inline
#define SL_HOST
#define SL_UNROLL

/* Whether the index expression i has a signed type. */
#define SL_INDEX_SIGNED_(i) _Generic((i) + 0, int: 1, long: 1, long long: 1, default: 0)
/* The site of a strong access: its index expression's width and sign. */
#define SL_ISITE_(w, i) SL_ASITE_N_(SL_CAT2(sl_site_, __COUNTER__), w, 0, 0, i)
/* One static site record per macro expansion; the model interns it. All
 * records live in one section (MODEL_SITE_SECTION), so that the model can
 * list the sites a kernel has, executed or not (kernel coverage). */
#define SL_SITE_ATTR_ __attribute__((section(MODEL_SITE_SECTION), used, aligned(8)))
#define SL_SITE_(w)                                                                \
    __extension__({                                                                \
        static model_site sl_site_ SL_SITE_ATTR_ = {__FILE__, __LINE__, w, 0, 0, 0, 0, 0}; \
        &sl_site_;                                                                 \
    })

#define threadIdx (model_cur->thread_idx)
/* Reading blockIdx marks the block: a schedule search treats blocks of a
 * launch that never reads it as interchangeable (docs/deadlock.md). */
#define blockIdx (*(*model_cur->id_read = 1, model_cur->block_idx))
#define blockDim (*model_cur->block_dim)
#define gridDim (*model_cur->grid_dim)

#if defined(SL_SIM_PLAIN)
#define SL_MODEL_LAUNCH_ model_launch_plain
#define LD(a, i) ((a)[i])
#define ST(a, i, v) ((a)[i] = (v))
#define OP(a, b) SL_APPLY(a, b)
#else
#define SL_MODEL_LAUNCH_ model_launch
/* Access sites record their element size and kind for the trace. */
/* An index may hold another access (LD(a, LD(b, j))): each site record
 * gets a name of its own. */
#define SL_ASITE_(w, sz, k, i) SL_ASITE_N_(SL_CAT2(sl_site_, __COUNTER__), w, sz, k, i)
#define SL_ASITE_N_(name, w, sz, k, i)                                                 \
    __extension__({                                                                    \
        static model_site name SL_SITE_ATTR_ = {__FILE__, __LINE__, w, 0, sz, k,        \
                                                sizeof(i), SL_INDEX_SIGNED_(i)};       \
        &name;                                                                         \
    })
#define SL_ACCESS_(a, i, k, w)                                                                     \
    ((__typeof__(&(a)[0]))model_access_fast((a), (long long)(i), sizeof((a)[0]), k,              \
                                            SL_ASITE_(w, sizeof((a)[0]), k, i)))
#define LD(a, i) (*SL_ACCESS_(a, i, MODEL_RD, "LD"))
#define ST(a, i, v) (*SL_ACCESS_(a, i, MODEL_WR, "ST") = (v))
#define OP(a, b) (model_cur->ops++, SL_APPLY(a, b))
#endif
/* Volatile and strong (relaxed, acquire, release) accesses go through the
 * model's memory-order path in both C variants: each is a point where other
 * blocks may run, and the model chooses the value a load returns among the
 * stores the memory model allows (docs/dialect.md). */
#define SL_LOAD_(a, i, k, w)                                                                     \
    __extension__({                                                                              \
        _Alignas(16) unsigned char sl_lb_[sizeof((a)[0])];                                       \
        model_load((a), (long long)(i), sizeof((a)[0]), k, SL_ISITE_(w, i), sl_lb_);             \
        *(const __typeof__((a)[0]) *)(const void *)sl_lb_;                                       \
    })
#define SL_STORE_(a, i, v, k, w)                                                                 \
    __extension__({                                                                              \
        __typeof__((a)[0]) sl_sv_ = (v);                                                         \
        model_store((a), (long long)(i), sizeof sl_sv_, k, SL_ISITE_(w, i), &sl_sv_);            \
        (void)0;                                                                                 \
    })
#define LDV(a, i) SL_LOAD_(a, i, MODEL_RD | MODEL_VOL, "LDV")
#define STV(a, i, v) SL_STORE_(a, i, v, MODEL_WR | MODEL_VOL, "STV")
#define LD_RELAXED(a, i) SL_LOAD_(a, i, MODEL_RD | MODEL_RELAXED, "LD_RELAXED")
#define LD_ACQUIRE(a, i) SL_LOAD_(a, i, MODEL_RD | MODEL_ACQUIRE, "LD_ACQUIRE")
#define ST_RELAXED(a, i, v) SL_STORE_(a, i, v, MODEL_WR | MODEL_RELAXED, "ST_RELAXED")
#define ST_RELEASE(a, i, v) SL_STORE_(a, i, v, MODEL_WR | MODEL_RELEASE, "ST_RELEASE")
#define LD_ACQUIRE_SYS(a, i) \
    SL_LOAD_(a, i, MODEL_KIND_WITH_SCOPE(MODEL_RD | MODEL_ACQUIRE, MODEL_SCOPE_SYS), "LD_ACQUIRE_SYS")
#define ST_RELEASE_SYS(a, i, v) \
    SL_STORE_(a, i, v, MODEL_KIND_WITH_SCOPE(MODEL_WR | MODEL_RELEASE, MODEL_SCOPE_SYS), "ST_RELEASE_SYS")
#define IDENTITY() SL_IDENTITY()

#define SHARED(T_, name, count)                                                                   \
    T_ *name = (T_ *)model_shared_named(sizeof(T_) * (size_t)(count), _Alignof(T_), #name,         \
                                        SL_SITE_("SHARED"))
#define SHARED_DYN(T_, name) T_ *name = (T_ *)model_shared_dyn_named(#name, SL_SITE_("SHARED_DYN"))

#define SYNCTHREADS() model_syncthreads(SL_SITE_("SYNCTHREADS"))
#define SYNCWARP() model_syncwarp(SL_FULL_MASK, SL_SITE_("SYNCWARP"))
#define SYNCWARP_MASK(m) model_syncwarp(m, SL_SITE_("SYNCWARP"))
#define THREADFENCE() model_fence(MODEL_SCOPE_GPU, SL_SITE_("THREADFENCE"))
#define THREADFENCE_BLOCK() model_fence(MODEL_SCOPE_CTA, SL_SITE_("THREADFENCE_BLOCK"))
#define THREADFENCE_SYSTEM() model_fence(MODEL_SCOPE_SYS, SL_SITE_("THREADFENCE_SYSTEM"))
/* A back-off while spinning: a point where other blocks run. */
#define NANOSLEEP(ns) model_nanosleep((unsigned)(ns), SL_SITE_("NANOSLEEP"))
#define PROBE(name) model_probe(SL_SITE_(name))
#define WAITS_FOR(what, index) model_waits_for(what, (long long)(index))
#define WAIT_DONE() model_waits_for(NULL, 0)
#define POPC(x) __builtin_popcount((unsigned)(x))
#define FFS(x) __builtin_ffs((int)(x))
#define CLZ(x) ((unsigned)(x) ? __builtin_clz((unsigned)(x)) : 32)

/* Shuffles move the value's bits through the model and back. */
#define SL_SHFL_(kind, mask, v, arg, w)                                               \
    __extension__({                                                                   \
        __typeof__(v) sl_v_ = (v);                                                    \
        uint64_t sl_b_ = 0;                                                           \
        memcpy(&sl_b_, &sl_v_, sizeof sl_v_);                                         \
        sl_b_ = model_shfl(kind, mask, sl_b_, (int)(arg), SL_SITE_(w));               \
        memcpy(&sl_v_, &sl_b_, sizeof sl_v_);                                         \
        sl_v_;                                                                        \
    })
#define SHFL_UP(v, d) SL_SHFL_(MODEL_SHFL_UP, SL_FULL_MASK, v, d, "SHFL_UP")
#define SHFL_DOWN(v, d) SL_SHFL_(MODEL_SHFL_DOWN, SL_FULL_MASK, v, d, "SHFL_DOWN")
#define SHFL_IDX(v, src) SL_SHFL_(MODEL_SHFL_IDX, SL_FULL_MASK, v, src, "SHFL_IDX")
#define SHFL_XOR(v, m) SL_SHFL_(MODEL_SHFL_XOR, SL_FULL_MASK, v, m, "SHFL_XOR")
#define SHFL_UP_MASK(mask, v, d) SL_SHFL_(MODEL_SHFL_UP, mask, v, d, "SHFL_UP")
#define SHFL_DOWN_MASK(mask, v, d) SL_SHFL_(MODEL_SHFL_DOWN, mask, v, d, "SHFL_DOWN")
#define SHFL_IDX_MASK(mask, v, src) SL_SHFL_(MODEL_SHFL_IDX, mask, v, src, "SHFL_IDX")
#define SHFL_XOR_MASK(mask, v, m) SL_SHFL_(MODEL_SHFL_XOR, mask, v, m, "SHFL_XOR")
#define BALLOT(p) model_vote(MODEL_VOTE_BALLOT, SL_FULL_MASK, !!(p), SL_SITE_("BALLOT"))
#define ALL(p) ((int)model_vote(MODEL_VOTE_ALL, SL_FULL_MASK, !!(p), SL_SITE_("ALL")))
#define ANY(p) ((int)model_vote(MODEL_VOTE_ANY, SL_FULL_MASK, !!(p), SL_SITE_("ANY")))
#define BALLOT_MASK(mask, p) model_vote(MODEL_VOTE_BALLOT, mask, !!(p), SL_SITE_("BALLOT"))
#define ALL_MASK(mask, p) ((int)model_vote(MODEL_VOTE_ALL, mask, !!(p), SL_SITE_("ALL")))
#define ANY_MASK(mask, p) ((int)model_vote(MODEL_VOTE_ANY, mask, !!(p), SL_SITE_("ANY")))

/* Atomics: 4- and 8-byte integers; the old value comes back in *p's type. */
#define SL_UNSIGNED_(p) _Generic(*(p), uint32_t: 1, uint64_t: 1, default: 0)
#define SL_ATOMIC_(kind, p, a, b, w)                                                               \
    ((__typeof__(*(p)))model_atomic(kind, (p), sizeof *(p), SL_UNSIGNED_(p), (uint64_t)(a),      \
                                    (uint64_t)(b), SL_SITE_(w)))
#define ATOMIC_ADD(p, v) SL_ATOMIC_(MODEL_AT_ADD, p, v, 0, "ATOMIC_ADD")
#define ATOMIC_MAX(p, v) SL_ATOMIC_(MODEL_AT_MAX, p, v, 0, "ATOMIC_MAX")
#define ATOMIC_MIN(p, v) SL_ATOMIC_(MODEL_AT_MIN, p, v, 0, "ATOMIC_MIN")
#define ATOMIC_CAS(p, cmp, v) SL_ATOMIC_(MODEL_AT_CAS, p, cmp, v, "ATOMIC_CAS")
#define ATOMIC_EXCH(p, v) SL_ATOMIC_(MODEL_AT_EXCH, p, v, 0, "ATOMIC_EXCH")

/* Launch: the parameters are packed in a struct and a trampoline unpacks
 * them on every simulated thread. Where a launch redirector is set (the
 * tests that run the catalogue's nvcc PTX under its C host drivers,
 * model/rt.h), it may run the launch instead, given each parameter's
 * address. */
#define SL_PADDR_(p) (const void *)&a_.SL_PN_ p
#define SL_DEFINE_LAUNCH(kname, ...)                                                          \
    typedef struct {                                                                          \
        SL_MAP(SL_PDECL, SL_SEMI_, __VA_ARGS__);                                              \
    } SL_CAT2(kname, _args_t);                                                                \
    static void SL_CAT2(kname, _tramp)(const void *p_)                                        \
    {                                                                                         \
        const SL_CAT2(kname, _args_t) *a_ = (const SL_CAT2(kname, _args_t) *)p_;              \
        kname(SL_MAP(SL_AFIELD_, SL_COMMA_, __VA_ARGS__));                                    \
    }                                                                                         \
    static inline sl_status SL_CAT2(kname, _launch)(sl_launch cfg_,                           \
                                                    SL_MAP(SL_PDECL, SL_COMMA_, __VA_ARGS__)) \
    {                                                                                         \
        SL_CAT2(kname, _args_t) a_ = {SL_MAP(SL_PNAME, SL_COMMA_, __VA_ARGS__)};              \
        if (model_launch_redirect) {                                                          \
            const void *const p_[] = {SL_MAP(SL_PADDR_, SL_COMMA_, __VA_ARGS__)};             \
            sl_status st_;                                                                    \
            if (model_launch_redirect(&cfg_, SL_STR(kname), p_, SL_NARGS(__VA_ARGS__), &st_)) \
                return st_;                                                                   \
        }                                                                                     \
        return SL_MODEL_LAUNCH_(&cfg_, SL_CAT2(kname, _tramp), &a_, SL_STR(kname));          \
    }

/* The allocation keeps the pointer's name for the findings (d_sums[3]). */
#define sl_dev_alloc(p, bytes) model_dev_alloc_named((p), (bytes), #p)
static inline void sl_dev_free(void *p) { model_dev_free(p); }
static inline const char *sl_launch_role(const char *role) { return model_launch_role(role); }
static inline unsigned sl_launch_devices(unsigned blocks_per_device)
{
    return model_launch_devices(blocks_per_device);
}
/* Copies and fills skip the untouched pages of large buffers (a huge grid
 * touches only what its chosen blocks use). */
static inline sl_status sl_dev_copy_to(void *dev, const void *host, size_t bytes)
{ model_dev_copy(dev, host, bytes); return SL_OK; }
static inline sl_status sl_dev_copy_from(void *host, const void *dev, size_t bytes)
{ model_dev_copy(host, dev, bytes); return SL_OK; }
static inline sl_status sl_dev_memset(void *dev, int byte, size_t bytes)
{ model_dev_memset(dev, byte, bytes); return SL_OK; }
static inline sl_status sl_dev_sync(void) { return SL_OK; }
/* No device arenas in the simulator: every run is fresh, epoch 1. */
static inline int sl_dev_in_arena(void) { return 0; }
static inline uint32_t sl_dev_epoch(void) { return 1u; }
static inline uint32_t *sl_dev_error_word(void) { return NULL; }
/* The simulator's stand-in for the GPU's resident blocks: a few, so that
 * grid-stride kernels loop over several tiles per block and stay small
 * enough to simulate, unless the run sets model_config.occupancy (what an
 * occupancy query answers), sets model_config.occupancy_device (what that
 * device holds of the kernel's blocks, for grid-stride kernels) or is a
 * huge run (a block per tile). */
#define SL_SIM_RESIDENT_BLOCKS 4u
#define SL_RESIDENT_BLOCKS(kname, block, shmem) \
    ((void)(kname), model_occupancy_of((unsigned)(block), (size_t)(shmem), SL_SIM_RESIDENT_BLOCKS))
#define SL_RESIDENT_BLOCKS_OR(kname, block, shmem, sim_blocks) \
    ((void)(kname), (void)(block), (void)(shmem), model_occupancy(sim_blocks))
/* The simulator has no L2 size: its memory has no speed, and a sleep is a
 * yield, so nothing it runs depends on one. */
#define SL_L2_BYTES() ((size_t)0)

#endif /* backends */

/* The host side every device-level driver shares, written once for both
 * compilations: copy a->n elements of elem bytes from a->in to the device,
 * run dev on device buffers (out_elems outputs: n for a scan, 1 for a
 * reduction), wait, copy the outputs back to a->out, free. n = 0 is left to
 * the caller (a scan writes nothing, a reduction writes its identity).
 * Inside a device arena a->in and a->out are device buffers: dev runs on
 * them directly and nothing is copied or awaited. */
typedef sl_status (*sl_dev_fn)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx);
static inline sl_status sl_host_run(const sl_kargs *a, size_t elem, size_t out_elems, sl_dev_fn dev,
                                    const void *ctx)
{
    void *d_in = NULL, *d_out = NULL;
    sl_status st = SL_OK;
    if (sl_dev_in_arena()) /* a->in and a->out are on the device already */
        return dev(a->in, a->out, a, ctx);
    SL_TRY(sl_dev_alloc(&d_in, a->n * elem));
    SL_TRY(sl_dev_alloc(&d_out, out_elems * elem));
    SL_TRY(sl_dev_copy_to(d_in, a->in, a->n * elem));
    SL_TRY(dev(d_in, d_out, a, ctx));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_dev_copy_from(a->out, d_out, out_elems * elem));
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    return st;
}

/* Lane and warp of the calling thread within its block (1-D blocks). */
#define LANE_ID() (threadIdx.x & (SL_WARP_SIZE - 1))
#define WARP_ID() (threadIdx.x >> SL_LOG2_WARP_SIZE)

#endif
