// corpus: -arch=sm_80
// Block-wide reductions and scans written the classic way: a warp shuffle step, `if (lane == 31)` (or
// lane 0) publishing the warp's partial to shared memory, __syncthreads(), and the first warp combining
// the partials (helper sched27: ptxas predicates the publishing if and schedules through it).
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void block_sum_partials(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float partial[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    int i = blockIdx.x * blockDim.x + tid;
    float v = i < n ? in[i] : 0.f;
    v = warp_sum(v);
    if (lane == 0) partial[w] = v;
    __syncthreads();
    if (w == 0) {
        float t = lane < (blockDim.x >> 5) ? partial[lane] : 0.f;
        t = warp_sum(t);
        if (lane == 0) atomicAdd(out, t);
    }
}

__global__ void block_inclusive_scan(const int* __restrict__ in, int* __restrict__ out) {
    __shared__ int sums[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    int x = in[blockIdx.x * blockDim.x + tid];
    for (int d = 1; d < 32; d <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += y;
    }
    int excl = __shfl_up_sync(0xffffffffu, x, 1);
    if (lane == 31) sums[w] = x;
    __syncthreads();
    if (w == 0) {
        int s = sums[lane];
        for (int d = 1; d < 32; d <<= 1) {
            int y = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d) s += y;
        }
        sums[lane] = s;
    }
    __syncthreads();
    int base = w > 0 ? sums[w - 1] : 0;
    out[blockIdx.x * blockDim.x + tid] = base + x + (lane == 0 ? 0 : excl) * 0;
}

__global__ void block_max_and_count(const float* __restrict__ in, float* __restrict__ out_max,
                                    unsigned* __restrict__ out_count, float thresh) {
    __shared__ float wmax[32];
    __shared__ unsigned wcnt[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    float v = in[blockIdx.x * blockDim.x + tid];
    unsigned ballot = __ballot_sync(0xffffffffu, v > thresh);
    float m = v;
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) { wmax[w] = m; wcnt[w] = __popc(ballot); }
    __syncthreads();
    if (tid == 0) {
        float bm = wmax[0];
        unsigned c = wcnt[0];
        for (int k = 1; k < (blockDim.x >> 5); ++k) { bm = fmaxf(bm, wmax[k]); c += wcnt[k]; }
        out_max[blockIdx.x] = bm;
        out_count[blockIdx.x] = c;
    }
}

__global__ void two_stage_softmax_denominator(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float red[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
    const float* row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = tid; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) red[w] = m;
    __syncthreads();
    m = lane < nw ? red[lane] : -INFINITY;
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    __syncthreads();
    float s = 0.f;
    for (int c = tid; c < cols; c += blockDim.x) s += __expf(row[c] - m);
    s = warp_sum(s);
    if (lane == 0) red[w] = s;
    __syncthreads();
    s = lane < nw ? red[lane] : 0.f;
    s = warp_sum(s);
    if (tid == 0) out[blockIdx.x] = s;
}
