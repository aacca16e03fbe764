// corpus: -arch=sm_80
// Check kernels (written after the rule, another style): grid-stride loops and cooperative-groups code whose
// atomics ptxas aggregates itself -- per-lane bit flags, popcounts of ballots, counter-derived values
// (helper nvvote38, stop 38).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// bitmap of seen keys: each matching thread ORs its own bit into the word of its block
extern "C" __global__ void z38_check_bitmap(const int *__restrict__ keys, unsigned *bitmap, int n, int want)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (keys[i] == want)
            atomicOr(&bitmap[i >> 5], 1u << (i & 31));
    }
}

// per-warp tile of a thread_block_tile<32>: the tile's leader adds the popcount of the ballot
extern "C" __global__ void z38_check_tile_votes(const float *__restrict__ a, unsigned *hits, float lo, float hi, int n)
{
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
    int i = blk.group_index().x * blk.size() + blk.thread_rank();
    float v = i < n ? a[i] : lo - 1.0f;
    unsigned in = tile.ballot(v >= lo && v < hi);
    unsigned above = tile.ballot(v >= hi);
    if (tile.thread_rank() == 0) {
        atomicAdd(&hits[0], (unsigned)__popc(in));
        atomicAdd(&hits[1], (unsigned)__popc(above));
    }
}

// sparse rows: each thread walks its row and bumps a column counter with a weight from the row position
extern "C" __global__ void z38_check_row_walk(const int *__restrict__ rowptr, const int *__restrict__ col,
                                              unsigned long long *acc, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int b = rowptr[r], e = rowptr[r + 1];
    for (int k = b; k < e; ++k) {
        unsigned w = (unsigned)(k - b) * 2654435761u;
        atomicAdd(&acc[col[k] & 1023], (unsigned long long)(w >> 20));
        atomicMax((int *)&acc[1024], k - b);
    }
}

// flags from a status word: threads with an error set bits, the min failing index is kept
extern "C" __global__ void z38_check_status(const unsigned *__restrict__ status, unsigned *errs, int *first, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned s = status[i];
        if (s & 0xff00u) {
            atomicOr(errs, (s >> 8) & 0xffu);
            atomicMin(first, i);
        }
    }
}
