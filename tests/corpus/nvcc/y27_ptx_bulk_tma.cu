// corpus: -arch=sm_90a
// cuda::ptx wrappers as in the CCCL examples: (1) 1-D cp.async.bulk of a row into shared memory, one elected
// lane (elect.sync as cute::elect_one_sync writes it) arms the mbarrier with arrive_expect_tx, everyone waits with mbarrier_try_wait on the
// arrive token; bulk store back with fence_proxy_async + commit/wait_group; (2) a 2-D TMA tile loop
// (CUtensorMap as __grid_constant__) re-using one mbarrier phase after phase with try_wait_parity;
// (3) a 2-stage TMA ring where thread 0 issues while all threads wait, with the tx count carried by
// mbarrier_expect_tx and a plain arrive.
#include <cuda.h>
#include <cuda/ptx>
#include <cuda/barrier>
namespace ptx = cuda::ptx;

__device__ __forceinline__ bool elect_one()
{
    uint32_t pred = 0;                          // cute::elect_one_sync
    asm volatile("{\n .reg .b32 %%rx;\n .reg .pred %%px;\n elect.sync %%rx|%%px, %1;\n @%%px mov.s32 %0, 1;\n}\n"
                 : "+r"(pred) : "r"(0xffffffffu));
    return pred != 0;
}

extern "C" __global__ void __launch_bounds__(128)
y27_bulk_row_scale(const float *__restrict__ in, float *__restrict__ out, float k)
{
    __shared__ alignas(128) float row[1024];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, blockDim.x);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    const float *src = in + (size_t)blockIdx.x * 1024;
    uint64_t token;
    if (threadIdx.x < 32 && elect_one()) {
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, row, src, sizeof(row), &bar);
        token = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(row));
    } else {
        token = ptx::mbarrier_arrive(&bar);
    }
    while (!ptx::mbarrier_try_wait(&bar, token)) { }
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) row[i] *= k;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + (size_t)blockIdx.x * 1024, row, sizeof(row));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

extern "C" __global__ void __launch_bounds__(256)
y27_tma_tile_loop(const __grid_constant__ CUtensorMap map, float *__restrict__ colsum, int ktiles)
{
    __shared__ alignas(128) float tile[64 * 32];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    float acc = 0.f;
    for (int k = 0; k < ktiles; ++k) {
        if (threadIdx.x == 0) {
            int32_t coords[2] = {(int)blockIdx.x * 32, k * 64};
            ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &map, coords, &bar);
            (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        }
        while (!ptx::mbarrier_try_wait_parity(&bar, k & 1)) { }
        if (threadIdx.x < 32)
            for (int r = 0; r < 64; ++r) acc += tile[r * 32 + threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.x < 32) colsum[blockIdx.x * 32 + threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(128)
y27_tma_two_stage(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap out_map, int ktiles)
{
    __shared__ alignas(128) float tile[2][32 * 32];
    __shared__ alignas(128) float res[32 * 32];
    __shared__ alignas(8) uint64_t full[2];
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&full[0], 1);
        ptx::mbarrier_init(&full[1], 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    auto issue = [&](int k) {
        int s = k & 1;
        ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &full[s], sizeof(tile[s]));
        int32_t coords[2] = {k * 32, (int)blockIdx.x * 32};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[s], &map, coords, &full[s]);
        (void)ptx::mbarrier_arrive(&full[s]);
    };
    if (threadIdx.x == 0) issue(0);
    float acc[8] = {};
    for (int k = 0; k < ktiles; ++k) {
        if (threadIdx.x == 0 && k + 1 < ktiles) issue(k + 1);
        while (!ptx::mbarrier_try_wait_parity(&full[k & 1], (k >> 1) & 1)) { }
        for (int j = 0; j < 8; ++j) acc[j] += tile[k & 1][threadIdx.x * 8 + j];
        __syncthreads();
    }
    for (int j = 0; j < 8; ++j) res[threadIdx.x * 8 + j] = acc[j];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        int32_t coords[2] = {0, (int)blockIdx.x * 32};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out_map, coords, res);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
