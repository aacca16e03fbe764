// corpus: -arch=sm_90a
// cp.async.bulk.tensor in tile mode across ranks with cuda::ptx: 1-D, 3-D and 5-D loads onto one mbarrier
// (arrive_expect_tx for the summed bytes), a 3-D tensor store and a 2-D cp.reduce.async.bulk.tensor .add back
// to global (bulk_group commit / wait_group.read), and a 2-CTA cluster where each CTA loads half of a tile and
// multicasts it to both CTAs (.multicast::cluster, ctaMask 0b11, sm_90a).
#include <cuda.h>
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(128)
tensor_tile_ranks(const __grid_constant__ CUtensorMap m1, const __grid_constant__ CUtensorMap m3,
                  const __grid_constant__ CUtensorMap m5, const __grid_constant__ CUtensorMap out3,
                  const __grid_constant__ CUtensorMap acc2)
{
    __shared__ alignas(128) float a[256];
    __shared__ alignas(128) float b[4][8][16];
    __shared__ alignas(128) float c[2][2][2][4][16];
    __shared__ uint64_t bar;
    int x = blockIdx.x * 16, y = blockIdx.y * 8;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                       sizeof(a) + sizeof(b) + sizeof(c));
        int32_t c1[1] = {(int32_t)(blockIdx.x * 256)};
        int32_t c3[3] = {x, y, (int32_t)blockIdx.z * 4};
        int32_t c5[5] = {x, 0, 0, 0, (int32_t)blockIdx.z};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, a, &m1, c1, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, b, &m3, c3, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, c, &m5, c5, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) { }
    float *bf = &b[0][0][0], *cf = &c[0][0][0][0][0];
    for (int i = threadIdx.x; i < 512; i += 128) bf[i] = bf[i] * a[i & 255] + cf[i];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        int32_t c3[3] = {x, y, (int32_t)blockIdx.z * 4};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out3, c3, b);
        int32_t c2[2] = {x, y};
        ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &acc2, c2, cf);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
tensor_multicast_pair(const __grid_constant__ CUtensorMap map, float *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ alignas(128) float tile[64][32];
    __shared__ uint64_t bar;
    unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cluster.sync();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        int32_t crd[2] = {0, (int32_t)(blockIdx.x / 2 * 64 + rank * 32)};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[rank * 32][0], &map, crd, &bar,
                                  (uint16_t)0x3);
    }
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u)) { }
    float s = 0.f;
    for (int r = 0; r < 64; ++r) s += tile[r][threadIdx.x & 31];
    out[blockIdx.x * 128 + threadIdx.x] = s;
    cluster.sync();
}
