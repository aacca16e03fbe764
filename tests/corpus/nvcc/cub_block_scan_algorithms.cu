// corpus: -arch=sm_75
// cub::BlockScan with each algorithm: RAKING exclusive sum with block aggregate (per-block offsets for a
// two-kernel scan), RAKING_MEMOIZE inclusive max over 4 items per thread, WARP_SCANS exclusive scan with a
// custom operator (segmented sum carried in a flag/value pair).
#include <cub/block/block_scan.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_scan_raking_exclusive(const unsigned *in, unsigned *out, unsigned *block_sums)
{
    using BS = cub::BlockScan<unsigned, 128, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename BS::TempStorage tmp;
    int i = blockIdx.x * 128 + threadIdx.x;
    unsigned v = in[i], agg;
    BS(tmp).ExclusiveSum(v, v, agg);
    out[i] = v;
    if (threadIdx.x == 0) block_sums[blockIdx.x] = agg;
}

extern "C" __global__ void __launch_bounds__(256)
block_scan_memoize_inclusive_max(const int *in, int *out)
{
    using BS = cub::BlockScan<int, 256, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename BS::TempStorage tmp;
    int items[4];
    int base = blockIdx.x * 1024 + threadIdx.x * 4;
#pragma unroll
    for (int k = 0; k < 4; ++k) items[k] = in[base + k];
    BS(tmp).InclusiveScan(items, items, cuda::maximum<>{});
#pragma unroll
    for (int k = 0; k < 4; ++k) out[base + k] = items[k];
}

struct SegPair { int flag; float val; };
struct SegSum {
    __device__ SegPair operator()(const SegPair &a, const SegPair &b) const
    {
        return b.flag ? b : SegPair{a.flag | b.flag, a.val + b.val};
    }
};

extern "C" __global__ void __launch_bounds__(512)
block_scan_warp_scans_segmented(const float *val, const int *head, float *out)
{
    using BS = cub::BlockScan<SegPair, 512, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage tmp;
    int i = blockIdx.x * 512 + threadIdx.x;
    SegPair p{head[i], val[i]}, agg;
    BS(tmp).InclusiveScan(p, p, SegSum(), agg);
    out[i] = p.val;
    if (threadIdx.x == 511 && !agg.flag) out[i] += 0.f;
}
