// corpus: -arch=sm_80
// Cooperative-groups tile collectives on 16- and 8-thread tiles (reduce, inclusive/exclusive scan, any/all),
// cuda::atomic_ref max and CAS loops with explicit memory orders, a 1-D stencil iterated with __syncthreads in
// the loop and threads that leave early, and a persistent kernel with an atomic work counter and __threadfence.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

extern "C" __global__ void n31_tile16_segment_sums(const float* x, float* seg, float* scanned, int n) {
    auto block = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    float s = cg::reduce(t16, v, cg::plus<float>());
    float p = cg::inclusive_scan(t16, v, cg::plus<float>());
    if (i < n) scanned[i] = p;
    if (t16.thread_rank() == 0 && i < n) seg[i / 16] = s;
}

extern "C" __global__ void n31_tile8_max_compact(const int* x, int* out, int* count, int n, int thr) {
    auto block = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : INT_MIN;
    int m = cg::reduce(t8, v, cg::greater<int>());
    bool keep = v > thr;
    if (!t8.any(keep)) return;
    int pos = cg::exclusive_scan(t8, keep ? 1 : 0, cg::plus<int>());
    int tot = cg::reduce(t8, keep ? 1 : 0, cg::plus<int>());
    int base = 0;
    if (t8.thread_rank() == 0) base = atomicAdd(count, tot);
    base = t8.shfl(base, 0);
    if (keep) out[base + pos] = v - m;
}

extern "C" __global__ void n31_atomic_ref_max_cas(const float* x, int n, float* gmax, unsigned long long* packed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    cuda::atomic_ref<float, cuda::thread_scope_device> r(*gmax);
    float cur = r.load(cuda::memory_order_relaxed);
    while (v > cur && !r.compare_exchange_weak(cur, v, cuda::memory_order_acq_rel, cuda::memory_order_relaxed)) {
    }
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> p(*packed);
    unsigned long long want = ((unsigned long long)__float_as_uint(v) << 32) | (unsigned)i;
    p.fetch_max(want, cuda::memory_order_release);
}

extern "C" __global__ void n31_atomic_ref_block_minmax(const int* x, int n, int* lo, int* hi) {
    __shared__ int smin, smax;
    if (threadIdx.x == 0) { smin = INT_MAX; smax = INT_MIN; }
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> amin(smin), amax(smax);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        amin.fetch_min(x[i], cuda::memory_order_relaxed);
        amax.fetch_max(x[i], cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> glo(*lo), ghi(*hi);
        glo.fetch_min(smin, cuda::memory_order_seq_cst);
        ghi.fetch_max(smax, cuda::memory_order_seq_cst);
    }
}

extern "C" __global__ void n31_stencil_iter(float* u, int n, int steps) {
    __shared__ float a[258], b[258];
    int g = blockIdx.x * 256 + threadIdx.x;
    if (g >= n + 256) return;  // whole trailing warps leave before the barriers
    float* cur = a;
    float* nxt = b;
    cur[threadIdx.x + 1] = g < n ? u[g] : 0.f;
    if (threadIdx.x == 0) cur[0] = g > 0 ? u[g - 1] : 0.f;
    if (threadIdx.x == 255) cur[257] = g + 1 < n ? u[g + 1] : 0.f;
    __syncthreads();
    for (int s = 0; s < steps; ++s) {
        nxt[threadIdx.x + 1] = 0.25f * cur[threadIdx.x] + 0.5f * cur[threadIdx.x + 1] + 0.25f * cur[threadIdx.x + 2];
        if (threadIdx.x == 0) nxt[0] = cur[0];
        if (threadIdx.x == 255) nxt[257] = cur[257];
        __syncthreads();
        float* t = cur; cur = nxt; nxt = t;
    }
    if (g < n) u[g] = cur[threadIdx.x + 1];
}

__device__ unsigned g_next_tile;
__device__ unsigned g_done;

extern "C" __global__ void n31_persistent_worklist(const float* in, float* out, float* result, int ntiles) {
    __shared__ unsigned tile;
    __shared__ float partial[8];
    float acc = 0.f;
    while (true) {
        if (threadIdx.x == 0) tile = atomicAdd(&g_next_tile, 1);
        __syncthreads();
        unsigned t = tile;
        if (t >= ntiles) break;
        float v = in[t * blockDim.x + threadIdx.x];
        out[t * blockDim.x + threadIdx.x] = v * v;
        acc += v;
        __syncthreads();
    }
    for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < (blockDim.x >> 5); ++w) s += partial[w];
        atomicAdd(result, s);
        __threadfence();
        unsigned d = atomicAdd(&g_done, 1);
        if (d == gridDim.x - 1) { g_next_tile = 0; g_done = 0; }
    }
}
