// corpus: -arch=sm_75
// cuda::atomic_ref with memory orders and thread scopes (ld.acquire / st.release / atom.acq_rel / fence.sc).
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_orders(int *flag, int *data, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<int, cuda::thread_scope_block> b(data[1]);
    cuda::atomic_ref<int, cuda::thread_scope_system> s(data[2]);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        data[0] = 42;
        f.store(1, cuda::memory_order_release);
    }
    while (f.load(cuda::memory_order_acquire) == 0) { }
    out[i * 6 + 0] = data[0];
    out[i * 6 + 1] = b.fetch_add(1, cuda::memory_order_relaxed);
    out[i * 6 + 2] = s.fetch_or(1 << (i & 31), cuda::memory_order_acq_rel);
    out[i * 6 + 3] = f.exchange(2, cuda::memory_order_seq_cst);
    int expected = 2;
    out[i * 6 + 4] = b.compare_exchange_strong(expected, 3, cuda::memory_order_acq_rel, cuda::memory_order_acquire);
    out[i * 6 + 5] = s.load(cuda::memory_order_seq_cst);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
}
