// corpus: -arch=sm_90a
// Warp-specialised TMA pipeline with cuda::ptx: one producer thread elected with cg::invoke_one (elect.sync) issues 2-D
// cp.async.bulk.tensor loads onto "full" mbarriers (arrive.expect_tx), consumer warps wait with
// try_wait.parity, release the stage on an "empty" mbarrier; results leave through a TMA store
// (fence.proxy.async.shared::cta, cp.async.bulk.tensor store, commit_group, wait_group.read).
#include <cuda.h>
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

constexpr int STAGES = 3, TILE_M = 32, TILE_N = 32, CONSUMERS = 128;

__device__ __forceinline__ void wait_parity(uint64_t *bar, uint32_t parity)
{
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) { }
}

extern "C" __global__ void __launch_bounds__(CONSUMERS + 32)
tma_tensor_load_pipeline(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map, int ktiles)
{
    __shared__ alignas(128) float tile[STAGES][TILE_M * TILE_N];
    __shared__ alignas(128) float acc[TILE_M * TILE_N];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    int tid = threadIdx.x;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], CONSUMERS);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (tid >= CONSUMERS) {                      // producer warp
        cg::invoke_one(cg::tiled_partition<32>(cg::this_thread_block()), [&] {   // elect.sync
            for (int k = 0; k < ktiles; ++k) {
                int s = k % STAGES;
                if (k >= STAGES) wait_parity(&empty[s], ((k / STAGES) - 1) & 1);
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                               sizeof(tile[s]));
                int32_t coords[2] = {k * TILE_N, (int)blockIdx.x * TILE_M};
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[s], &in_map, coords, &full[s]);
            }
        });
    } else {                                     // consumer warps
        float sum[8] = {};
        for (int k = 0; k < ktiles; ++k) {
            int s = k % STAGES;
            wait_parity(&full[s], (k / STAGES) & 1);
            for (int j = 0; j < 8; ++j) sum[j] += tile[s][tid * 8 + j];
            (void)ptx::mbarrier_arrive(&empty[s]);
        }
        for (int j = 0; j < 8; ++j) acc[tid * 8 + j] = sum[j];
        ptx::fence_proxy_async(ptx::space_shared);
        asm volatile("bar.sync 1, %0;" :: "n"(CONSUMERS) : "memory");
        if (tid == 0) {
            int32_t coords[2] = {0, (int)blockIdx.x * TILE_M};
            ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out_map, coords, acc);
            ptx::cp_async_bulk_commit_group();
            ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
        }
    }
}
