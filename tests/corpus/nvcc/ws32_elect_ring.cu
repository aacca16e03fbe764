// corpus: -arch=sm_90a
// Producer warp picks its issuing lane with elect.sync (cute::elect_one_sync style inline PTX); a ring of stages
// guarded by full/empty mbarriers with inline-PTX try_wait.parity loops; consumers scale the tile and write it out.
#include <cstdint>

constexpr int STAGES = 3;
constexpr int TILE = 512;

__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ bool elect_one()
{
    uint32_t pred = 0;
    asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\nselp.b32 %0, 1, 0, P;\n}" : "=r"(pred));
    return pred != 0;
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                 "@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}" ::"r"(bar),
                 "r"(parity));
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes));
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar));
}

__device__ __forceinline__ void bulk_g2s(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

extern "C" __global__ void ws_elect_scale(const float *__restrict__ in, float *__restrict__ out, float alpha,
                                          int tiles)
{
    __shared__ alignas(128) float buf[STAGES][TILE];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    int warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&full[s])), "r"(1));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&empty[s])), "r"(blockDim.x - 32));
        }
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    if (warp == 0) {
        if (elect_one()) {
            for (int t = 0; t < tiles; ++t) {
                int s = t % STAGES;
                uint32_t ph = (t / STAGES) & 1;
                mbar_wait(smem(&empty[s]), ph ^ 1);
                mbar_expect_tx(smem(&full[s]), TILE * 4);
                bulk_g2s(smem(buf[s]), in + (size_t)t * TILE, TILE * 4, smem(&full[s]));
            }
        }
    } else {
        int ctid = threadIdx.x - 32, cn = blockDim.x - 32;
        for (int t = 0; t < tiles; ++t) {
            int s = t % STAGES;
            uint32_t ph = (t / STAGES) & 1;
            mbar_wait(smem(&full[s]), ph);
            for (int i = ctid; i < TILE; i += cn)
                out[(size_t)t * TILE + i] = alpha * buf[s][i];
            mbar_arrive(smem(&empty[s]));
        }
    }
}
