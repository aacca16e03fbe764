// corpus: -arch=sm_100a
// Blackwell-only forms: a persistent kernel that steals work with cluster launch control
// (clusterlaunchcontrol.try_cancel onto an mbarrier, query_cancel.is_canceled / get_first_ctaid), and a
// tensor-memory round trip (tcgen05.alloc / relinquish_alloc_permit, tcgen05.st + wait::st, tcgen05.ld +
// wait::ld, tcgen05.fence before/after thread sync around __syncthreads, tcgen05.commit onto an mbarrier,
// tcgen05.dealloc).
#include <cuda/ptx>
namespace ptx = cuda::ptx;

extern "C" __global__ void __launch_bounds__(128)
clc_persistent_axpy(float a, const float *x, float *y, int n)
{
    __shared__ alignas(16) uint4 response;
    __shared__ uint64_t bar;
    __shared__ int next_block;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    int block = blockIdx.x;
    uint32_t phase = 0;
    while (true) {
        int i = block * 128 + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
        if (threadIdx.x == 0) {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 16);
            ptx::clusterlaunchcontrol_try_cancel(&response, &bar);
            while (!ptx::mbarrier_try_wait_parity(&bar, phase)) { }
            uint4 r = response;
            next_block = ptx::clusterlaunchcontrol_query_cancel_is_canceled(r)
                             ? (int)ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(r) : -1;
        }
        phase ^= 1;
        __syncthreads();
        block = next_block;
        __syncthreads();
        if (block < 0) break;
    }
}

extern "C" __global__ void __launch_bounds__(128)
tcgen05_tmem_roundtrip(const uint32_t *in, uint32_t *out)
{
    __shared__ uint32_t tmem_base;
    __shared__ uint64_t bar;
    int warp = threadIdx.x / 32;
    if (warp == 0) {
        ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base, 32u);
        ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
    if (threadIdx.x == 32) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    uint32_t taddr = tmem_base + ((uint32_t)(warp * 32) << 16);
    uint32_t v[4];
    for (int k = 0; k < 4; ++k) v[k] = in[(blockIdx.x * 128 + threadIdx.x) * 4 + k];
    ptx::tcgen05_st_32x32b(taddr, v);
    ptx::tcgen05_wait_st();
    uint32_t r[4];
    ptx::tcgen05_ld_32x32b(r, taddr);
    ptx::tcgen05_wait_ld();
    for (int k = 0; k < 4; ++k) out[(blockIdx.x * 128 + threadIdx.x) * 4 + k] = r[k] ^ v[3 - k];
    if (threadIdx.x == 0) ptx::tcgen05_commit(ptx::cta_group_1, &bar);
    while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) { }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    if (warp == 0) ptx::tcgen05_dealloc(ptx::cta_group_1, tmem_base, 32u);
}
