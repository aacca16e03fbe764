// corpus: -arch=sm_90a
// Warp-specialised producer/consumer over a ring of STAGES shared buffers, written the way people write it with
// cuda::ptx: warp 0's elected lane issues cp.async.bulk global->shared into stage s after waiting on empty[s];
// consumer warps wait on full[s] with a try_wait.parity spin loop, compute, and arrive on empty[s]. The ring index
// and the phase bit flip when the index wraps.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

constexpr int STAGES = 4;
constexpr int TILE = 1024; // floats per stage

__device__ __forceinline__ void wait_parity(uint64_t *bar, uint32_t parity)
{
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
    }
}

extern "C" __global__ void __launch_bounds__(160)
ws_bulk_ring_sum(const float *__restrict__ in, float *__restrict__ out, int tiles)
{
    __shared__ alignas(128) float buf[STAGES][TILE];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int consumers = blockDim.x / 32 - 1;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], consumers);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0) {
            int stage = 0;
            uint32_t phase = 0;
            for (int t = 0; t < tiles; ++t) {
                wait_parity(&empty[stage], phase ^ 1);
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[stage],
                                               TILE * sizeof(float));
                ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[stage], in + (size_t)t * TILE,
                                   TILE * sizeof(float), &full[stage]);
                if (++stage == STAGES) {
                    stage = 0;
                    phase ^= 1;
                }
            }
        }
    } else {
        int stage = 0;
        uint32_t phase = 0;
        float acc = 0.f;
        for (int t = 0; t < tiles; ++t) {
            wait_parity(&full[stage], phase);
            for (int i = (warp - 1) * 32 + lane; i < TILE; i += consumers * 32)
                acc += buf[stage][i];
            __syncwarp();
            if (lane == 0)
                ptx::mbarrier_arrive(&empty[stage]);
            if (++stage == STAGES) {
                stage = 0;
                phase ^= 1;
            }
        }
        atomicAdd(out, acc);
    }
}
