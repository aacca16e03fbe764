// corpus: -arch=sm_90
// Non-tensor bulk copies (cp.async.bulk) with cuda::ptx: global->shared onto an mbarrier with expect_tx,
// mbarrier.try_wait on the returned state, then shared->global bulk store with bulk_group commit/wait.
#include <cuda/ptx>
namespace ptx = cuda::ptx;

extern "C" __global__ void __launch_bounds__(256) bulk_copy_mbarrier(const int4 *in, int4 *out)
{
    __shared__ alignas(16) int4 buf[256];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, blockDim.x);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    uint64_t state;
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, in + blockIdx.x * 256, sizeof(buf), &bar);
        state = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(buf));
    } else {
        state = ptx::mbarrier_arrive(&bar);
    }
    while (!ptx::mbarrier_try_wait(&bar, state)) { }
    int4 v = buf[255 - threadIdx.x];
    buf[255 - threadIdx.x] = make_int4(v.w, v.z, v.y, v.x);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + blockIdx.x * 256, buf, sizeof(buf));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
    }
}
