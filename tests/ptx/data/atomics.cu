// Memory-model instructions: acquire loads, release stores, a sequentially
// consistent fence and an acq_rel compare-and-swap, written as inline
// assembly, and the same through cuda::atomic_ref.
#include <cuda/atomic>

extern "C" __global__ void atomics(unsigned *flag, unsigned *data, unsigned *out)
{
    unsigned v, old;
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(data), "r"(threadIdx.x) : "memory");
    asm volatile("fence.sc.gpu;" ::: "memory");
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    asm volatile("atom.acq_rel.gpu.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old) : "l"(flag), "r"(v), "r"(v + 1) : "memory");
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ref(out[0]);
    ref.fetch_add(old, cuda::memory_order_acq_rel);
    out[1 + threadIdx.x] = ref.load(cuda::memory_order_acquire);
}
