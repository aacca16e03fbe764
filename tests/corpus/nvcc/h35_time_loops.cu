// corpus: -arch=sm_80
// Guarded loads before time-step / per-thread loops, loops with breaks and early returns, code after a loop
// (helper nvreg35, stop 35).
#include <cstdint>

// 1D wave equation: centre and previous value loaded under a bound, then a time loop with halo ifs.
extern "C" __global__ void __launch_bounds__(256) h35_wave1d_steps(float *u, const float *up, int n, int steps, float c2)
{
    __shared__ float t[256 + 2];
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = g < n ? u[g] : 0.f;
    float p = g < n ? up[g] : 0.f;
    for (int s = 0; s < steps; ++s) {
        t[threadIdx.x + 1] = v;
        if (threadIdx.x == 0) t[0] = g > 0 ? u[g - 1] : 0.f;
        if (threadIdx.x == 255) t[257] = g + 1 < n ? u[g + 1] : 0.f;
        __syncthreads();
        float nv = 2.f * v - p + c2 * (t[threadIdx.x] - 2.f * v + t[threadIdx.x + 2]);
        p = v;
        v = nv;
        __syncthreads();
    }
    if (g < n) u[g] = v;
}

// 2D heat with a 2D guard and a time loop the compiler keeps rolled.
extern "C" __global__ void h35_heat2d_rolled(float *u, int nx, int ny, int steps, float a)
{
    __shared__ float t[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    bool in = x < nx && y < ny;
    float v = in ? u[y * nx + x] : 0.f;
#pragma unroll 1
    for (int s = 0; s < steps; ++s) {
        t[ty + 1][tx + 1] = v;
        if (tx == 0) t[ty + 1][0] = v;
        if (tx == 15) t[ty + 1][17] = v;
        if (ty == 0) t[0][tx + 1] = v;
        if (ty == 15) t[17][tx + 1] = v;
        __syncthreads();
        v += a * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.f * v);
        __syncthreads();
    }
    if (in) u[y * nx + x] = v;
}

// Per-thread power iteration on a loaded value (no barrier in the loop).
extern "C" __global__ void h35_pow_iter(const double *in, double *out, int n, int iters, double r)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = i < n ? in[i] : 1.0;
    for (int k = 0; k < iters; ++k) v = v * r + 1.0 / (1.0 + v * v);
    if (i < n) out[i] = v;
}

// A guarded load then a grid-stride accumulation loop, the sum stored by every thread.
extern "C" __global__ void h35_bias_grid_sum(const float *bias, const float *x, float *out, int nb, int n)
{
    int t = threadIdx.x;
    float b = t < nb ? bias[t] : 0.f;
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += x[i] * b;
    out[blockIdx.x * blockDim.x + t] = acc + b;
}

// A guarded int load then a loop with a break (search for a key).
extern "C" __global__ void h35_probe_until(const int *keys, const int *table, int *pos, int n, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : -1;
    int h = (k * 2654435761u) & (cap - 1);
    int found = -1;
    for (int p = 0; p < cap; ++p) {
        int s = table[(h + p) & (cap - 1)];
        if (s == k) { found = (h + p) & (cap - 1); break; }
        if (s < 0) break;
    }
    if (i < n) pos[i] = found;
}

// Early return then a guarded load before a counted loop over columns.
extern "C" __global__ void h35_row_scale_cols(const float *scale, float *m, int rows, int cols)
{
    int r = blockIdx.x;
    if (r >= rows) return;
    float s = threadIdx.x < 32 ? scale[r * 32 + threadIdx.x] : 1.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m[r * cols + c] *= s;
}

// A guarded half load widened to float, then a time loop of a logistic map, then code after the loop.
#include <cuda_fp16.h>
extern "C" __global__ void h35_logistic_half(const __half *in, float *out, int n, int steps, float r)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? __half2float(in[i]) : 0.5f;
    for (int s = 0; s < steps; ++s) v = r * v * (1.f - v);
    float w = v * v;
    if (i < n) out[i] = w + v;
}

// Two guarded loads (a 2-level guard) before a time loop with a barrier (num_warps-style block of 128).
extern "C" __global__ void __launch_bounds__(128) h35_relax_two_guards(float *u, const float *f, int n, int m, int steps)
{
    __shared__ float t[130];
    int g = blockIdx.x * 128 + threadIdx.x;
    float v = 0.f, rhs = 0.f;
    if (g < n) {
        v = u[g];
        if (g < m) rhs = f[g];
    }
    for (int s = 0; s < steps; ++s) {
        t[threadIdx.x + 1] = v;
        if (threadIdx.x == 0) { t[0] = 0.f; t[129] = 0.f; }
        __syncthreads();
        v = 0.5f * (t[threadIdx.x] + t[threadIdx.x + 2] - rhs);
        __syncthreads();
    }
    if (g < n) u[g] = v;
}

// A guarded u64 load, then a loop that counts set bits and breaks early.
extern "C" __global__ void h35_bits_until(const unsigned long long *in, int *out, int n, int limit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long w = i < n ? in[i] : 0ull;
    int c = 0;
    while (w && c < limit) { w &= w - 1; ++c; }
    if (i < n) out[i] = c;
}

// A guarded store (no load) before a per-thread copy loop.
extern "C" __global__ void h35_flag_then_copy(const float *src, float *dst, int *flags, int n, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = 1;
    for (int k = 0; k < len; ++k) dst[i * len + k] = src[i * len + k] * 2.f;
}
