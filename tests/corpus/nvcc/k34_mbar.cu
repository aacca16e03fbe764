// corpus: -arch=sm_90a
// mbarrier + bulk copies (cuda::ptx cp.async.bulk, cuda::memcpy_async with cuda::barrier) and warp-specialised
// producer/consumer rings with a scale step.
#include <cuda/barrier>
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// one-shot cuda::memcpy_async into shared with a block barrier, then scale and store (int elements)
extern "C" __global__ void k34_barrier_memcpy_scale(const int *__restrict__ in, int *out, int mul) {
    constexpr int N = 1024;
    __shared__ alignas(16) int tile[N];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0)
        cuda::memcpy_async(tile, in + (size_t)blockIdx.x * N, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    bar.arrive_and_wait();
    for (int i = threadIdx.x; i < N; i += blockDim.x) out[(size_t)blockIdx.x * N + i] = mul * tile[i];
}

// cuda::ptx bulk copy loop over chunks, one mbarrier reused with a phase bit, thread 0 issues
extern "C" __global__ void k34_bulk_chunks(const float *__restrict__ in, float *out, int chunks, float s) {
    constexpr int C = 512;
    __shared__ alignas(128) float buf[C];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) { ptx::mbarrier_init(&bar, 1); ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); }
    __syncthreads();
    for (int c = 0; c < chunks; ++c) {
        if (threadIdx.x == 0) {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, C * sizeof(float));
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, in + (size_t)c * C, C * sizeof(float), &bar);
        }
        while (!ptx::mbarrier_try_wait_parity(&bar, c & 1)) { }
        for (int i = threadIdx.x; i < C; i += blockDim.x) out[(size_t)c * C + i] = s * buf[i];
        __syncthreads();
    }
}

// bulk copy with test_wait spin, then bulk store back (s2g) and wait_group
extern "C" __global__ void k34_bulk_roundtrip(const float4 *__restrict__ in, float4 *out, float s) {
    constexpr int N = 128;
    __shared__ alignas(128) float4 t[N];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(t));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, t, in + (size_t)blockIdx.x * N, sizeof(t), &bar);
    }
    while (!ptx::mbarrier_test_wait_parity(&bar, 0)) { }
    if (threadIdx.x < N) { float4 v = t[threadIdx.x]; v.x *= s; v.y *= s; v.z *= s; v.w *= s; t[threadIdx.x] = v; }
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + (size_t)blockIdx.x * N, t, sizeof(t));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

// warp-specialised ring: warp 0 lane 0 produces with bulk copies, 2 consumer warps scale+accumulate, 3 stages
extern "C" __global__ void __launch_bounds__(96) k34_ws_ring_accum(const float *__restrict__ in, float *out, float scale,
                                                                   int tiles) {
    constexpr int S = 3, T = 256;
    __shared__ alignas(128) float buf[S][T];
    __shared__ uint64_t full[S], empty[S];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) { ptx::mbarrier_init(&full[s], 1); ptx::mbarrier_init(&empty[s], 2); }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0) {
            for (int t = 0; t < tiles; ++t) {
                int s = t % S;
                if (t >= S) while (!ptx::mbarrier_try_wait_parity(&empty[s], ((t / S) - 1) & 1)) { }
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], T * 4);
                ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s], in + (size_t)t * T, T * 4, &full[s]);
            }
        }
    } else {
        int c = threadIdx.x - 32;
        float acc = 0.f;
        for (int t = 0; t < tiles; ++t) {
            int s = t % S;
            while (!ptx::mbarrier_try_wait_parity(&full[s], (t / S) & 1)) { }
            for (int i = c; i < T; i += 64) acc += scale * buf[s][i];
            __syncwarp();
            if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
        }
        out[blockIdx.x * 64 + c] = acc;
    }
}

// ring with elect.sync producer (whole warp 0 enters, one lane elected), 2 stages, scale in place then store
__device__ __forceinline__ bool elect_one() {
    uint32_t p = 0;
    asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\nselp.b32 %0, 1, 0, P;\n}" : "=r"(p));
    return p != 0;
}
extern "C" __global__ void __launch_bounds__(160) k34_ws_elect_ring(const float *__restrict__ in, float *out, float scale,
                                                                    int tiles) {
    constexpr int S = 2, T = 128;
    __shared__ alignas(128) float buf[S][T];
    __shared__ uint64_t full[S], empty[S];
    int warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s) { ptx::mbarrier_init(&full[s], 1); ptx::mbarrier_init(&empty[s], 128); }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        for (int t = 0; t < tiles; ++t) {
            int s = t & 1;
            uint32_t ph = (t >> 1) & 1;
            if (elect_one()) {
                while (!ptx::mbarrier_try_wait_parity(&empty[s], ph ^ 1)) { }
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], T * 4);
                ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s], in + (size_t)t * T, T * 4, &full[s]);
            }
            __syncwarp();
        }
    } else {
        int c = threadIdx.x - 32;
        for (int t = 0; t < tiles; ++t) {
            int s = t & 1;
            while (!ptx::mbarrier_try_wait_parity(&full[s], (t >> 1) & 1)) { }
            out[(size_t)t * T + c] = scale * buf[s][c];
            ptx::mbarrier_arrive(&empty[s]);
        }
    }
}
