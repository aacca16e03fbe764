// corpus: -arch=sm_90
// Thread-block clusters through cooperative_groups: cg::this_cluster() with a compile-time __cluster_dims__,
// each block stages its tile in shared memory, cluster.sync(), reads its neighbours' edge cells through
// cluster.map_shared_rank (distributed shared memory) for a 1-D stencil, and a split cluster barrier
// (barrier_arrive / barrier_wait) keeps the shared memory alive until every block has read it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int TILE = 256;

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(TILE)
cluster_halo_stencil(const float *in, float *out, int n)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ float tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.f;
    cluster.sync();
    unsigned rank = cluster.block_rank(), nb = cluster.num_blocks();
    float left, right;
    if (threadIdx.x == 0) {
        float *nbr = rank > 0 ? cluster.map_shared_rank(tile, rank - 1) : nullptr;
        left = nbr ? nbr[TILE - 1] : (i > 0 ? in[i - 1] : 0.f);
    } else left = tile[threadIdx.x - 1];
    if (threadIdx.x == TILE - 1) {
        float *nbr = rank + 1 < nb ? cluster.map_shared_rank(tile, rank + 1) : nullptr;
        right = nbr ? nbr[0] : (i + 1 < n ? in[i + 1] : 0.f);
    } else right = tile[threadIdx.x + 1];
    if (i < n) out[i] = 0.25f * left + 0.5f * tile[threadIdx.x] + 0.25f * right;
    cluster.barrier_arrive();
    cluster.barrier_wait();
}

extern "C" __global__ void __launch_bounds__(128)
cluster_reduce_runtime_dims(const int *in, int *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ int sum;
    if (threadIdx.x == 0) sum = 0;
    cluster.sync();
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int *leader_sum = cluster.map_shared_rank(&sum, 0);
    atomicAdd(leader_sum, v);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0)
        out[blockIdx.x / cluster.dim_blocks().x] = sum;
}
