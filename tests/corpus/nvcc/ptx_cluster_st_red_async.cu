// corpus: -arch=sm_90
// Cluster-wide all-to-all with asynchronous remote stores: each CTA of a 4-CTA cluster writes its partial
// results into every peer's shared memory with st.async (and accumulates with red.async .add / .max) that
// complete on the peer's mbarrier (complete_tx), peers wait on their own barrier; getctarank checks where a
// mapped address lives; the split cluster barrier (arrive.release / wait.acquire) guards the exit.
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128)
cluster_all_to_all_async(const int *in, int *out, unsigned *where)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ alignas(16) int inbox[4][32];
    __shared__ int total;
    __shared__ unsigned peak;
    __shared__ uint64_t bar;
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        total = 0;
        peak = 0;
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    ptx::barrier_cluster_arrive(ptx::sem_relaxed);
    ptx::barrier_cluster_wait();
    // bytes that will land here: 3 peers x (32 ints + 1 add + 1 max)
    if (threadIdx.x == 0)
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, 3 * (32 * 4 + 8));
    int v = in[blockIdx.x * 128 + threadIdx.x];
    if (threadIdx.x < 96) {
        unsigned peer = (rank + 1 + threadIdx.x / 32) & 3;
        int lane = threadIdx.x & 31;
        int *dst = cluster.map_shared_rank(&inbox[rank][lane], peer);
        uint64_t *pbar = cluster.map_shared_rank(&bar, peer);
        ptx::st_async(dst, v, pbar);
        if (lane == 0) {
            ptx::red_async(ptx::op_add, cluster.map_shared_rank(&total, peer), v, pbar);
            ptx::red_async(ptx::op_max, cluster.map_shared_rank(&peak, peer), (unsigned)v, pbar);
            where[blockIdx.x * 4 + peer] = ptx::getctarank(ptx::space_cluster, dst);
        }
    }
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u)) { }
    if (threadIdx.x < 128) {
        int s = 0;
        for (int r = 0; r < 4; ++r) if (r != (int)rank) s += inbox[r][threadIdx.x & 31];
        out[blockIdx.x * 128 + threadIdx.x] = s + total + (int)peak;
    }
    ptx::barrier_cluster_arrive(ptx::sem_release);
    ptx::barrier_cluster_wait(ptx::sem_acquire);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(64)
cluster_st_async_vectors(const float *in, float *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ alignas(16) float box[64 * 4];
    __shared__ uint64_t bar;
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cluster.sync();
    if (threadIdx.x == 0)
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, sizeof(box));
    const float *p = in + (blockIdx.x * 64 + threadIdx.x) * 4;
    float a[2] = {p[0], p[1]};
    uint32_t b[4] = {__float_as_uint(p[2]), __float_as_uint(p[3]), 0u, rank};
    uint64_t *pbar = cluster.map_shared_rank(&bar, rank ^ 1);
    ptx::st_async(cluster.map_shared_rank(&box[threadIdx.x * 2], rank ^ 1), a, pbar);
    ptx::st_async(reinterpret_cast<uint32_t *>(cluster.map_shared_rank(&box[128 + threadIdx.x * 2 + (threadIdx.x & ~1)], rank ^ 1)) , b, pbar);
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u)) { }
    out[blockIdx.x * 64 + threadIdx.x] = box[threadIdx.x] + box[128 + threadIdx.x];
    cluster.sync();
}
