// corpus: -arch=sm_80
// Ballot-driven control flow: warp stream compaction with one atomic per warp, an early-exit search
// that leaves the loop when any lane found its key, and an all-lanes-done convergence loop.
#include <cuda_runtime.h>

extern "C" __global__ void w27_compact_positive(const float* __restrict__ in, float* __restrict__ out,
                                                int* __restrict__ count, int n) {
    int lane = threadIdx.x & 31;
    for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < n; base += gridDim.x * blockDim.x) {
        int i = base + lane;
        float v = i < n ? in[i] : 0.f;
        bool keep = i < n && v > 0.f;
        unsigned b = __ballot_sync(0xffffffffu, keep);
        if (b == 0) continue;
        int pos = 0;
        if (lane == 0) pos = atomicAdd(count, __popc(b));
        pos = __shfl_sync(0xffffffffu, pos, 0);
        if (keep) out[pos + __popc(b & ((1u << lane) - 1))] = v;
    }
}

extern "C" __global__ void w27_find_first(const int* __restrict__ data, int n, int key, int* __restrict__ where) {
    int lane = threadIdx.x & 31;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int nw = (gridDim.x * blockDim.x) >> 5;
    for (int base = warp * 32; base < n; base += nw * 32) {
        int i = base + lane;
        bool hit = i < n && data[i] == key;
        if (__any_sync(0xffffffffu, hit)) {
            unsigned b = __ballot_sync(0xffffffffu, hit);
            if (lane == __ffs(b) - 1) atomicMin(where, i);
            return;
        }
    }
}

extern "C" __global__ void w27_newton_until_all(float* __restrict__ x, const float* __restrict__ a, int n, int maxit) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 1.f;
    float t = i < n ? a[i] : 1.f;
    int it = 0;
    bool done = false;
    while (!__all_sync(0xffffffffu, done) && it < maxit) {
        if (!done) {
            float nv = 0.5f * (v + t / v);
            done = fabsf(nv - v) < 1e-6f * fabsf(nv);
            v = nv;
        }
        ++it;
    }
    if (i < n) x[i] = v;
}

// Partial-mask ballot inside a divergent branch: only lanes with a valid element take part.
extern "C" __global__ void w27_partial_ballot(const int* __restrict__ flags, int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned act = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        int f = flags[i];
        unsigned b = __ballot_sync(act, f != 0);
        __syncwarp(act);
        if (f) out[i] = __popc(b & ((1u << lane) - 1));
        else out[i] = -1;
    }
}
