// corpus: -arch=sm_80
// cooperative_groups thread_block split barrier (barrier_arrive / barrier_wait) and cg::memcpy_async with
// cg::wait_prior / cg::wait on a thread_block.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_block_split_barrier(const int *in, int *out)
{
    __shared__ int a[256], b[256];
    auto block = cg::this_thread_block();
    a[block.thread_rank()] = in[block.group_index().x * 256 + block.thread_rank()];
    auto token = block.barrier_arrive();
    int independent = (int)block.thread_rank() * 5;
    block.barrier_wait(std::move(token));
    out[block.group_index().x * 256 + block.thread_rank()] = a[255 - block.thread_rank()] + independent;
}

extern "C" __global__ void cg_memcpy_async_wait(const int *in, int *out, int tiles)
{
    __shared__ int buf[2][256];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, buf[0], in, sizeof(int) * 256);
    int acc = 0;
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            cg::memcpy_async(block, buf[(t + 1) & 1], in + (t + 1) * 256, sizeof(int) * 256);
            cg::wait_prior<1>(block);
        } else {
            cg::wait(block);
        }
        acc += buf[t & 1][255 - block.thread_rank()];
        block.sync();
    }
    out[block.thread_rank()] = acc;
}
