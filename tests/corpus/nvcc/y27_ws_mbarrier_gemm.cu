// corpus: -arch=sm_90a
// A warp-specialised producer/consumer main loop written by hand with cuda::ptx mbarriers (as in FlashAttention-
// style kernels): warp 0's elected lane loads A and B tiles with 1-D bulk copies into a 3-stage ring
// (full[] with expect_tx, empty[] counted by consumer warps), consumer warps do a scalar FMA "mma" and release
// the stage with one arrive per warp; the epilogue syncs the consumers on named barrier 1. A second kernel
// does the same with cuda::barrier<thread_scope_block> objects and cuda::device::barrier_arrive_tx, and
// releases stages with arrive() tokens waited on by the producer.
#include <cuda/ptx>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

constexpr int STAGES = 3, TK = 32, TM = 64, TN = 64;
constexpr int CONSUMER_WARPS = 4;

__device__ __forceinline__ void wait_phase(uint64_t *bar, uint32_t phase)
{
    while (!ptx::mbarrier_try_wait_parity(bar, phase)) { }
}

extern "C" __global__ void __launch_bounds__(32 * (CONSUMER_WARPS + 1))
y27_ws_bulk_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int ktiles)
{
    __shared__ alignas(128) float As[STAGES][TM * TK];
    __shared__ alignas(128) float Bs[STAGES][TK * TN];
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], CONSUMER_WARPS);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == CONSUMER_WARPS) {
        cg::invoke_one(cg::tiled_partition<32>(cg::this_thread_block()), [&] {
            for (int k = 0; k < ktiles; ++k) {
                int s = k % STAGES;
                if (k >= STAGES) wait_phase(&empty[s], ((k / STAGES) + 1) & 1);
                const float *a = A + ((size_t)blockIdx.y * ktiles + k) * TM * TK;
                const float *b = B + ((size_t)blockIdx.x * ktiles + k) * TK * TN;
                ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, As[s], a, sizeof(As[s]), &full[s]);
                ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, Bs[s], b, sizeof(Bs[s]), &full[s]);
                (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                                     sizeof(As[s]) + sizeof(Bs[s]));
            }
        });
    } else {
        float acc[16] = {};
        int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 32;
        for (int k = 0; k < ktiles; ++k) {
            int s = k % STAGES;
            wait_phase(&full[s], (k / STAGES) & 1);
            for (int kk = 0; kk < TK; ++kk) {
                float a = As[s][row * TK + kk];
                for (int j = 0; j < 16; ++j) acc[j] = fmaf(a, Bs[s][kk * TN + col + j * 2], acc[j]);
            }
            __syncwarp();
            if (lane == 0) (void)ptx::mbarrier_arrive(&empty[s]);
        }
        asm volatile("bar.sync 1, %0;" :: "n"(CONSUMER_WARPS * 32) : "memory");
        for (int j = 0; j < 16; ++j)
            C[((size_t)blockIdx.y * TM + row) * (gridDim.x * TN) + blockIdx.x * TN + col + j * 2] = acc[j];
    }
}

extern "C" __global__ void __launch_bounds__(32 * (CONSUMER_WARPS + 1))
y27_ws_cuda_barrier_ring(const float4 *__restrict__ in, float *__restrict__ out, int chunks)
{
    using barrier = cuda::barrier<cuda::thread_scope_block>;
    __shared__ alignas(128) float4 ring[STAGES][512];
    __shared__ barrier full[STAGES], empty[STAGES];
    int warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            init(&full[s], 1);
            init(&empty[s], CONSUMER_WARPS * 32 + 1);
        }
        cuda::device::experimental::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    if (warp == CONSUMER_WARPS) {
        if (threadIdx.x == CONSUMER_WARPS * 32) {
            for (int c = 0; c < chunks; ++c) {
                int s = c % STAGES;
                if (c >= STAGES) empty[s].arrive_and_wait();
                cuda::memcpy_async(ring[s], in + (size_t)c * 512, cuda::aligned_size_t<16>(sizeof(ring[s])), full[s]);
            }
        }
    } else {
        float acc = 0.f;
        for (int c = 0; c < chunks; ++c) {
            int s = c % STAGES;
            full[s].arrive_and_wait();
            float4 v = ring[s][threadIdx.x * 4 + (c & 3)];
            acc += v.x - v.y + v.z - v.w;
            auto t = empty[s].arrive();
            (void)t;
        }
        out[blockIdx.x * CONSUMER_WARPS * 32 + threadIdx.x] = acc;
    }
}
