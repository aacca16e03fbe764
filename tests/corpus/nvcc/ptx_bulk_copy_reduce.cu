// corpus: -arch=sm_90
// Bulk (non-tensor) asynchronous copies and reductions with cuda::ptx: a cluster of 2 CTAs where rank 0
// loads a tile from global (cp.async.bulk onto its mbarrier) and pushes it to its peer's shared memory
// (cp.async.bulk.shared::cluster.shared::cta onto the peer's barrier); both then add their partial sums into
// global memory with cp.reduce.async.bulk .add (u32 / f32 via bulk_group) and wait with wait_group_read.
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

constexpr int N = 256;

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(N)
bulk_push_to_peer(const float *in, float *out_sum, unsigned *counts)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ alignas(128) float tile[N];
    __shared__ alignas(128) float acc[N];
    __shared__ alignas(16) unsigned cnt[4];
    __shared__ uint64_t bar;
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cluster.sync();
    if (threadIdx.x == 0) {
        if (rank == 0) {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + blockIdx.x / 2 * N, sizeof(tile), &bar);
        } else {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, sizeof(tile));
        }
    }
    if (rank == 0) {
        while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) { }
        if (threadIdx.x == 0) {
            float *peer_tile = cluster.map_shared_rank(tile, 1);
            uint64_t *peer_bar = cluster.map_shared_rank(&bar, 1);
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_shared, peer_tile, tile, sizeof(tile), peer_bar);
        }
    } else {
        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u)) { }
    }
    acc[threadIdx.x] = tile[threadIdx.x] * (rank ? -1.f : 1.f);
    if (threadIdx.x < 4) cnt[threadIdx.x] = __popc(__float_as_uint(tile[threadIdx.x]));
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, out_sum, acc, sizeof(acc));
        ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, counts, cnt, sizeof(cnt));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
    cluster.sync();
}

extern "C" __global__ void __launch_bounds__(128)
bulk_store_groups(const int *in, int *out, int64_t *mx, int chunks)
{
    __shared__ alignas(128) int stage[2][128];
    __shared__ alignas(16) int64_t m[2];
    for (int c = 0; c < chunks; ++c) {
        int s = c & 1;
        if (threadIdx.x == 0 && c >= 2) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>());
        __syncthreads();
        int v = in[(size_t)c * 128 + threadIdx.x];
        stage[s][threadIdx.x] = v * v;
        if (threadIdx.x < 2) m[threadIdx.x] = (int64_t)v;
        ptx::fence_proxy_async(ptx::space_shared);
        __syncthreads();
        if (threadIdx.x == 0) {
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + (size_t)c * 128, stage[s], sizeof(stage[s]));
            ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_max, mx, m, sizeof(m));
            ptx::cp_async_bulk_commit_group();
        }
    }
    if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
}
