// corpus: -arch=sm_75
// cuda::atomic_ref<int> / <unsigned> in every thread scope (thread, block, device, system; one kernel each)
// with every memory order (relaxed, consume, acquire, release, acq_rel, seq_cst) across load, store,
// fetch_add/sub/and/or/xor/min/max, exchange and compare_exchange_weak/strong: the atom/ld/st/fence forms
// libcu++ emits for each order x scope combination.
#include <cuda/atomic>

template <cuda::thread_scope S>
__device__ void exercise(int *ip, unsigned *up, int *out)
{
    cuda::atomic_ref<int, S> a(*ip);
    cuda::atomic_ref<unsigned, S> u(*up);
    int t = threadIdx.x, r = 0;
    r += a.load(cuda::memory_order_relaxed);
    r += a.load(cuda::memory_order_consume);
    r += a.load(cuda::memory_order_acquire);
    r += a.load(cuda::memory_order_seq_cst);
    if (t == 0) a.store(r, cuda::memory_order_relaxed);
    if (t == 1) a.store(r, cuda::memory_order_release);
    if (t == 2) a.store(r, cuda::memory_order_seq_cst);
    r += a.fetch_add(1, cuda::memory_order_relaxed);
    r += a.fetch_sub(2, cuda::memory_order_consume);
    r += a.fetch_min(t, cuda::memory_order_acquire);
    r += a.fetch_max(t, cuda::memory_order_release);
    r += a.fetch_add(3, cuda::memory_order_acq_rel);
    r += a.fetch_sub(4, cuda::memory_order_seq_cst);
    r += (int)u.fetch_and(~(1u << (t & 31)), cuda::memory_order_relaxed);
    r += (int)u.fetch_or(1u << (t & 31), cuda::memory_order_release);
    r += (int)u.fetch_xor(0x5555u, cuda::memory_order_acq_rel);
    r += (int)u.fetch_min(7u, cuda::memory_order_seq_cst);
    r += (int)u.fetch_max(9u, cuda::memory_order_acquire);
    r += a.exchange(t, cuda::memory_order_acq_rel);
    r += (int)u.exchange((unsigned)t, cuda::memory_order_relaxed);
    int e = r;
    bool ok = a.compare_exchange_strong(e, t, cuda::memory_order_seq_cst, cuda::memory_order_relaxed);
    unsigned ue = u.load(cuda::memory_order_relaxed);
    while (!u.compare_exchange_weak(ue, ue + 1, cuda::memory_order_release, cuda::memory_order_relaxed)) { }
    int e2 = 0;
    ok &= a.compare_exchange_weak(e2, 1, cuda::memory_order_acquire);
    out[blockIdx.x * blockDim.x + t] = r + ok + (int)ue;
}

extern "C" __global__ void atomic_ref_scope_thread(int *ip, unsigned *up, int *out)
{ exercise<cuda::thread_scope_thread>(ip + threadIdx.x, up + threadIdx.x, out); }

extern "C" __global__ void atomic_ref_scope_block(int *ip, unsigned *up, int *out)
{ exercise<cuda::thread_scope_block>(ip, up, out); }

extern "C" __global__ void atomic_ref_scope_device(int *ip, unsigned *up, int *out)
{ exercise<cuda::thread_scope_device>(ip, up, out); }

extern "C" __global__ void atomic_ref_scope_system(int *ip, unsigned *up, int *out)
{ exercise<cuda::thread_scope_system>(ip, up, out); }
