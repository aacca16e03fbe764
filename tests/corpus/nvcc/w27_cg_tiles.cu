// corpus: -arch=sm_90
// Cooperative groups in real control flow: static tiles of 4/8/16/32 reducing inside a loop, a dynamic
// thread_group tile, coalesced_threads() in a divergent branch, labeled/binary partitions, cg::reduce
// and cg::inclusive/exclusive_scan, tile.any/all/ballot, meta_group_rank.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

template <int T>
__device__ float segsum(const float* x, int n) {
    auto blk = cg::this_thread_block();
    auto tile = cg::tiled_partition<T>(blk);
    float acc = 0.f;
    for (int i = blk.thread_rank(); i < n; i += blk.size()) {
        float v = x[i];
        for (int o = T / 2; o > 0; o >>= 1) v += tile.shfl_down(v, o);
        if (tile.thread_rank() == 0) acc += v;
    }
    return acc;
}

extern "C" __global__ void w27_cg_static_tiles(const float* __restrict__ x, float* __restrict__ out, int n) {
    float a = segsum<4>(x, n);
    float b = segsum<8>(x, n);
    float c = segsum<16>(x, n);
    float d = segsum<32>(x, n);
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

extern "C" __global__ void w27_cg_dynamic_tile(const int* __restrict__ x, int* __restrict__ out, int n, int ts) {
    auto blk = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(blk, ts);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    tile.sync();
    if (tile.thread_rank() == 0) out[i / ts] = v;
}

extern "C" __global__ void w27_cg_coalesced_append(const int* __restrict__ x, int* __restrict__ out,
                                                   int* __restrict__ cnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = x[i];
        if (v & 1) {
            cg::coalesced_group g = cg::coalesced_threads();
            int base;
            if (g.thread_rank() == 0) base = atomicAdd(cnt, g.size());
            base = g.shfl(base, 0);
            out[base + g.thread_rank()] = v;
        }
    }
}

extern "C" __global__ void w27_cg_reduce_scan(const int* __restrict__ x, int* __restrict__ inc,
                                              int* __restrict__ exc, int* __restrict__ tot, int n) {
    auto blk = cg::this_thread_block();
    auto w = cg::tiled_partition<32>(blk);
    int carry = 0;
    for (int base = w.meta_group_rank() * 32; base < n; base += w.meta_group_size() * 32) {
        int i = base + w.thread_rank();
        int v = i < n ? x[i] : 0;
        int s = cg::inclusive_scan(w, v) + carry;
        int e = cg::exclusive_scan(w, v, cg::plus<int>()) + carry;
        if (i < n) { inc[i] = s; exc[i] = e; }
        carry += cg::reduce(w, v, cg::plus<int>());
    }
    if (w.thread_rank() == 0) atomicAdd(tot, carry);
}

extern "C" __global__ void w27_cg_partitions(const int* __restrict__ lab, int* __restrict__ out, int n) {
    auto w = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int l = i < n ? lab[i] : -1;
    auto part = cg::labeled_partition(w, l);
    int m = cg::reduce(part, l + (int)part.thread_rank(), cg::greater<int>());
    auto bp = cg::binary_partition(w, l >= 0);
    int c = cg::reduce(bp, 1, cg::plus<int>());
    if (i < n) out[i] = m * 1000 + c;
}

extern "C" __global__ void w27_cg_tile_votes(const float* __restrict__ x, unsigned* __restrict__ out, int n) {
    auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    while (t16.any(v > 1.f)) {
        if (v > 1.f) v *= 0.5f;
    }
    unsigned b = t16.ballot(v > 0.25f);
    if (t16.all(v >= 0.f) && t16.thread_rank() == 0) out[i / 16] = b | (t16.meta_group_rank() << 16);
}
