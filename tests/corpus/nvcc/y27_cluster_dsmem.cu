// corpus: -arch=sm_90
// Thread block clusters: (1) a distributed-shared-memory halo read: each block stages its slice, cluster.sync(),
// then reads its neighbours' edges through map_shared_rank, and a final cluster.sync() before exit; (2) split
// cluster barrier (barrier_arrive / barrier_wait) with local work between; (3) a cluster-wide reduction where
// rank 0 sums every block's partial through DSMEM (cluster dims from __cluster_dims__); (4) a remote mbarrier
// arrive on rank 0's barrier (cuda::ptx mbarrier_arrive with space_cluster) and a cluster-scope parity wait.
#include <cooperative_groups.h>
#include <cuda/ptx>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(256)
y27_cluster_halo(const float *__restrict__ in, float *__restrict__ out, int n)
{
    auto cluster = cg::this_cluster();
    __shared__ float slice[256];
    int g = blockIdx.x * 256 + threadIdx.x;
    slice[threadIdx.x] = g < n ? in[g] : 0.f;
    cluster.sync();
    unsigned rank = cluster.block_rank();
    float left = threadIdx.x > 0 ? slice[threadIdx.x - 1]
               : rank > 0 ? cluster.map_shared_rank(slice, rank - 1)[255] : 0.f;
    float right = threadIdx.x < 255 ? slice[threadIdx.x + 1]
                : rank + 1 < cluster.num_blocks() ? cluster.map_shared_rank(slice, rank + 1)[0] : 0.f;
    if (g < n) out[g] = (left + slice[threadIdx.x] + right) * (1.f / 3.f);
    cluster.sync();
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
y27_cluster_split_barrier(float *__restrict__ data, int iters)
{
    auto cluster = cg::this_cluster();
    __shared__ float buf[128];
    float v = data[blockIdx.x * 128 + threadIdx.x];
    for (int it = 0; it < iters; ++it) {
        buf[threadIdx.x] = v;
        auto token = cluster.barrier_arrive();
        v = v * 0.9f + 0.1f;                          // local work while the other block arrives
        cluster.barrier_wait(std::move(token));
        float *peer = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
        v += peer[127 - threadIdx.x];
        cluster.sync();
    }
    data[blockIdx.x * 128 + threadIdx.x] = v;
}

extern "C" __global__ void __cluster_dims__(8, 1, 1) __launch_bounds__(128)
y27_cluster_reduce(const float *__restrict__ in, float *__restrict__ out)
{
    auto cluster = cg::this_cluster();
    auto block = cg::this_thread_block();
    __shared__ float partial[4];
    float v = in[blockIdx.x * 128 + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x < 32) {
        float s = 0.f;
        unsigned r = threadIdx.x / 4, w = threadIdx.x % 4;
        s = cluster.map_shared_rank(partial, r)[w];
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0) out[blockIdx.x / 8] = s;
    }
    cluster.sync();
    (void)block;
}

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(64)
y27_cluster_remote_arrive(int *__restrict__ out)
{
    auto cluster = cg::this_cluster();
    __shared__ alignas(8) uint64_t bar;
    __shared__ int mailbox[4];
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, cluster.num_blocks());
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cluster.sync();
    if (threadIdx.x == 0) {
        int *box = cluster.map_shared_rank(mailbox, 0);
        box[rank] = (int)(rank * 10 + blockIdx.y);
        uint64_t *remote = cluster.map_shared_rank(&bar, 0);
        ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, remote);
    }
    if (rank == 0) {
        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0)) { }
        if (threadIdx.x < 4) out[blockIdx.x / 4 * 4 + threadIdx.x] = mailbox[threadIdx.x];
    }
    cluster.sync();
}
