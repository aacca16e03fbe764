// corpus: -arch=sm_75
// cub::BlockDiscontinuity: head flags with the predecessor item of the previous tile (run starts for a
// run-length encoder; counts with BlockScan), and heads-and-tails flags over a sorted key tile for a
// segment-boundary pass.
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

extern "C" __global__ void __launch_bounds__(128)
rle_run_heads(const int *keys, int *run_keys, int *num_runs_per_tile)
{
    using Disc = cub::BlockDiscontinuity<int, 128>;
    using Scan = cub::BlockScan<int, 128>;
    __shared__ union { typename Disc::TempStorage d; typename Scan::TempStorage s; } tmp;
    int k[4], flag[4], pos[4];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k);
    if (blockIdx.x == 0) Disc(tmp.d).FlagHeads(flag, k, cuda::std::not_equal_to<>{});
    else Disc(tmp.d).FlagHeads(flag, k, cuda::std::not_equal_to<>{}, keys[base - 1]);
    __syncthreads();
    int total;
    Scan(tmp.s).ExclusiveSum(flag, pos, total);
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (flag[i]) run_keys[base + pos[i]] = k[i];
    if (threadIdx.x == 0) num_runs_per_tile[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(256)
segment_heads_and_tails(const unsigned *sorted, unsigned char *head, unsigned char *tail, int tiles)
{
    using Disc = cub::BlockDiscontinuity<unsigned, 256>;
    __shared__ typename Disc::TempStorage tmp;
    unsigned k[2];
    int hf[2], tf[2];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, sorted + base, k);
    if (blockIdx.x + 1 < tiles && blockIdx.x > 0)
        Disc(tmp).FlagHeadsAndTails(hf, sorted[base - 1], tf, sorted[base + 512], k, cuda::std::not_equal_to<>{});
    else
        Disc(tmp).FlagHeadsAndTails(hf, tf, k, cuda::std::not_equal_to<>{});
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        head[base + threadIdx.x * 2 + i] = hf[i];
        tail[base + threadIdx.x * 2 + i] = tf[i];
    }
}
