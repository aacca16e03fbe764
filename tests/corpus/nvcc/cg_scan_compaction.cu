// corpus: -arch=sm_80
// cooperative_groups scans: cg::exclusive_scan on a 32-thread tile to compact a stream (one atomicAdd per warp
// for the base), cg::inclusive_scan over a coalesced group formed inside a divergent branch, and a
// multi-warp tile (tiled_partition<64> with block_tile_memory scratch) reduce + scan.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(128)
cg_scan_compact(const int *in, int *out, int *count, int n)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * 128 + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int keep = v > 0;
    int pos = cg::exclusive_scan(tile, keep);
    int total = tile.shfl(pos + keep, 31);
    int base = 0;
    if (tile.thread_rank() == 0) base = atomicAdd(count, total);
    base = tile.shfl(base, 0);
    if (keep) out[base + pos] = v;
}

extern "C" __global__ void __launch_bounds__(128)
cg_scan_divergent(const float *in, float *out, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n && in[i] != 0.f) {
        cg::coalesced_group g = cg::coalesced_threads();
        float run = cg::inclusive_scan(g, in[i], cg::plus<float>());
        unsigned mx = cg::inclusive_scan(g, (unsigned)i, cg::greater<unsigned>());
        out[i] = run + (float)(mx - i) + (float)g.size();
    }
}

extern "C" __global__ void __launch_bounds__(256)
cg_large_tile_scan(const int *in, int *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    auto t64 = cg::tiled_partition<64>(block);
    int i = blockIdx.x * 256 + threadIdx.x;
    int v = in[i];
    int s = cg::reduce(t64, v, cg::plus<int>());
    int pre = cg::exclusive_scan(t64, v, cg::plus<int>());
    t64.sync();
    out[i] = pre + (t64.thread_rank() == 0 ? s : 0) + t64.shfl(v, 63);
}
