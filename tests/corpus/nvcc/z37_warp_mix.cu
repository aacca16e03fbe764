// corpus: -arch=sm_80
// Straight-line mixes of warp collectives as kernel authors write them: two independent butterfly
// reductions, a shuffle scan beside a ballot, match + ballot of a bucket key, reduce_sync beside an
// activemask leader, a segmented scan, a broadcast after a reduction (fresh kernels, helper nvsched37).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// two independent butterfly reductions (sum and max) of one value
extern "C" __global__ void z37_sum_max_bfly(const float *__restrict__ x, float *s, float *m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    float a = v, b = v;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        a += __shfl_xor_sync(0xffffffffu, a, o);
        b = fmaxf(b, __shfl_xor_sync(0xffffffffu, b, o));
    }
    if ((threadIdx.x & 31) == 0) { s[i >> 5] = a; m[i >> 5] = b; }
}

// two independent integer reductions written one after the other (not interleaved in source)
extern "C" __global__ void z37_two_sums_seq(const int *__restrict__ x, const int *__restrict__ y, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int a = i < n ? x[i] : 0;
    int b = i < n ? y[i] : 0;
    for (int o = 16; o > 0; o >>= 1) a += __shfl_down_sync(0xffffffffu, a, o);
    for (int o = 16; o > 0; o >>= 1) b += __shfl_down_sync(0xffffffffu, b, o);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = a * b;
}

// inclusive scan by shfl_up plus a ballot of a flag
extern "C" __global__ void z37_scan_ballot(const int *__restrict__ x, int *y, unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? x[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v < 0);
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += t;
    }
    if (i < n) y[i] = v;
    if (lane == 0) flags[i >> 5] = b;
}

// bucket key: match_any peers, ballot of a predicate, leader adds the peer count
extern "C" __global__ void z37_match_ballot(const int *__restrict__ k, int *cnt, unsigned *neg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = k[i] & 63;
    unsigned peers = __match_any_sync(0xffffffffu, key);
    unsigned b = __ballot_sync(0xffffffffu, key > 31);
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(&cnt[key], __popc(peers));
    if ((threadIdx.x & 31) == 0) neg[i >> 5] = b;
}

// guarded reduce_sync with the active mask, leader writes sum and or
extern "C" __global__ void z37_active_sum_or(const unsigned *__restrict__ a, unsigned *s, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = a[i];
        unsigned act = __activemask();
        unsigned t = __reduce_add_sync(act, v);
        unsigned r = __reduce_or_sync(act, v >> 4);
        if ((threadIdx.x & 31) == (unsigned)(__ffs(act) - 1)) { s[i >> 5] = t; o[i >> 5] = r; }
    }
}

// reduction followed by a broadcast from lane 0 and a second reduction of the centred value
extern "C" __global__ void z37_mean_var(const float *__restrict__ x, float *mv, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    float s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    float mean = __shfl_sync(0xffffffffu, s, 0) * (1.0f / 32.0f);
    float d = (v - mean) * (v - mean);
    for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffffu, d, o);
    if ((threadIdx.x & 31) == 0) { mv[2 * (i >> 5)] = mean; mv[2 * (i >> 5) + 1] = d; }
}

// cg tile<16> reduce of two values plus any()
extern "C" __global__ void z37_tile16_two(const int *__restrict__ x, int *out, int *flag, int n)
{
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    int s = cg::reduce(tile, v, cg::plus<int>());
    int m = cg::reduce(tile, v, cg::greater<int>());
    bool any = tile.any(v < 0);
    if (tile.thread_rank() == 0) { out[2 * (i >> 4)] = s; out[2 * (i >> 4) + 1] = m; if (any) atomicAdd(flag, 1); }
}

// warp-aggregated atomic beside a shuffle reduction of a second value
extern "C" __global__ void z37_agg_atomic_shfl(const float *__restrict__ x, int *count, float *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    unsigned b = __ballot_sync(0xffffffffu, v > 0.0f);
    float s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) { atomicAdd(count, __popc(b)); atomicAdd(sum, s); }
}
