// corpus: -arch=sm_75
// cooperative_groups::labeled_partition (match.any on the label, per-label coalesced groups) and
// binary_partition of a tile by a predicate, each followed by cg::reduce over the resulting coalesced
// group and a leader (thread_rank 0) doing one global atomic per group: a per-key accumulation.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256)
cg_labeled_accumulate(const int *bucket, const float *w, float *acc)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * 256 + threadIdx.x;
    int b = bucket[i];
    cg::coalesced_group same = cg::labeled_partition(tile, b);
    float s = cg::reduce(same, w[i], cg::plus<float>());
    if (same.thread_rank() == 0) atomicAdd(&acc[b], s);
}

extern "C" __global__ void __launch_bounds__(128)
cg_binary_partition_counts(const float *x, float threshold, unsigned *above, unsigned *below, int n)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i >= n) return;
    cg::coalesced_group active = cg::coalesced_threads();
    bool big = x[i] > threshold;
    cg::coalesced_group side = cg::binary_partition(active, big);
    unsigned cnt = cg::reduce(side, 1u, cg::plus<unsigned>());
    if (side.thread_rank() == 0) atomicAdd(big ? above : below, cnt);
    auto half = cg::binary_partition(tile, (tile.thread_rank() & 1) != 0);
    half.sync();
}
