// corpus: -arch=sm_75
// Single-pass scan with decoupled look-back: per-tile status flags published with st.release / polled with
// ld.acquire (cuda::atomic_ref), dynamic tile ids from atomicAdd, __syncthreads around the block scan.
#include <cuda/atomic>

extern "C" __global__ void __launch_bounds__(128) decoupled_lookback_scan(const int *in, int *out,
                                                                          unsigned long long *status, int *tile_counter)
{
    __shared__ int s[128];
    __shared__ int tile, prefix;
    if (threadIdx.x == 0) tile = atomicAdd(tile_counter, 1);
    __syncthreads();
    int t = tile;
    int v = in[t * 128 + threadIdx.x];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int off = 1; off < 128; off <<= 1) {
        int x = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
        __syncthreads();
        s[threadIdx.x] += x;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int agg = s[127];
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> mine(status[t]);
        mine.store((1ull << 32) | (unsigned)agg, cuda::memory_order_release);     // flag A: aggregate
        int excl = 0;
        for (int p = t - 1; p >= 0; --p) {
            cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> st(status[p]);
            unsigned long long w;
            while (((w = st.load(cuda::memory_order_acquire)) >> 32) == 0) { }
            excl += (int)(unsigned)w;
            if ((w >> 32) == 2) break;                                           // flag P: inclusive prefix
        }
        mine.store((2ull << 32) | (unsigned)(excl + agg), cuda::memory_order_release);
        prefix = excl;
    }
    __syncthreads();
    out[t * 128 + threadIdx.x] = s[threadIdx.x] + prefix;
}
