// corpus: -arch=sm_80
// Warp top-k with votes: the warp max by butterfly, then __ballot_sync finds the owner lane, __shfl_sync
// broadcasts its index, the owner pops its head; a loop that stops when no lane has a candidate left
// (__any_sync break), and a bitonic-style per-lane compare-exchange with __shfl_xor_sync.
#include <cuda_runtime.h>
#include <cfloat>

__global__ void wk32_topk_ballot(const float* __restrict__ in, float* __restrict__ outv, int* __restrict__ outi,
                                 int rows, int cols, int k)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* r = in + (size_t)row * cols;
    float h0 = -FLT_MAX, h1 = -FLT_MAX; int i0 = -1, i1 = -1;
    for (int c = lane; c < cols; c += 32) {
        float x = r[c];
        if (x > h0) { h1 = h0; i1 = i0; h0 = x; i0 = c; }
        else if (x > h1) { h1 = x; i1 = c; }
    }
    for (int j = 0; j < k; ++j) {
        float m = h0;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        unsigned who = __ballot_sync(0xffffffffu, h0 == m);
        int src = __ffs(who) - 1;
        int mi = __shfl_sync(0xffffffffu, i0, src);
        if (lane == 0) { outv[row * k + j] = m; outi[row * k + j] = mi; }
        if (lane == src) { h0 = h1; i0 = i1; h1 = -FLT_MAX; i1 = -1; }
    }
}

__global__ void wk32_topk_any_break(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                                    float floor_v)
{
    int lane = threadIdx.x & 31;
    int warps = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < rows; row += warps) {
        float a = -FLT_MAX;
        for (int c = lane; c < cols; c += 32) a = fmaxf(a, in[(size_t)row * cols + c]);
        int n = 0;
        while (n < 16) {
            if (!__any_sync(0xffffffffu, a > floor_v)) break;
            float m = a;
            for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
            if (lane == 0) out[row * 16 + n] = m;
            if (a == m) a = -FLT_MAX;
            ++n;
        }
    }
}

__global__ void wk32_topk_bitonic(const float* __restrict__ in, float* __restrict__ out, int n)
{
    int lane = threadIdx.x & 31;
    int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (gw * 32 >= n) return;
    float v = in[gw * 32 + lane];
    for (int size = 2; size <= 32; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            float o = __shfl_xor_sync(0xffffffffu, v, stride);
            bool up = ((lane & size) == 0);
            bool lower = ((lane & stride) == 0);
            if (lower == up) v = fmaxf(v, o); else v = fminf(v, o);
        }
    }
    if (lane < 8) out[gw * 8 + lane] = v;
}

__global__ void wk32_topk_active(const float* __restrict__ in, float* __restrict__ out, const int* __restrict__ len,
                                 int rows)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    int L = len[row];
    if (lane < L) {
        unsigned act = __activemask();
        float v = in[row * 32 + lane];
        for (int o = 16; o > 0; o >>= 1) {
            float w = __shfl_xor_sync(act, v, o);
            if ((lane ^ o) < L) v = fmaxf(v, w);
        }
        if (lane == 0) out[row] = v;
    }
}
