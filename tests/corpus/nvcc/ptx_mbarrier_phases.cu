// corpus: -arch=sm_90
// An mbarrier-based double-buffered block exchange written with cuda::ptx (sm_90 forms): mbarrier_init +
// fence_mbarrier_init, arrives that return the phase state (release.cta) and a producer warp that arms the
// transaction count with mbarrier_expect_tx then arrives; consumers wait with try_wait carrying a suspend-time
// hint, test_wait_parity polling with __nanosleep, and relaxed try_wait_parity (PTX 8.6 forms).
#include <cuda/ptx>
namespace ptx = cuda::ptx;

extern "C" __global__ void __launch_bounds__(128)
mbarrier_phase_ring(const float *in, float *out, int rounds)
{
    __shared__ uint64_t ready[2], done[2];
    __shared__ float buf[2][128];
    int tid = threadIdx.x;
    if (tid == 0) {
        for (int s = 0; s < 2; ++s) {
            ptx::mbarrier_init(&ready[s], 32);
            ptx::mbarrier_init(&done[s], 96);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    float acc = 0.f;
    for (int r = 0; r < rounds; ++r) {
        int s = r & 1;
        uint32_t parity = (r >> 1) & 1;
        if (tid < 32) {                       // producer warp
            if (r >= 2)
                while (!ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cta, &done[s], parity ^ 1)) { }
            for (int k = tid; k < 128; k += 32) buf[s][k] = in[(size_t)r * 128 + k];
            ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &ready[s]);
        } else {                              // consumer warps
            while (!ptx::mbarrier_test_wait_parity(&ready[s], parity)) __nanosleep(32);
            acc += buf[s][tid] + buf[s][tid - 32];
            uint64_t st = ptx::mbarrier_arrive(&done[s]);
            (void)st;
        }
    }
    if (tid >= 32) out[blockIdx.x * 96 + tid - 32] = acc;
}

extern "C" __global__ void __launch_bounds__(64)
mbarrier_tx_count_handoff(const int4 *in, int4 *out)
{
    __shared__ alignas(16) int4 buf[64];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    uint64_t state = 0;
    if (threadIdx.x == 0) {
        ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(buf));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, in + blockIdx.x * 64, sizeof(buf), &bar);
        state = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
    }
    state = __shfl_sync(0xffffffff, state, 0);
    if (threadIdx.x < 32) {
        while (!ptx::mbarrier_try_wait(&bar, state, 1000000u)) { }
    } else {
        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u, 1000000u)) { }
    }
    int4 v = buf[threadIdx.x];
    out[blockIdx.x * 64 + threadIdx.x] = make_int4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}
