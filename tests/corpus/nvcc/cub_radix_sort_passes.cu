// corpus: -arch=sm_75
// One LSD radix-sort pass written with CUB block primitives (the classic upsweep / scan / downsweep split):
// upsweep counts 4-bit digits of each tile into shared bins (shared atomics, __syncthreads) and writes the
// per-tile digit counts; downsweep ranks the tile's keys with cub::BlockRadixRank, scans the digit counts,
// exchanges keys+values into rank order in shared memory and scatters them to their global offsets.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_scan.cuh>

constexpr int THREADS = 128, KEYS = 4, TILE = THREADS * KEYS, BITS = 4, BINS = 1 << BITS;

extern "C" __global__ void __launch_bounds__(THREADS)
radix_upsweep(const unsigned *keys, unsigned *tile_counts, int n, int shift)
{
    __shared__ unsigned bins[BINS];
    if (threadIdx.x < BINS) bins[threadIdx.x] = 0;
    __syncthreads();
    int base = blockIdx.x * TILE;
    for (int k = 0; k < KEYS; ++k) {
        int i = base + k * THREADS + threadIdx.x;
        if (i < n) atomicAdd(&bins[(keys[i] >> shift) & (BINS - 1)], 1u);
    }
    __syncthreads();
    if (threadIdx.x < BINS) tile_counts[threadIdx.x * gridDim.x + blockIdx.x] = bins[threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(THREADS)
radix_downsweep(const unsigned *keys_in, const int *vals_in, unsigned *keys_out, int *vals_out,
                const unsigned *digit_offsets, int shift)
{
    using Rank = cub::BlockRadixRank<THREADS, BITS, false>;
    using Scan = cub::BlockScan<int, THREADS>;
    __shared__ union {
        typename Rank::TempStorage rank;
        unsigned keys[TILE];
        int vals[TILE];
    } tmp;
    __shared__ int digit_start[BINS], digit_count[BINS];
    __shared__ typename Scan::TempStorage scan;
    unsigned k[KEYS];
    int v[KEYS], r[KEYS];
    int base = blockIdx.x * TILE;
    cub::LoadDirectBlocked(threadIdx.x, keys_in + base, k);
    cub::LoadDirectBlocked(threadIdx.x, vals_in + base, v);
    if (threadIdx.x < BINS) digit_count[threadIdx.x] = 0;
    __syncthreads();
    for (int j = 0; j < KEYS; ++j) atomicAdd(&digit_count[(k[j] >> shift) & (BINS - 1)], 1);
    __syncthreads();
    Rank(tmp.rank).RankKeys(k, r, cub::BFEDigitExtractor<unsigned>(shift, BITS));
    int cnt = threadIdx.x < BINS ? digit_count[threadIdx.x] : 0, excl;
    Scan(scan).ExclusiveSum(cnt, excl);
    if (threadIdx.x < BINS) digit_start[threadIdx.x] = excl;
    __syncthreads();
    for (int j = 0; j < KEYS; ++j) tmp.keys[r[j]] = k[j];
    __syncthreads();
    for (int j = threadIdx.x; j < TILE; j += THREADS) {
        unsigned key = tmp.keys[j];
        int d = (key >> shift) & (BINS - 1);
        keys_out[digit_offsets[d * gridDim.x + blockIdx.x] + j - digit_start[d]] = key;
    }
    __syncthreads();
    for (int j = 0; j < KEYS; ++j) tmp.vals[r[j]] = v[j];
    __syncthreads();
    for (int j = threadIdx.x; j < TILE; j += THREADS) {
        unsigned key = keys_in[base + j];
        (void)key;
        int d = 0;
        for (int b = 0; b < BINS; ++b) if (j >= digit_start[b]) d = b;
        vals_out[digit_offsets[d * gridDim.x + blockIdx.x] + j - digit_start[d]] = tmp.vals[j];
    }
}
