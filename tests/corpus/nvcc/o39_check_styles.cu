// corpus: -arch=sm_80
// Check kernels (written after the rule, another style; helper nvsched39, stop 39): cooperative-groups tile
// scans and reductions, CUB WarpScan / WarpReduce, __match_any_sync aggregation, each beside a second collective
// on a value loaded under a bounds test.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

namespace cg = cooperative_groups;

// cg tile inclusive scan of a loaded weight beside a ballot of a loaded mask (segment count per warp)
extern "C" __global__ void o39_check_cg_scan_ballot(const unsigned short* __restrict__ w,
                                                    const unsigned char* __restrict__ keep,
                                                    unsigned* __restrict__ prefix, unsigned* __restrict__ kept,
                                                    int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = i < n ? w[i] : 0u;
    bool k = i < n ? keep[i] != 0 : false;
    unsigned b = tile.ballot(k);
    unsigned s = cg::inclusive_scan(tile, x, cg::plus<unsigned>());
    if (i < n) prefix[i] = s;
    if (tile.thread_rank() == 0) kept[i / 32] = __popc(b);
}

// CUB WarpReduce max beside a WarpScan exclusive sum, 2D indexing
extern "C" __global__ void o39_check_cub_reduce_scan(const float* __restrict__ v, const int* __restrict__ c,
                                                     float* __restrict__ rowmax, int* __restrict__ offs,
                                                     int rows, int cols) {
    typedef cub::WarpReduce<float> WR;
    typedef cub::WarpScan<int> WS;
    __shared__ typename WR::TempStorage tr[4];
    __shared__ typename WS::TempStorage ts[4];
    int warp = threadIdx.y;
    int r = blockIdx.x * blockDim.y + threadIdx.y;
    int col = threadIdx.x;
    bool in = r < rows && col < cols;
    float val = in ? v[r * cols + col] : -1.0e30f;
    int cnt = in ? c[r * cols + col] : 0;
    float m = WR(tr[warp]).Reduce(val, cuda::maximum<>{});
    int off;
    WS(ts[warp]).ExclusiveSum(cnt, off);
    if (in) offs[r * cols + col] = off;
    if (col == 0 && r < rows) rowmax[r] = m;
}

// __match_any_sync aggregation of a bucket beside a hand-written shuffle-xor sum of a loaded weight
extern "C" __global__ void o39_check_match_agg(const int* __restrict__ key, const float* __restrict__ wt,
                                               unsigned* __restrict__ buckets, float* __restrict__ wsum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int bk = -1;
    float x = 0.0f;
    if (i < n) {
        bk = (key[i] * 7) & 127;
        x = wt[i];
    }
    unsigned peers = __match_any_sync(0xffffffffu, bk);
    #pragma unroll
    for (int m = 1; m < 32; m *= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
    int leader = __ffs(peers) - 1;
    if (bk >= 0 && lane == leader) atomicAdd(&buckets[bk], (unsigned)__popc(peers));
    if (lane == 0) wsum[i / 32] = x;
}

// cg reduce of two loaded values (min of one, sum of the other) through tile.shfl loops
extern "C" __global__ void o39_check_cg_two_reduce(const int* __restrict__ a, const int* __restrict__ b,
                                                   int2* __restrict__ out, int n) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lo = 0x7fffffff, sum = 0;
    if (i < n) {
        lo = a[i];
        sum = b[i] + 1;
    }
    for (int o = tile.size() / 2; o > 0; o /= 2) {
        lo = min(lo, tile.shfl_down(lo, o));
        sum += tile.shfl_down(sum, o);
    }
    if (tile.thread_rank() == 0) out[i / 32] = make_int2(lo, sum);
}
