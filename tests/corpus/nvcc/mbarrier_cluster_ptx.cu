// corpus: -arch=sm_90
// Raw mbarrier operations through cuda::ptx on sm_90: init, arrive with count, cluster-scope release arrive on a
// remote CTA's barrier (mapa + shared::cluster), expect_tx, try_wait.parity with acquire.cluster, test_wait.
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) mbarrier_cluster_ptx(int *out)
{
    __shared__ uint64_t bar;
    __shared__ int val[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 64 + 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cluster.sync();
    // every thread of the peer CTA writes into our val[] and arrives on our barrier
    uint64_t *peer_bar = cluster.map_shared_rank(&bar, rank ^ 1);
    int *peer_val = cluster.map_shared_rank(val, rank ^ 1);
    if (threadIdx.x < 64) {
        peer_val[threadIdx.x] = (int)(rank * 1000 + threadIdx.x);
        ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, peer_bar);
    }
    if (threadIdx.x == 64) {
        uint64_t st = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 1u);
        out[gridDim.x * blockDim.x + blockIdx.x] = ptx::mbarrier_test_wait(&bar, st);
    }
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u)) { }
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x < 64 ? val[threadIdx.x] : 0;
    cluster.sync();
}
