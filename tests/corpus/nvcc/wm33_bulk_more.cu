// corpus: -arch=sm_90a
// More one-shot bulk copy + mbarrier kernels the way libcu++ / cooperative-groups users write them:
// cuda::barrier with barrier_arrive_tx + memcpy_async_tx and a token wait, cg::invoke_one as the elected issuer,
// the state-token try_wait form, a nanosleep back-off test_wait loop, and a suspend-time-hinted try_wait.
#include <cuda/barrier>
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cstdint>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// (6) cuda::barrier + memcpy_async_tx, token wait, float4 scale + store
extern "C" __global__ void bar_tx_scale(const float4 *__restrict__ in, float4 *__restrict__ out, float s)
{
    constexpr int N = 256;
    __shared__ alignas(128) float4 tile[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    block_barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cuda::device::memcpy_async_tx(tile, in + (size_t)blockIdx.x * N, cuda::aligned_size_t<16>(sizeof(tile)), bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));
    float4 v = tile[threadIdx.x % N];
    out[(size_t)blockIdx.x * N + threadIdx.x % N] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}

// (7) cg::invoke_one in warp 0 issues; everyone spins on try_wait_parity; bounds-checked float4 sum store
extern "C" __global__ void cg_invoke_one_bulk(const float4 *__restrict__ in, float *__restrict__ out, int n)
{
    constexpr int N = 512;
    __shared__ alignas(128) float4 tile[N];
    __shared__ uint64_t bar;
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    if (block.thread_rank() == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    block.sync();
    if (warp.meta_group_rank() == 0) {
        cg::invoke_one(warp, [&] {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + (size_t)blockIdx.x * N,
                               sizeof(tile), &bar);
        });
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        int g = blockIdx.x * N + i;
        if (g < n) {
            float4 v = tile[i];
            out[g] = v.x + v.y + v.z + v.w;
        }
    }
}

// (8) state-token try_wait: every thread arrives (the issuer with expect_tx), then waits on its own token
extern "C" __global__ void bulk_token_wait(const float4 *__restrict__ in, float4 *__restrict__ out, float a,
                                           float b)
{
    constexpr int N = 128;
    __shared__ alignas(128) float4 tile[N];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, blockDim.x);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    uint64_t state;
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + (size_t)blockIdx.x * N, sizeof(tile),
                           &bar);
        state = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                               sizeof(tile));
    } else {
        state = ptx::mbarrier_arrive(&bar);
    }
    while (!ptx::mbarrier_try_wait(&bar, state)) {
    }
    if (threadIdx.x < N) {
        float4 v = tile[threadIdx.x];
        out[(size_t)blockIdx.x * N + threadIdx.x] = make_float4(a * v.x + b, a * v.y + b, a * v.z + b, a * v.w + b);
    }
}

// (9) test_wait with nanosleep back-off (raw PTX), issuer threadIdx==0, per-warp reduction of the tile
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void wait_backoff(uint32_t bar, uint32_t parity)
{
    uint32_t ns = 8;
    for (;;) {
        uint32_t ok;
        asm volatile("{\n.reg .pred p;\nmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.b32 %0, 1, 0, p;\n}"
                     : "=r"(ok)
                     : "r"(bar), "r"(parity)
                     : "memory");
        if (ok)
            break;
        __nanosleep(ns);
        if (ns < 256)
            ns <<= 1;
    }
}

extern "C" __global__ void bulk_backoff_warpsum(const float4 *__restrict__ in, float *__restrict__ out)
{
    constexpr int N = 256;
    __shared__ alignas(128) float4 tile[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = smem_u32(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"((uint32_t)sizeof(tile)));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         smem_u32(tile)),
                     "l"(in + (size_t)blockIdx.x * N), "r"((uint32_t)sizeof(tile)), "r"(b)
                     : "memory");
    }
    wait_backoff(b, 0);
    float4 v = tile[threadIdx.x % N];
    float s = v.x + v.y + v.z + v.w;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0)
        out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = s;
}

// (10) suspend-time-hinted try_wait in raw PTX, issuer lane picked by elect.sync over the whole block's warp 0,
// then each thread computes a float4 norm and stores under a guard
extern "C" __global__ void bulk_hint_norm(const float4 *__restrict__ in, float *__restrict__ out, int n)
{
    constexpr int N = 1024;
    __shared__ alignas(128) float4 tile[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = smem_u32(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    if (threadIdx.x / 32 == 0) {
        uint32_t is_leader;
        asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\nselp.b32 %0, 1, 0, P;\n}" : "=r"(is_leader));
        if (is_leader) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                         "r"((uint32_t)sizeof(tile)));
            asm volatile(
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                    smem_u32(tile)),
                "l"(in + (size_t)blockIdx.x * N), "r"((uint32_t)sizeof(tile)), "r"(b)
                : "memory");
        }
    }
    asm volatile("{\n.reg .pred p;\nHW_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0, 1000000;\n"
                 "@!p bra HW_%=;\n}" ::"r"(b)
                 : "memory");
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        float4 v = tile[i];
        int g = blockIdx.x * N + i;
        if (g < n)
            out[g] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w);
    }
}
