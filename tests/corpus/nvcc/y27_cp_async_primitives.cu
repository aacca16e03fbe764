// corpus: -arch=sm_80
// The sm_80 pipeline primitives (cuda_pipeline_primitives.h): (1) a 4-stage cp.async ring with
// __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior(STAGES-2) and __syncthreads per k-step,
// as a hand-written GEMM main loop stages A and B tiles; (2) bounds-checked 16-byte copies with zero fill
// (zfill via src size) for a matrix edge; (3) an 8-byte copy per thread with __pipeline_wait_prior(0) inside
// a data-dependent branch.
#include <cuda_pipeline_primitives.h>
#include <cuda_fp16.h>

constexpr int BM = 64, BN = 64, BK = 32, STAGES = 4;

extern "C" __global__ void __launch_bounds__(128)
y27_ldgsts_gemm_ring(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int K, int lda, int ldb)
{
    __shared__ alignas(16) half As[STAGES][BM * BK];
    __shared__ alignas(16) half Bs[STAGES][BK * BN];
    int tid = threadIdx.x;
    const half *a = A + (size_t)blockIdx.y * BM * lda;
    const half *b = B + (size_t)blockIdx.x * BN;
    int ktiles = K / BK;
    auto load = [&](int stage, int kt) {
        for (int i = tid; i < BM * BK / 8; i += 128) {
            int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
            __pipeline_memcpy_async(&As[stage][r * BK + c], a + (size_t)r * lda + kt * BK + c, 16);
        }
        for (int i = tid; i < BK * BN / 8; i += 128) {
            int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
            __pipeline_memcpy_async(&Bs[stage][r * BN + c], b + (size_t)(kt * BK + r) * ldb + c, 16);
        }
    };
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ktiles) load(s, s);
        __pipeline_commit();
    }
    float acc[8] = {};
    int row = tid / 2, col0 = (tid % 2) * 32;
    for (int kt = 0; kt < ktiles; ++kt) {
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        int nk = kt + STAGES - 1;
        if (nk < ktiles) load(nk % STAGES, nk);
        __pipeline_commit();
        const half *as = As[kt % STAGES];
        const half *bs = Bs[kt % STAGES];
        for (int k = 0; k < BK; ++k) {
            float av = __half2float(as[row * BK + k]);
            for (int j = 0; j < 8; ++j) acc[j] += av * __half2float(bs[k * BN + col0 + j * 4]);
        }
    }
    __pipeline_wait_prior(0);
    for (int j = 0; j < 8; ++j)
        C[(size_t)(blockIdx.y * BM + row) * (gridDim.x * BN) + blockIdx.x * BN + col0 + j * 4] = acc[j];
}

extern "C" __global__ void __launch_bounds__(256)
y27_ldgsts_zfill_edge(const float4 *__restrict__ in, float *__restrict__ out, int rows, int cols4)
{
    __shared__ alignas(16) float4 tile[16][16];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    int r = blockIdx.y * 16 + ty, c = blockIdx.x * 16 + tx;
    bool inside = r < rows && c < cols4;
    const float4 *src = inside ? in + (size_t)r * cols4 + c : in;
    __pipeline_memcpy_async(&tile[ty][tx], src, sizeof(float4), inside ? 0 : sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    float4 v = tile[tx][ty];
    if (inside) out[(size_t)r * cols4 + c] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void __launch_bounds__(128)
y27_ldgsts_branch_wait(const double *__restrict__ in, double *__restrict__ out, const int *__restrict__ flags, int n)
{
    __shared__ alignas(8) double s[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i >= n) return;
    __pipeline_memcpy_async(&s[threadIdx.x], in + i, sizeof(double));
    __pipeline_commit();
    double v;
    if (flags[i]) {
        __pipeline_wait_prior(0);
        v = s[threadIdx.x] * 2.0;
    } else {
        v = -1.0;
        __pipeline_wait_prior(0);
    }
    out[i] = v;
}
