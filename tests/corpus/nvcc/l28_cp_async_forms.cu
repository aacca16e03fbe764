// corpus: -arch=sm_80
// cp.async as CUDA code writes it, one kernel per copy form (stop 28, unseen set for the LDGSTS forms):
// (1) a 3-stage 1-D stencil staging 4-byte floats with __pipeline_memcpy_async (cp.async.ca 4);
// (2) a row copy of 8-byte float2 pairs with zero fill past the row end (src-size, cp.async.ca 8);
// (3) a 4-stage cuda::pipeline (block scope) with cuda::memcpy_async of aligned_size_t<16> chunks;
// (4) a multistage half-precision GEMM main loop: inline-asm cp.async.cg 16 with .L2::128B, ldmatrix and
//     mma.sync m16n8k16 (the way hand-written Ampere GEMMs stage A/B);
// (5) the same GEMM main loop without any prefetch hint;
// (6) an im2col-style gather: cp.async.ca 4 with .L2::64B and an ignore-src predicate for padding;
// (7) a ragged tail: cp.async.cg 16 with .L2::256B and a computed src-size (bytes left in the row);
// (8) cooperative_groups::memcpy_async of a tile per block with wait_prior in a double buffer.
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

// ---------------------------------------------------------------- (1)
constexpr int ST_BLOCK = 256, ST_STAGES = 3, ST_R = 2;
extern "C" __global__ void __launch_bounds__(ST_BLOCK)
l28_stencil_pipeline(const float *__restrict__ in, float *__restrict__ out, int n_tiles, float c0, float c1, float c2)
{
    __shared__ float buf[ST_STAGES][ST_BLOCK + 2 * ST_R];
    int tid = threadIdx.x;
    size_t base = (size_t)blockIdx.x * n_tiles * ST_BLOCK;
    auto stage = [&](int s, int t) {
        const float *src = in + base + (size_t)t * ST_BLOCK;
        __pipeline_memcpy_async(&buf[s][ST_R + tid], src + tid, 4);
        if (tid < 2 * ST_R)
            __pipeline_memcpy_async(&buf[s][tid < ST_R ? tid : ST_BLOCK + tid], src + (tid < ST_R ? tid - ST_R : ST_BLOCK + tid - ST_R), 4);
    };
    for (int s = 0; s < ST_STAGES - 1; ++s) {
        if (s < n_tiles) stage(s, s);
        __pipeline_commit();
    }
    for (int t = 0; t < n_tiles; ++t) {
        int nt = t + ST_STAGES - 1;
        if (nt < n_tiles) stage(nt % ST_STAGES, nt);
        __pipeline_commit();
        __pipeline_wait_prior(ST_STAGES - 1);
        __syncthreads();
        const float *b = buf[t % ST_STAGES];
        float v = c0 * b[ST_R + tid] + c1 * (b[ST_R + tid - 1] + b[ST_R + tid + 1]) + c2 * (b[tid] + b[ST_R + tid + 2]);
        out[base + (size_t)t * ST_BLOCK + tid] = v;
        __syncthreads();
    }
}

// ---------------------------------------------------------------- (2)
extern "C" __global__ void __launch_bounds__(128)
l28_row_copy_zfill(const float2 *__restrict__ in, float2 *__restrict__ out, int cols, int ld)
{
    __shared__ float2 row[2][512];
    const float2 *src = in + (size_t)blockIdx.x * ld;
    float2 sum = make_float2(0.f, 0.f);
    int chunks = (cols + 511) / 512;
    for (int c = 0; c < chunks; ++c) {
        int s = c & 1;
        for (int i = threadIdx.x; i < 512; i += 128) {
            int col = c * 512 + i;
            bool ok = col < cols;
            __pipeline_memcpy_async(&row[s][i], src + (ok ? col : 0), 8, ok ? 0 : 8);
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int i = threadIdx.x; i < 512; i += 128) {
            sum.x += row[s][i].x;
            sum.y += row[s][i].y;
        }
    }
    out[blockIdx.x * 128 + threadIdx.x] = sum;
}

// ---------------------------------------------------------------- (3)
constexpr int PL_STAGES = 4, PL_CHUNK = 1024;
extern "C" __global__ void __launch_bounds__(256)
l28_pipeline_scale(const float4 *__restrict__ in, float4 *__restrict__ out, int n_chunks, float a)
{
    __shared__ alignas(16) float4 buf[PL_STAGES][PL_CHUNK / 4];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, PL_STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int fetch = 0;
    for (int c = 0; c < n_chunks; ++c) {
        for (; fetch < n_chunks && fetch < c + PL_STAGES; ++fetch) {
            pipe.producer_acquire();
            const float4 *src = in + ((size_t)blockIdx.x * n_chunks + fetch) * (PL_CHUNK / 4);
            cuda::memcpy_async(block, buf[fetch % PL_STAGES], src, cuda::aligned_size_t<16>(PL_CHUNK * sizeof(float)), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        float4 v = buf[c % PL_STAGES][threadIdx.x];
        v.x *= a; v.y *= a; v.z *= a; v.w *= a;
        out[((size_t)blockIdx.x * n_chunks + c) * (PL_CHUNK / 4) + threadIdx.x] = v;
        pipe.consumer_release();
    }
}

// ---------------------------------------------------------------- (4), (5)
__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

template <bool HINT>
__device__ __forceinline__ void cp16(void *dst, const void *src)
{
    if (HINT)
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" :: "r"(smem_u32(dst)), "l"(src));
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_u32(dst)), "l"(src));
}

constexpr int GB_M = 64, GB_N = 64, GB_K = 32, GB_STAGES = 3;
template <bool HINT>
__device__ __forceinline__ void gemm_mainloop(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
                                              int K, int lda, int ldb, int ldc)
{
    __shared__ alignas(128) half As[GB_STAGES][GB_M * GB_K];
    __shared__ alignas(128) half Bs[GB_STAGES][GB_K * GB_N];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const half *a = A + (size_t)blockIdx.y * GB_M * lda;
    const half *b = B + (size_t)blockIdx.x * GB_N;
    int kt_n = K / GB_K;
    auto load = [&](int s, int kt) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            int idx = tid + i * 128, r = idx / 4, c = (idx % 4) * 8;
            cp16<HINT>(&As[s][r * GB_K + c], a + (size_t)r * lda + kt * GB_K + c);
            int rb = idx / 8, cb = (idx % 8) * 8;
            cp16<HINT>(&Bs[s][rb * GB_N + cb], b + (size_t)(kt * GB_K + rb) * ldb + cb);
        }
    };
    for (int s = 0; s < GB_STAGES - 1; ++s) {
        if (s < kt_n) load(s, s);
        asm volatile("cp.async.commit_group;\n" ::);
    }
    float acc[2][4][4] = {};
    for (int kt = 0; kt < kt_n; ++kt) {
        asm volatile("cp.async.wait_group %0;\n" :: "n"(GB_STAGES - 2));
        __syncthreads();
        int nk = kt + GB_STAGES - 1;
        if (nk < kt_n) load(nk % GB_STAGES, nk);
        asm volatile("cp.async.commit_group;\n" ::);
        const half *as = As[kt % GB_STAGES], *bs = Bs[kt % GB_STAGES];
#pragma unroll
        for (int kk = 0; kk < GB_K; kk += 16) {
            unsigned af[2][4], bf[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const half *p = as + ((warp / 2) * 32 + mi * 16 + (lane % 16)) * GB_K + kk + (lane / 16) * 8;
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(af[mi][0]), "=r"(af[mi][1]), "=r"(af[mi][2]), "=r"(af[mi][3]) : "r"(smem_u32(p)));
            }
#pragma unroll
            for (int ni = 0; ni < 4; ++ni) {
                const half *p = bs + (kk + (lane % 16)) * GB_N + (warp % 2) * 32 + ni * 8;
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                             : "=r"(bf[ni][0]), "=r"(bf[ni][1]) : "r"(smem_u32(p)));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
                                 : "r"(af[mi][0]), "r"(af[mi][1]), "r"(af[mi][2]), "r"(af[mi][3]), "r"(bf[ni][0]), "r"(bf[ni][1]));
        }
    }
    asm volatile("cp.async.wait_all;\n" ::);
    float *c = C + (size_t)(blockIdx.y * GB_M + (warp / 2) * 32) * ldc + blockIdx.x * GB_N + (warp % 2) * 32;
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            int r = mi * 16 + lane / 4, col = ni * 8 + (lane % 4) * 2;
            c[(size_t)r * ldc + col] = acc[mi][ni][0];
            c[(size_t)r * ldc + col + 1] = acc[mi][ni][1];
            c[(size_t)(r + 8) * ldc + col] = acc[mi][ni][2];
            c[(size_t)(r + 8) * ldc + col + 1] = acc[mi][ni][3];
        }
}

extern "C" __global__ void __launch_bounds__(128)
l28_hgemm_l2hint(const half *A, const half *B, float *C, int K, int lda, int ldb, int ldc)
{
    gemm_mainloop<true>(A, B, C, K, lda, ldb, ldc);
}

extern "C" __global__ void __launch_bounds__(128)
l28_hgemm_nohint(const half *A, const half *B, float *C, int K, int lda, int ldb, int ldc)
{
    gemm_mainloop<false>(A, B, C, K, lda, ldb, ldc);
}

// ---------------------------------------------------------------- (6)
extern "C" __global__ void __launch_bounds__(256)
l28_im2col_gather(const float *__restrict__ x, float *__restrict__ cols, int H, int W, int C, int R, int S, int pad)
{
    __shared__ float patch[2][256];
    int oh = blockIdx.y, ow0 = blockIdx.x * 16;
    int tid = threadIdx.x;
    int n_rs = R * S;
    for (int rs = 0; rs < n_rs; ++rs) {
        int r = rs / S, s = rs % S, buf = rs & 1;
        int ow = ow0 + tid / 16, c = tid % 16;
        int ih = oh + r - pad, iw = ow + s - pad;
        bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W && c < C;
        const float *src = x + ((size_t)(inside ? ih : 0) * W + (inside ? iw : 0)) * C + (inside ? c : 0);
        unsigned d = smem_u32(&patch[buf][tid]);
        asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0;\n"
                     "cp.async.ca.shared.global.L2::64B [%0], [%1], 4, p; }\n" :: "r"(d), "l"(src), "r"((int)inside));
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        cols[((size_t)(oh * gridDim.x * 16 + ow) * n_rs + rs) * 16 + c] = patch[buf][tid];
    }
}

// ---------------------------------------------------------------- (7)
extern "C" __global__ void __launch_bounds__(128)
l28_ragged_rows(const char *__restrict__ in, float *__restrict__ sums, const int *__restrict__ row_len, int ld)
{
    __shared__ alignas(16) char row[2][2048];
    int len = row_len[blockIdx.x];
    const char *src = in + (size_t)blockIdx.x * ld;
    float acc = 0.f;
    int n = (len + 2047) / 2048;
    for (int t = 0; t < n; ++t) {
        int off = t * 2048 + threadIdx.x * 16;
        int left = len - off;
        int bytes = left >= 16 ? 16 : (left > 0 ? left : 0);
        unsigned d = smem_u32(&row[t & 1][threadIdx.x * 16]);
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;\n" :: "r"(d), "l"(src + off), "r"(bytes));
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        for (int i = threadIdx.x; i < 2048; i += 128)
            acc += (float)(unsigned char)row[t & 1][i];
        __syncthreads();
    }
    sums[blockIdx.x * 128 + threadIdx.x] = acc;
}

// ---------------------------------------------------------------- (8)
extern "C" __global__ void __launch_bounds__(256)
l28_cg_double_buffer(const float *__restrict__ in, float *__restrict__ out, int n_tiles)
{
    __shared__ alignas(16) float tile[2][2048];
    auto block = cg::this_thread_block();
    const float *src = in + (size_t)blockIdx.x * n_tiles * 2048;
    cg::memcpy_async(block, tile[0], src, sizeof(float) * 2048);
    float acc = 0.f;
    for (int t = 0; t < n_tiles; ++t) {
        if (t + 1 < n_tiles)
            cg::memcpy_async(block, tile[(t + 1) & 1], src + (size_t)(t + 1) * 2048, sizeof(float) * 2048);
        if (t + 1 < n_tiles) cg::wait_prior<1>(block); else cg::wait(block);
        for (int i = threadIdx.x; i < 2048; i += 256)
            acc += tile[t & 1][i];
        block.sync();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}
