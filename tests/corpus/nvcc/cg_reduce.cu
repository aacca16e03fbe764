// corpus: -arch=sm_80
// cooperative_groups::reduce on tiles (redux.sync for int plus/less/greater/bit ops; shuffles for float) and
// cg::inclusive_scan.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const int *in, const float *fin, int *out, float *fout)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    auto tile8 = cg::tiled_partition<8>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = in[i];
    out[i * 5 + 0] = cg::reduce(warp, v, cg::plus<int>());
    out[i * 5 + 1] = cg::reduce(warp, v, cg::less<int>());
    out[i * 5 + 2] = cg::reduce(tile8, (unsigned)v, cg::bit_xor<unsigned>());
    out[i * 5 + 3] = cg::inclusive_scan(warp, v);
    out[i * 5 + 4] = cg::exclusive_scan(tile8, v, cg::greater<int>());
    fout[i] = cg::reduce(warp, fin[i], cg::plus<float>());
}
