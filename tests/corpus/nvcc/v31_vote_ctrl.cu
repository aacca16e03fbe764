// corpus: -arch=sm_75
// Votes and aggregated atomics in ordinary control flow: a compaction that appends survivors with an
// implicitly warp-aggregated atomicAdd under a divergent if, a "did anyone find it" search loop with
// __any_sync, an __all_sync convergence test in an iterative solver, and a hand-written warp-aggregated
// increment with __activemask / __popc / __shfl_sync.
#include <cuda_runtime.h>

__global__ void v31_append_if(const float* __restrict__ in, float* __restrict__ out, int* count, int n,
                              float thresh)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        if (v > thresh) {
            int slot = atomicAdd(count, 1);
            out[slot] = v;
        }
    }
}

__global__ void v31_any_search(const int* __restrict__ keys, int n, int key, int* found)
{
    int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        bool hit = (i < n) && keys[i] == key;
        if (__any_sync(0xffffffffu, hit)) {
            unsigned m = __ballot_sync(0xffffffffu, hit);
            if (lane == __ffs(m) - 1)
                atomicMin(found, i);
            break;
        }
    }
}

__global__ void v31_all_converged(float* x, const float* __restrict__ b, int n, int iters, float tol)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float xi = i < n ? x[i] : 0.f;
    float bi = i < n ? b[i] : 0.f;
    for (int it = 0; it < iters; ++it) {
        float nx = 0.5f * (xi + bi / (xi + 1.0f));
        bool done = fabsf(nx - xi) < tol;
        xi = nx;
        if (__all_sync(0xffffffffu, done))
            break;
    }
    if (i < n) x[i] = xi;
}

__device__ __forceinline__ int warp_agg_inc(int* ctr)
{
    unsigned active = __activemask();
    int leader = __ffs(active) - 1;
    int lane = threadIdx.x & 31;
    int res;
    if (lane == leader)
        res = atomicAdd(ctr, __popc(active));
    res = __shfl_sync(active, res, leader);
    return res + __popc(active & ((1u << lane) - 1));
}

__global__ void v31_agg_filter(const int* __restrict__ in, int* __restrict__ out, int* ctr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        if (v & 1)
            out[warp_agg_inc(ctr)] = v;
    }
}
