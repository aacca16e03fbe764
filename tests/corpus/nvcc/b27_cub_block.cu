// corpus: -arch=sm_75
// CUB block collectives as applications use them: BlockReduce with WARP_REDUCTIONS / RAKING /
// RAKING_COMMUTATIVE_ONLY, BlockScan WARP_SCANS and RAKING_MEMOIZE with a running prefix over tiles, a
// BlockRadixSort of key/value pairs, BlockHistogram (atomic and sort), BlockExchange striped<->blocked,
// BlockDiscontinuity head flags into a segmented count, BlockAdjacentDifference.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128) b27_cub_reduce_warp(const float *in, float *out)
{
    using R = cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename R::TempStorage tmp;
    float v[4];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 512, v);
    float s = R(tmp).Sum(v);
    __syncthreads();
    float m = R(tmp).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x == 0) { out[2 * blockIdx.x] = s; out[2 * blockIdx.x + 1] = m; }
}

extern "C" __global__ void __launch_bounds__(256) b27_cub_reduce_raking(const int *in, int *out, int valid)
{
    using R = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename R::TempStorage tmp;
    int v = threadIdx.x < valid ? in[blockIdx.x * 256 + threadIdx.x] : 0;
    int s = R(tmp).Sum(v, valid);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(256) b27_cub_reduce_commutative(const unsigned *in, unsigned *out)
{
    using R = cub::BlockReduce<unsigned, 256, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename R::TempStorage tmp;
    unsigned v = in[blockIdx.x * 256 + threadIdx.x];
    unsigned s = R(tmp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

struct RunningPrefix {
    int total;
    __device__ RunningPrefix(int t) : total(t) {}
    __device__ int operator()(int block_aggregate) { int old = total; total += block_aggregate; return old; }
};

extern "C" __global__ void __launch_bounds__(128) b27_cub_scan_tiles(const int *in, int *out, int tiles)
{
    using S = cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename S::TempStorage tmp;
    RunningPrefix pre(0);
    for (int t = 0; t < tiles; ++t) {
        int idx = (blockIdx.x * tiles + t) * 128 + threadIdx.x;
        int v = in[idx];
        S(tmp).ExclusiveSum(v, v, pre);
        __syncthreads();
        out[idx] = v;
    }
}

extern "C" __global__ void __launch_bounds__(64) b27_cub_scan_memoize(const float *in, float *out)
{
    using S = cub::BlockScan<float, 64, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename S::TempStorage tmp;
    float v[4];
    cub::LoadDirectStriped<64>(threadIdx.x, in + blockIdx.x * 256, v);
    float agg;
    S(tmp).InclusiveScan(v, v, cuda::maximum<>{}, agg);
    cub::StoreDirectStriped<64>(threadIdx.x, out + blockIdx.x * 256, v);
    if (threadIdx.x == 0) out[gridDim.x * 256 + blockIdx.x] = agg;
}

extern "C" __global__ void __launch_bounds__(128) b27_cub_radix_pairs(unsigned *keys, int *vals)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    int v[4];
    cub::LoadDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::LoadDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 512, v);
    Sort(tmp).SortDescendingBlockedToStriped(k, v);
    cub::StoreDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::StoreDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 512, v);
}

extern "C" __global__ void __launch_bounds__(128) b27_cub_histo_atomic(const unsigned char *in, unsigned *hist)
{
    using H = cub::BlockHistogram<unsigned char, 128, 8, 256, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned smem_hist[256];
    unsigned char s[8];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 1024, s);
    H(tmp).Histogram(s, smem_hist);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128) atomicAdd(&hist[b], smem_hist[b]);
}

extern "C" __global__ void __launch_bounds__(128) b27_cub_histo_sort(const unsigned char *in, unsigned *hist)
{
    using H = cub::BlockHistogram<unsigned char, 128, 4, 64, cub::BLOCK_HISTO_SORT>;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned smem_hist[64];
    unsigned char s[4];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 512, s);
    for (int i = 0; i < 4; ++i) s[i] &= 63;
    H(tmp).InitHistogram(smem_hist);
    __syncthreads();
    H(tmp).Composite(s, smem_hist);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], smem_hist[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(256) b27_cub_exchange_segments(const int *in, int *heads_out, int *seg_count)
{
    using Ex = cub::BlockExchange<int, 256, 4>;
    using Disc = cub::BlockDiscontinuity<int, 256>;
    using R = cub::BlockReduce<int, 256>;
    __shared__ union { typename Ex::TempStorage ex; typename Disc::TempStorage disc; typename R::TempStorage red; } tmp;
    int v[4];
    cub::LoadDirectStriped<256>(threadIdx.x, in + blockIdx.x * 1024, v);
    Ex(tmp.ex).StripedToBlocked(v);
    __syncthreads();
    int flags[4];
    Disc(tmp.disc).FlagHeads(flags, v, cuda::std::not_equal_to<>{});
    __syncthreads();
    int c = flags[0] + flags[1] + flags[2] + flags[3];
    int total = R(tmp.red).Sum(c);
    __syncthreads();
    Ex(tmp.ex).BlockedToStriped(flags);
    cub::StoreDirectStriped<256>(threadIdx.x, heads_out + blockIdx.x * 1024, flags);
    if (threadIdx.x == 0) seg_count[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(128) b27_cub_adjdiff(const int *in, int *out)
{
    using AD = cub::BlockAdjacentDifference<int, 128>;
    __shared__ typename AD::TempStorage tmp;
    int v[4], d[4];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 512, v);
    int pred = blockIdx.x > 0 ? in[blockIdx.x * 512 - 1] : 0;
    AD(tmp).SubtractLeft(v, d, cuda::std::minus<>{}, pred);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * 512, d);
}
