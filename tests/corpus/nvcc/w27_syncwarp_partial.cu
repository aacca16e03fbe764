// corpus: -arch=sm_80
// __syncwarp with partial masks in divergent code: half-warp shared-memory transposes, a lane-subset
// producer/consumer through shared memory, and a reduction over the lower 16 lanes only.
#include <cuda_runtime.h>

extern "C" __global__ void w27_halfwarp_exchange(const int* __restrict__ x, int* __restrict__ y, int n) {
    __shared__ int buf[256];
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    buf[threadIdx.x] = i < n ? x[i] : 0;
    __syncwarp(half);
    int partner = (threadIdx.x & ~15) | (15 - (lane & 15));
    int v = buf[partner];
    __syncwarp(half);
    buf[threadIdx.x] = v + 1;
    __syncwarp(half);
    if (i < n) y[i] = buf[partner];
}

extern "C" __global__ void w27_lower16_reduce(const float* __restrict__ x, float* __restrict__ out, int n) {
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    if (lane < 16) {
        for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0x0000ffffu, v, o, 16);
        if (lane == 0) out[i >> 5] = v;
    }
}

extern "C" __global__ void w27_lane_pipeline(const int* __restrict__ x, int* __restrict__ y, int n, int steps) {
    __shared__ volatile int stage[8][32];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    for (int s = 0; s < steps; ++s) {
        unsigned active = __ballot_sync(0xffffffffu, v != 0);
        if (v != 0) {
            stage[w][lane] = v;
            __syncwarp(active);
            int nb = stage[w][(lane + 1) & 31];
            __syncwarp(active);
            v = (v + nb) >> 1;
        }
    }
    if (i < n) y[i] = v;
}
