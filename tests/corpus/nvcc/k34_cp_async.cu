// corpus: -arch=sm_80
// cp.async multistage tile loads (double/triple buffers, commit/wait_group, ragged guards), as GEMM-like kernels write them.
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

// 3-stage float4 tile pipeline with __pipeline_memcpy_async, sum rows
extern "C" __global__ void k34_stage3_rowsum(const float4 *__restrict__ a, float *out, int tiles) {
    constexpr int S = 3, T = 128;
    __shared__ float4 buf[S][T];
    int t = threadIdx.x;
    const float4 *src = a + (size_t)blockIdx.x * tiles * T;
    for (int s = 0; s < S - 1; ++s) {
        if (s < tiles) __pipeline_memcpy_async(&buf[s][t], &src[s * T + t], sizeof(float4));
        __pipeline_commit();
    }
    float acc = 0.f;
    for (int k = 0; k < tiles; ++k) {
        int nk = k + S - 1;
        if (nk < tiles) __pipeline_memcpy_async(&buf[nk % S][t], &src[nk * T + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(S - 1);
        __syncthreads();
        float4 v = buf[k % S][(t + 1) % T];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[blockIdx.x * T + t] = acc;
}

// ragged zero-fill: cp.async with src-size for the tail, 2 stages, 8-byte elements
extern "C" __global__ void k34_ragged_zfill(const double *__restrict__ a, double *out, int n) {
    constexpr int T = 256;
    __shared__ double buf[2][T];
    int t = threadIdx.x;
    int ntiles = (n + T - 1) / T;
    double acc = 0.0;
    {
        int g = t;
        __pipeline_memcpy_async(&buf[0][t], &a[g < n ? g : 0], sizeof(double), g < n ? 0 : sizeof(double));
        __pipeline_commit();
    }
    for (int k = 0; k < ntiles; ++k) {
        if (k + 1 < ntiles) {
            int g = (k + 1) * T + t;
            __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &a[g < n ? g : 0], sizeof(double), g < n ? 0 : sizeof(double));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        acc += buf[k & 1][T - 1 - t];
        __syncthreads();
    }
    out[blockIdx.x * T + t] = acc;
}

// cuda::pipeline (thread scope) multistage with guarded producer and consumer
extern "C" __global__ void k34_pipeline_obj(const int4 *__restrict__ a, int *out, int tiles) {
    constexpr int S = 4, T = 64;
    __shared__ int4 buf[S][T];
    auto pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    int fetch = 0;
    long acc = 0;
    for (int k = 0; k < tiles; ++k) {
        for (; fetch < tiles && fetch < k + S; ++fetch) {
            pipe.producer_acquire();
            if (t < T) cuda::memcpy_async(&buf[fetch % S][t], &a[fetch * T + t], sizeof(int4), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        __syncthreads();
        if (t < T) { int4 v = buf[k % S][T - 1 - t]; acc += v.x ^ v.y ^ v.z ^ v.w; }
        __syncthreads();
        pipe.consumer_release();
    }
    if (t < T) out[blockIdx.x * T + t] = (int)acc;
}

// cg::memcpy_async whole-tile copies, double buffered, wait_prior
extern "C" __global__ void k34_cg_double_buffer(const float *__restrict__ a, float *out, int tiles, float s) {
    constexpr int T = 512;
    __shared__ float buf[2][T];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, buf[0], a, sizeof(float) * T);
    float acc = 0.f;
    for (int k = 0; k < tiles; ++k) {
        if (k + 1 < tiles) cg::memcpy_async(block, buf[(k + 1) & 1], a + (size_t)(k + 1) * T, sizeof(float) * T);
        if (k + 1 < tiles) cg::wait_prior<1>(block); else cg::wait(block);
        for (int j = threadIdx.x; j < T; j += blockDim.x) acc += s * buf[k & 1][j];
        block.sync();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 2-D tile: each thread copies 4 x 16B chunks per stage with a row guard, 2 stages
extern "C" __global__ void k34_tile2d_guarded(const float4 *__restrict__ a, float *out, int rows, int ld4, int ktiles) {
    constexpr int R = 32, C = 8;
    __shared__ float4 tile[2][R][C];
    int t = threadIdx.x;
    int r0 = blockIdx.x * R;
    auto load = [&](int st, int kt) {
        for (int c = 0; c < 4; ++c) {
            int idx = t + c * 64;
            int r = idx / C, cc = idx % C;
            if (r0 + r < rows)
                __pipeline_memcpy_async(&tile[st][r][cc], &a[(size_t)(r0 + r) * ld4 + kt * C + cc], 16);
        }
        __pipeline_commit();
    };
    load(0, 0);
    float acc = 0.f;
    for (int kt = 0; kt < ktiles; ++kt) {
        if (kt + 1 < ktiles) load((kt + 1) & 1, kt + 1); else __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = tile[kt & 1][t % R][t / R];
        acc += v.x * v.y + v.z * v.w;
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = acc;
}
