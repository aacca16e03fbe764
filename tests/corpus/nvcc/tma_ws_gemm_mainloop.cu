// corpus: -arch=sm_90a
// Hand-written Hopper GEMM main loop in the CUTLASS "warp-specialised" shape: 1 producer warpgroup (register
// budget lowered with setmaxnreg.dec) whose elected thread issues TMA loads of A and B tiles into a 4-stage
// ring (full barriers with expect_tx), 2 consumer warpgroups (setmaxnreg.inc) that wait on the full barrier,
// run wgmma.mma_async m64n64k16 (fence / commit_group / wait_group) from shared-memory descriptors and release
// the stage on the empty barrier; the epilogue stores the accumulators directly.
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_fp16.h>
namespace ptx = cuda::ptx;

constexpr int STAGES = 4, BM = 128, BN = 64, BK = 16;

__device__ __forceinline__ uint64_t smem_desc(const void *p)
{
    uint64_t addr = (uint64_t)__cvta_generic_to_shared(p);
    return ((addr & 0x3FFFF) >> 4) | (uint64_t(8) << 16) | (uint64_t(64) << 32);
}

__device__ __forceinline__ void wgmma_64x64x16(float (&d)[32], uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db));
}

extern "C" __global__ void __launch_bounds__(384, 1)
tma_ws_gemm_mainloop(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                     float *c, int ldc, int k_tiles)
{
    __shared__ alignas(1024) __half sa[STAGES][BM * BK];
    __shared__ alignas(1024) __half sb[STAGES][BN * BK];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    int wg = threadIdx.x / 128;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], 2);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (threadIdx.x == 0) {
            for (int k = 0; k < k_tiles; ++k) {
                int s = k % STAGES;
                if (k >= STAGES)
                    while (!ptx::mbarrier_try_wait_parity(&empty[s], ((k / STAGES) - 1) & 1)) { }
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                               sizeof(sa[0]) + sizeof(sb[0]));
                int32_t ca[2] = {k * BK, (int32_t)blockIdx.y * BM};
                int32_t cb[2] = {k * BK, (int32_t)blockIdx.x * BN};
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, sa[s], &map_a, ca, &full[s]);
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, sb[s], &map_b, cb, &full[s]);
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        float acc[32];
        for (int i = 0; i < 32; ++i) acc[i] = 0.f;
        int m0 = (wg - 1) * 64;
        for (int k = 0; k < k_tiles; ++k) {
            int s = k % STAGES;
            while (!ptx::mbarrier_try_wait_parity(&full[s], (k / STAGES) & 1)) { }
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
            wgmma_64x64x16(acc, smem_desc(&sa[s][m0 * BK]), smem_desc(sb[s]));
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            if (threadIdx.x % 128 == 0) ptx::mbarrier_arrive(&empty[s]);
        }
        int t = threadIdx.x % 128, warp = t / 32, lane = t % 32;
        int row = blockIdx.y * BM + m0 + warp * 16 + lane / 4;
        for (int j = 0; j < 8; ++j) {
            int col = blockIdx.x * BN + j * 8 + (lane % 4) * 2;
            c[(size_t)row * ldc + col] = acc[j * 4 + 0];
            c[(size_t)row * ldc + col + 1] = acc[j * 4 + 1];
            c[(size_t)(row + 8) * ldc + col] = acc[j * 4 + 2];
            c[(size_t)(row + 8) * ldc + col + 1] = acc[j * 4 + 3];
        }
    }
}
