// corpus: -arch=sm_90
// Cooperative-groups grid synchronisation: normalisation kernels (block reduction of a sum or of squares,
// a grid.sync(), then every element scaled by the global total), written with and without guards and loops.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256) jh33_grid_normalize(float *x, float *partial, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ float s[256];
    float v = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += x[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    float tot = 0;
    for (int b = 0; b < gridDim.x; ++b) tot += partial[b];
    float inv = tot != 0.f ? 1.f / tot : 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) x[i] *= inv;
}

extern "C" __global__ void __launch_bounds__(128) jh33_grid_l2norm_warp(const float *x, float *y, float *partial, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(blk);
    __shared__ float ws[4];
    __shared__ float total;
    float v = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += x[i] * x[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) ws[warp.meta_group_rank()] = v;
    blk.sync();
    if (threadIdx.x == 0) partial[blockIdx.x] = ws[0] + ws[1] + ws[2] + ws[3];
    grid.sync();
    if (threadIdx.x < 32) {
        float t = 0;
        for (int b = threadIdx.x; b < gridDim.x; b += 32) t += partial[b];
        t = cg::reduce(warp, t, cg::plus<float>());
        if (threadIdx.x == 0) total = rsqrtf(t + 1e-12f);
    }
    blk.sync();
    float r = total;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) y[i] = x[i] * r;
}

extern "C" __global__ void __launch_bounds__(256) jh33_grid_minmax_scale(float *x, float2 *partial, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ float smin[256], smax[256];
    int i = grid.thread_rank();
    float v = i < n ? x[i] : 0.f;
    smin[threadIdx.x] = i < n ? v : 3.0e38f;
    smax[threadIdx.x] = i < n ? v : -3.0e38f;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) {
            smin[threadIdx.x] = fminf(smin[threadIdx.x], smin[threadIdx.x + st]);
            smax[threadIdx.x] = fmaxf(smax[threadIdx.x], smax[threadIdx.x + st]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = make_float2(smin[0], smax[0]);
    grid.sync();
    float lo = 3.0e38f, hi = -3.0e38f;
    for (int b = 0; b < gridDim.x; ++b) { float2 p = partial[b]; lo = fminf(lo, p.x); hi = fmaxf(hi, p.y); }
    if (i < n && hi > lo) x[i] = (v - lo) / (hi - lo);
}

extern "C" __global__ void __launch_bounds__(256) jh33_grid_softmax_rows(const float *x, float *y, float *pmax, float *psum, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ float s[256];
    int i = grid.thread_rank();
    float v = i < n ? x[i] : -3.0e38f;
    s[threadIdx.x] = v;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + st]);
        __syncthreads();
    }
    if (threadIdx.x == 0) pmax[blockIdx.x] = s[0];
    grid.sync();
    float m = -3.0e38f;
    for (int b = 0; b < gridDim.x; ++b) m = fmaxf(m, pmax[b]);
    float e = i < n ? __expf(v - m) : 0.f;
    __syncthreads();
    s[threadIdx.x] = e;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) psum[blockIdx.x] = s[0];
    grid.sync();
    float t = 0;
    for (int b = 0; b < gridDim.x; ++b) t += psum[b];
    if (i < n) y[i] = e / t;
}
