// corpus: -arch=sm_80
// Votes steering loops: a warp-cooperative queue pop where lane 0 grabs work and broadcasts it until the
// queue is empty, a bitonic-style compare-exchange inside a lane-dependent if, and a stream compaction
// that skips all-empty warps with __any_sync and uses __reduce_add_sync for the count.
#include <cuda_runtime.h>

extern "C" __global__ void w28_work_queue(int* __restrict__ head, const int* __restrict__ items,
                                          float* __restrict__ out, int nitems) {
    int lane = threadIdx.x & 31;
    while (true) {
        int idx = 0;
        if (lane == 0) idx = atomicAdd(head, 32);
        idx = __shfl_sync(0xffffffffu, idx, 0);
        if (idx >= nitems) break;
        int j = idx + lane;
        if (j < nitems) out[j] = (float)items[j] * 0.5f;
    }
}

extern "C" __global__ void w28_warp_bitonic(int* __restrict__ keys, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int k = i < n ? keys[i] : 0x7fffffff;
    for (int size = 2; size <= 32; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            int other = __shfl_xor_sync(0xffffffffu, k, stride);
            bool up = ((lane & size) == 0);
            bool lower = (lane & stride) == 0;
            if (lower == up) k = min(k, other);
            else k = max(k, other);
        }
    }
    if (i < n) keys[i] = k;
}

extern "C" __global__ void w28_compact_any(const float* __restrict__ in, float* __restrict__ out,
                                           int* __restrict__ count, int n) {
    int lane = threadIdx.x & 31;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; __any_sync(0xffffffffu, i < n); i += stride) {
        float v = i < n ? in[i] : 0.f;
        bool keep = i < n && v != 0.f;
        if (!__any_sync(0xffffffffu, keep)) continue;
        unsigned b = __ballot_sync(0xffffffffu, keep);
        int total = __reduce_add_sync(0xffffffffu, keep ? 1 : 0);
        int base = 0;
        if (lane == 0) base = atomicAdd(count, total);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (keep) out[base + __popc(b & ((1u << lane) - 1))] = v;
    }
}
