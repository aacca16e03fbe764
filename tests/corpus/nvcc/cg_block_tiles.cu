// corpus: -arch=sm_75
// Cooperative groups: thread_block sync, tiled_partition<32>/<16>/<4> sync, shfl, shfl_down, any/all/ballot.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_block_tiles(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    int v = in[block.group_index().x * block.size() + block.thread_rank()];
    s[block.thread_rank()] = v;
    block.sync();
    auto t32 = cg::tiled_partition<32>(block);
    auto t16 = cg::tiled_partition<16>(block);
    auto t4 = cg::tiled_partition<4>(t16);
    int a = t32.shfl(v, 0) + t32.shfl_down(v, 1);
    int b = t16.shfl_xor(v, 3) + t16.shfl_up(v, 2);
    t16.sync();
    int c = t4.shfl(v, 3);
    unsigned bal = t32.ballot(v > 0);
    int any = t16.any(v < 0), all = t4.all(v != 0);
    t32.sync();
    out[block.thread_rank() + block.group_index().x * block.size()] = a + b + c + (int)bal + any + all + s[255 - block.thread_rank()];
}
