// corpus: -arch=sm_90a
// Warp-specialised producer/consumer rings (stages x tile size templates) where consumer warps apply a scale.
// Variants: cuda::ptx wrappers vs raw inline PTX, lane==0 vs elect.sync producers, try_wait vs test_wait loops,
// stage counts 2/3/4, strided vs per-warp tiles.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

template <int STAGES, int TILE>
__device__ void ring_scale_impl(const float *__restrict__ in, float *__restrict__ out, float scale, int tiles)
{
    __shared__ alignas(128) float buf[STAGES][TILE];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int nconsumers = blockDim.x - 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], nconsumers);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0) {
            for (int t = 0; t < tiles; ++t) {
                const int s = t % STAGES;
                const uint32_t ph = (t / STAGES) & 1;
                while (!ptx::mbarrier_try_wait_parity(&empty[s], ph ^ 1)) {
                }
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                               TILE * sizeof(float));
                ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s], in + (size_t)t * TILE,
                                   TILE * sizeof(float), &full[s]);
            }
        }
    } else {
        const int c = threadIdx.x - 32;
        for (int t = 0; t < tiles; ++t) {
            const int s = t % STAGES;
            const uint32_t ph = (t / STAGES) & 1;
            while (!ptx::mbarrier_try_wait_parity(&full[s], ph)) {
            }
            for (int i = c; i < TILE; i += nconsumers)
                out[(size_t)t * TILE + i] = scale * buf[s][i];
            ptx::mbarrier_arrive(&empty[s]);
        }
    }
}

template <int STAGES, int TILE>
__global__ void __launch_bounds__(128) ring_scale(const float *__restrict__ in, float *__restrict__ out, float scale,
                                                  int tiles)
{
    ring_scale_impl<STAGES, TILE>(in, out, scale, tiles);
}

template __global__ void ring_scale<2, 256>(const float *, float *, float, int);
template __global__ void ring_scale<3, 512>(const float *, float *, float, int);
template __global__ void ring_scale<4, 1024>(const float *, float *, float, int);

// raw PTX ring: elect.sync producer, explicit stage/phase counters, test_wait spin for consumers,
// per-warp arrive (lane 0 after __syncwarp), scale applied into a per-thread accumulator, stored at the end.
__device__ __forceinline__ bool elect_one_sync()
{
    uint32_t pred = 0;
    asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\nselp.b32 %0, 1, 0, P;\n}" : "=r"(pred));
    return pred != 0;
}
__device__ __forceinline__ void try_wait_loop(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nTW_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra TW_%=;\n}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}
__device__ __forceinline__ bool test_wait(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{\n.reg .pred p;\nmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.b32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(bar), "r"(parity)
                 : "memory");
    return ok != 0;
}

template <int STAGES, int TILE>
__global__ void ring_raw_accum(const float *__restrict__ in, float *__restrict__ out, float scale, int tiles)
{
    __shared__ alignas(128) float buf[STAGES][TILE];
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int cwarps = (blockDim.x >> 5) - 1;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(&empty[s])), "r"(cwarps));
        }
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    if (warp == 0) {
        if (elect_one_sync()) {
            int s = 0;
            uint32_t ph = 0;
            for (int t = 0; t < tiles; ++t) {
                try_wait_loop(smem_u32(&empty[s]), ph ^ 1);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&full[s])),
                             "r"((uint32_t)(TILE * 4)));
                asm volatile(
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                        smem_u32(buf[s])),
                    "l"(in + (size_t)t * TILE), "r"((uint32_t)(TILE * 4)), "r"(smem_u32(&full[s]))
                    : "memory");
                if (++s == STAGES) {
                    s = 0;
                    ph ^= 1;
                }
            }
        }
    } else {
        float acc = 0.f;
        int s = 0;
        uint32_t ph = 0;
        for (int t = 0; t < tiles; ++t) {
            while (!test_wait(smem_u32(&full[s]), ph)) {
            }
            for (int i = (warp - 1) * 32 + lane; i < TILE; i += cwarps * 32)
                acc += scale * buf[s][i];
            __syncwarp();
            if (lane == 0)
                asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(&empty[s])));
            if (++s == STAGES) {
                s = 0;
                ph ^= 1;
            }
        }
        out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    }
}
template __global__ void ring_raw_accum<2, 128>(const float *, float *, float, int);
template __global__ void ring_raw_accum<4, 256>(const float *, float *, float, int);

// cuda::ptx ring where each consumer warp owns a slice of the tile (float4), producer guarded by threadIdx==0
// inside a whole-warp branch, scale and bounds-checked store.
template <int STAGES, int TILE4>
__global__ void ring_f4_scale(const float4 *__restrict__ in, float4 *__restrict__ out, float scale, int tiles, int n)
{
    __shared__ alignas(128) float4 buf[STAGES][TILE4];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    const int warp = threadIdx.x / 32;
    const int cthreads = blockDim.x - 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], cthreads);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        if (threadIdx.x == 0) {
            int s = 0;
            uint32_t ph = 0;
            for (int t = 0; t < tiles; ++t) {
                while (!ptx::mbarrier_try_wait_parity(&empty[s], ph ^ 1)) {
                }
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                               TILE4 * sizeof(float4));
                ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s], in + (size_t)t * TILE4,
                                   TILE4 * sizeof(float4), &full[s]);
                s = (s + 1 == STAGES) ? 0 : s + 1;
                ph ^= (s == 0);
            }
        }
    } else {
        int s = 0;
        uint32_t ph = 0;
        for (int t = 0; t < tiles; ++t) {
            while (!ptx::mbarrier_try_wait_parity(&full[s], ph)) {
            }
            for (int i = threadIdx.x - 32; i < TILE4; i += cthreads) {
                int g = t * TILE4 + i;
                if (g < n) {
                    float4 v = buf[s][i];
                    out[g] = make_float4(v.x * scale, v.y * scale, v.z * scale, v.w * scale);
                }
            }
            ptx::mbarrier_arrive(&empty[s]);
            s = (s + 1 == STAGES) ? 0 : s + 1;
            ph ^= (s == 0);
        }
    }
}
template __global__ void ring_f4_scale<2, 64>(const float4 *, float4 *, float, int, int);
template __global__ void ring_f4_scale<3, 256>(const float4 *, float4 *, float, int, int);
