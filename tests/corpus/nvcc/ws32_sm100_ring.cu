// corpus: -arch=sm_100a
// Blackwell-style warp-specialised ring: warp 0 lane 0 is the producer issuing cp.async.bulk per stage, warps 1..3
// consume with mbarrier.try_wait.parity loops (with a suspend-time hint), ring index and phase bit kept in
// registers; a final block-wide reduction through shared memory.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

constexpr int STAGES = 2;
constexpr int TILE = 2048;

__device__ __forceinline__ void wait_hint(uint64_t *bar, uint32_t parity)
{
    uint32_t addr = (uint32_t)__cvta_generic_to_shared(bar);
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1, %2;\n"
                 "@!p bra WAIT_%=;\n}" ::"r"(addr),
                 "r"(parity), "r"(0x989680));
}

extern "C" __global__ void __launch_bounds__(128) ws_ring_dot(const float *__restrict__ a, const float *__restrict__ b,
                                                              float *__restrict__ out, int tiles)
{
    __shared__ alignas(128) float sa[STAGES][TILE];
    __shared__ alignas(128) float sb[STAGES][TILE];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    __shared__ float part[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], 3);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    float acc = 0.f;
    if (warp == 0 && lane == 0) {
        int stage = 0, phase = 0;
        for (int t = 0; t < tiles; ++t) {
            wait_hint(&empty[stage], phase ^ 1);
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[stage],
                                           2 * TILE * sizeof(float));
            ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, sa[stage], a + (size_t)t * TILE,
                               TILE * sizeof(float), &full[stage]);
            ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, sb[stage], b + (size_t)t * TILE,
                               TILE * sizeof(float), &full[stage]);
            stage = stage + 1 == STAGES ? 0 : stage + 1;
            phase ^= stage == 0;
        }
    } else if (warp > 0) {
        int stage = 0, phase = 0;
        for (int t = 0; t < tiles; ++t) {
            wait_hint(&full[stage], phase);
            for (int i = threadIdx.x - 32; i < TILE; i += 96)
                acc += sa[stage][i] * sb[stage][i];
            __syncwarp();
            if (lane == 0)
                ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &empty[stage]);
            stage = stage + 1 == STAGES ? 0 : stage + 1;
            phase ^= stage == 0;
        }
    }
    for (int o = 16; o; o >>= 1)
        acc += __shfl_xor_sync(~0u, acc, o);
    if (lane == 0)
        part[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[1] + part[2] + part[3];
}
