// corpus: -arch=sm_90a
// One-shot bulk copies global->shared guarded by an mbarrier: one issuing thread arms the barrier with
// arrive.expect_tx and starts cp.async.bulk; every thread waits on phase 0, then computes and stores.
// Variants: cuda::ptx wrappers vs raw inline PTX, threadIdx==0 vs elect.sync guards, try_wait vs test_wait loops,
// float4 vs double elements, guarded vs unguarded stores.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// (1) cuda::ptx wrappers, threadIdx.x == 0 issues, try_wait loop, float4 axpy store
extern "C" __global__ void bulk_f4_axpy(const float4 *__restrict__ x, float4 *__restrict__ y, float a)
{
    constexpr int N = 256;
    __shared__ alignas(128) float4 tile[N];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, x + (size_t)blockIdx.x * N, sizeof(tile),
                           &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    float4 v = tile[threadIdx.x % N];
    float4 w = y[(size_t)blockIdx.x * N + threadIdx.x % N];
    w.x += a * v.x;
    w.y += a * v.y;
    w.z += a * v.z;
    w.w += a * v.w;
    y[(size_t)blockIdx.x * N + threadIdx.x % N] = w;
}

// (2) raw inline PTX, elect.sync in warp 0 issues, try_wait.parity loop in asm, guarded store
__device__ __forceinline__ bool elect_one_sync()
{
    uint32_t pred = 0;
    asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\nselp.b32 %0, 1, 0, P;\n}" : "=r"(pred));
    return pred != 0;
}

__device__ __forceinline__ void raw_wait(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}

extern "C" __global__ void bulk_raw_elect_scale(const float4 *__restrict__ in, float4 *__restrict__ out, float s,
                                                int n)
{
    constexpr int N = 512;
    __shared__ alignas(128) float4 tile[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = smem_u32(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    if (threadIdx.x < 32 && elect_one_sync()) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"((uint32_t)sizeof(tile)));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         smem_u32(tile)),
                     "l"(in + (size_t)blockIdx.x * N), "r"((uint32_t)sizeof(tile)), "r"(b)
                     : "memory");
    }
    raw_wait(b, 0);
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        int g = blockIdx.x * N + i;
        if (g < n) {
            float4 v = tile[i];
            out[g] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
        }
    }
}

// (3) raw PTX test_wait loop (non-blocking probe), threadIdx==0 guard, double elements, reduction then store
__device__ __forceinline__ bool raw_test(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{\n.reg .pred p;\nmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.b32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(bar), "r"(parity)
                 : "memory");
    return ok != 0;
}

extern "C" __global__ void bulk_test_wait_dsum(const double *__restrict__ in, double *__restrict__ out)
{
    constexpr int N = 1024;
    __shared__ alignas(128) double tile[N];
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
    while (!raw_test(b, 0)) {
    }
    double acc = 0.0;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        acc += tile[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// (4) two bulk copies on one barrier (expect_tx of both), try_wait wrapper, compute a dot product per thread
extern "C" __global__ void bulk_two_dot(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                        float *__restrict__ out)
{
    constexpr int N = 128;
    __shared__ alignas(128) float4 ta[N];
    __shared__ alignas(128) float4 tb[N];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                       sizeof(ta) + sizeof(tb));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ta, a + (size_t)blockIdx.x * N, sizeof(ta), &bar);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tb, b + (size_t)blockIdx.x * N, sizeof(tb), &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    float4 u = ta[threadIdx.x % N], v = tb[threadIdx.x % N];
    float d = u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
    if (threadIdx.x < N)
        out[blockIdx.x * N + threadIdx.x] = d;
}

// (5) bulk copy, wait, compute, then bulk store back shared->global by the same thread after a fence
extern "C" __global__ void bulk_roundtrip_scale(const float4 *__restrict__ in, float4 *__restrict__ out, float s)
{
    constexpr int N = 256;
    __shared__ alignas(128) float4 tile[N];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + (size_t)blockIdx.x * N, sizeof(tile),
                           &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        float4 v = tile[i];
        tile[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
    }
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + (size_t)blockIdx.x * N, tile, sizeof(tile));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
