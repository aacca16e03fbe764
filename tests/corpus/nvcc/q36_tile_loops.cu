// corpus: -arch=sm_80
// Cooperative-groups tiles and warp reductions in loops and ifs (helper nvcoll36).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// 6. tile<16> reduce per row chunk in a loop, tail guarded, leader writes
extern "C" __global__ void q36_tile16_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(blk);
    int row = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = t.thread_rank(); c < cols; c += 16) s += x[row * cols + c];
    s = cg::reduce(t, s, cg::plus<float>());
    if (t.thread_rank() == 0) y[row] = s;
}

// 7. warp max in a while loop with an any-vote exit
extern "C" __global__ void q36_vote_converge(float* __restrict__ x, int* __restrict__ iters, float eps, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    int it = 0;
    while (__any_sync(__activemask(), fabsf(v) > eps)) {
        v = v * 0.5f;
        float m = v;
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
        if (m < eps) break;
        ++it;
    }
    x[i] = v;
    if ((threadIdx.x & 31) == 0) iters[i >> 5] = it;
}

// 8. tile<8> inclusive scan, per-tile total written by the last lane, an int division for the tile's base
extern "C" __global__ void q36_tile8_scan(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ tot,
                                          int per, int n) {
    cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] / per : 0;
    for (int d = 1; d < 8; d <<= 1) {
        int u = t.shfl_up(v, d);
        if (t.thread_rank() >= d) v += u;
    }
    if (i < n) out[i] = v;
    if (t.thread_rank() == 7) atomicAdd(&tot[(i / 8) % 64], v);
}

// 9. redux-based warp sum in a per-row loop, lane 0 stores; rows by division of the global id
extern "C" __global__ void q36_redux_rows(const int* __restrict__ a, int* __restrict__ s, int cols, int rows) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    for (int r = w; r < rows; r += gridDim.x * blockDim.x / 32) {
        int acc = 0;
        for (int c = lane; c < cols; c += 32) acc += a[r * cols + c];
        acc = __reduce_add_sync(0xffffffff, acc);
        if (lane == 0) s[r] = acc;
    }
}

// 10. ballot counting in an if, then the coalesced group's rank for a compaction
extern "C" __global__ void q36_ballot_if_rank(const float* __restrict__ x, int* __restrict__ idx,
                                              int* __restrict__ cnt, float lo, float hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (v > lo) {
        unsigned am = __activemask();
        unsigned b = __ballot_sync(am, v < hi);
        if (v < hi) {
            int lane = threadIdx.x & 31;
            int r = __popc(b & ((1u << lane) - 1));
            int base = 0;
            if (r == 0) base = atomicAdd(cnt, __popc(b));
            base = __shfl_sync(b, base, __ffs(b) - 1);
            idx[base + r] = i;
        }
    }
}
