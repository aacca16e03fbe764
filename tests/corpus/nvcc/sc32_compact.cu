// corpus: -arch=sm_80
// Stream compaction as people write it: warp-aggregated appends (ballot + popc + one atomicAdd per warp),
// block-level index compaction through shared warp counts and one atomicAdd per block, guarded and
// grid-stride forms, __syncthreads_count / __syncthreads_or, and cooperative_groups::coalesced_threads().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

// 1. the classic warp-aggregated filter, early-return guard
extern "C" __global__ void sc32_filter_positive(const float* in, float* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    bool keep = v > 0.f;
    unsigned mask = __ballot_sync(__activemask(), keep);
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane_id() == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(__activemask(), base, leader);
    if (keep) out[base + __popc(mask & ((1u << lane_id()) - 1))] = v;
}

// 2. guard inside: if (i < n) around the predicate, full-mask ballot outside
extern "C" __global__ void sc32_filter_guarded(const int* in, int* out, int* count, int n, int thr) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = false;
    int v = 0;
    if (i < n) { v = in[i]; keep = v >= thr; }
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int cnt = __popc(mask);
    int base = 0;
    if (lane_id() == 0 && cnt) base = atomicAdd(count, cnt);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(mask & ((1u << lane_id()) - 1))] = v;
}

// 3. grid-stride compaction of indices, warp-aggregated each iteration
extern "C" __global__ void sc32_compact_indices_gridstride(const unsigned char* flags, int* idx, int* count, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        bool keep = flags[i] != 0;
        unsigned active = __activemask();
        unsigned mask = __ballot_sync(active, keep);
        int leader = __ffs(active) - 1;
        int base;
        if (lane_id() == leader) base = atomicAdd(count, __popc(mask));
        base = __shfl_sync(active, base, leader);
        if (keep) idx[base + __popc(mask & ((1u << lane_id()) - 1))] = i;
    }
}

// 4. block-level compaction: warp counts in shared memory, one atomicAdd per block
template <int BLOCK>
__device__ void block_compact(const float* in, float* out, int* count, int n, float lo, float hi) {
    __shared__ int warp_cnt[BLOCK / 32];
    __shared__ int block_base;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int warp = threadIdx.x >> 5;
    float v = i < n ? in[i] : 0.f;
    bool keep = i < n && v >= lo && v < hi;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (lane_id() == 0) warp_cnt[warp] = __popc(mask);
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < BLOCK / 32; ++w) { int c = warp_cnt[w]; warp_cnt[w] = total; total += c; }
        block_base = atomicAdd(count, total);
    }
    __syncthreads();
    if (keep) out[block_base + warp_cnt[warp] + __popc(mask & ((1u << lane_id()) - 1))] = v;
}
extern "C" __global__ void sc32_block_compact256(const float* in, float* out, int* count, int n, float lo, float hi) {
    block_compact<256>(in, out, count, n, lo, hi);
}

// 5. __syncthreads_count to size the block's output, __syncthreads_or to skip empty blocks
extern "C" __global__ void sc32_block_count_or(const int* in, int* out, int* count, int* any_flag, int n) {
    __shared__ int base;
    __shared__ int warp_off[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    bool keep = (v & 1) != 0;
    if (!__syncthreads_or(keep)) return;
    int total = __syncthreads_count(keep);
    if (threadIdx.x == 0) { base = atomicAdd(count, total); *any_flag = 1; }
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (lane_id() == 0) warp_off[threadIdx.x >> 5] = __popc(mask);
    __syncthreads();
    if (threadIdx.x < 32) {
        int c = threadIdx.x < (blockDim.x >> 5) ? warp_off[threadIdx.x] : 0;
        int s = c;
        for (int d = 1; d < 32; d <<= 1) { int t = __shfl_up_sync(0xffffffffu, s, d); if (lane_id() >= d) s += t; }
        if (threadIdx.x < (blockDim.x >> 5)) warp_off[threadIdx.x] = s - c;
    }
    __syncthreads();
    if (keep) out[base + warp_off[threadIdx.x >> 5] + __popc(mask & ((1u << lane_id()) - 1))] = v;
}

// 6. cooperative_groups::coalesced_threads() inside the predicate branch
extern "C" __global__ void sc32_cg_coalesced_append(const float* in, float* out, int* count, int n, float thr) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        if (v > thr) {
            cg::coalesced_group g = cg::coalesced_threads();
            int base;
            if (g.thread_rank() == 0) base = atomicAdd(count, (int)g.size());
            base = g.shfl(base, 0);
            out[base + g.thread_rank()] = v;
        }
    }
}

// 7. grid-stride coalesced_threads append of (key, index) pairs
extern "C" __global__ void sc32_cg_gridstride_pairs(const int* keys, int2* out, int* count, int n, int want) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int k = keys[i];
        if (k == want) {
            auto g = cg::coalesced_threads();
            int base = 0;
            if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
            base = g.shfl(base, 0) + g.thread_rank();
            out[base] = make_int2(k, i);
        }
    }
}

// 8. multi-item per thread: each thread tests 4 elements, ballot per item
extern "C" __global__ void sc32_compact4(const int* in, int* out, int* count, int n) {
    int base_i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (base_i >= n) return;
    unsigned active = __activemask();
    #pragma unroll
    for (int k = 0; k < 4; ++k) {
        int i = base_i + k;
        int v = i < n ? in[i] : 0;
        bool keep = v != 0;
        unsigned mask = __ballot_sync(active, keep);
        int leader = __ffs(active) - 1;
        int base = 0;
        if (lane_id() == leader && mask) base = atomicAdd(count, __popc(mask));
        base = __shfl_sync(active, base, leader);
        if (keep) out[base + __popc(mask & ((1u << lane_id()) - 1))] = v;
    }
}
