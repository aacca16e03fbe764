// corpus: -arch=sm_75
// cuda::atomic_ref with several memory orders and scopes.
#include <cuda/atomic>

extern "C" __global__ void a27_ref_counters(unsigned *ctr, int *mn, unsigned *out, const int *x, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*ctr);
    cuda::atomic_ref<int, cuda::thread_scope_device> m(*mn);
    unsigned t = c.fetch_add(1, cuda::memory_order_relaxed);
    m.fetch_min(x[i], cuda::memory_order_relaxed);
    out[i] = t;
}

extern "C" __global__ void a27_ref_block_scope(int *sum, int *mx, const int *x, int n) {
    __shared__ int s_sum;
    if (threadIdx.x == 0) s_sum = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    cuda::atomic_ref<int, cuda::thread_scope_block> ss(s_sum);
    if (i < n) ss.fetch_add(x[i], cuda::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> g(*sum);
        g.fetch_add(ss.load(cuda::memory_order_relaxed), cuda::memory_order_release);
        cuda::atomic_ref<int, cuda::thread_scope_device> gm(*mx);
        gm.fetch_max(s_sum, cuda::memory_order_relaxed);
    }
}

// Producer/consumer flag with release store / acquire load.
extern "C" __global__ void a27_ref_flag_handoff(int *data, int *flag, int *out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            data[0] = 42;
            f.store(1, cuda::memory_order_release);
        }
    } else if (threadIdx.x == 0) {
        while (f.load(cuda::memory_order_acquire) == 0) { }
        out[blockIdx.x] = data[0];
    }
}

// compare_exchange_strong loop: device-scope max with acq_rel on success.
extern "C" __global__ void a27_ref_cas_max(int *target, const int *x, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> t(*target);
    int v = x[i];
    int cur = t.load(cuda::memory_order_relaxed);
    while (cur < v && !t.compare_exchange_strong(cur, v, cuda::memory_order_acq_rel, cuda::memory_order_relaxed)) {
    }
}

// System-scope counters (host-visible) and seq_cst fetch_add.
extern "C" __global__ void a27_ref_system(unsigned long long *host_ctr, int *seq, int *out, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> h(*host_ctr);
    h.fetch_add(1ull, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_device> s(*seq);
    out[i] = s.fetch_add(1);  // seq_cst
}

// Mixed orders on one counter inside a loop.
extern "C" __global__ void a27_ref_loop_orders(int *ctr, int *out, int iters) {
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*ctr);
    int acc = 0;
    for (int k = 0; k < iters; ++k) {
        if (k & 1) acc += c.fetch_add(1, cuda::memory_order_acquire);
        else c.fetch_sub(1, cuda::memory_order_release);
    }
    out[threadIdx.x + blockIdx.x * blockDim.x] = acc;
}

// Block-scope exchange and CAS on shared memory.
extern "C" __global__ void a27_ref_shared_exchange(int *out) {
    __shared__ int slot;
    if (threadIdx.x == 0) slot = -1;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> s(slot);
    int prev = s.exchange(threadIdx.x, cuda::memory_order_acq_rel);
    int expected = prev;
    bool ok = s.compare_exchange_strong(expected, prev + 1000, cuda::memory_order_relaxed);
    out[threadIdx.x + blockIdx.x * blockDim.x] = ok ? prev : expected;
}
