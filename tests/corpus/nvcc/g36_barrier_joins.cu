// corpus: -arch=sm_75
// Block-wide kernels with guarded code right before a __syncthreads: tiles loaded under bounds checks, halo loads
// under ifs, pass loops with barriers, threads that drop out before a barrier, written as a kernel author would.
#define TB 256

// 1D tile with a guarded centre load and halo loads under an if, then a 3-point stencil
extern "C" __global__ void __launch_bounds__(TB) g36_tile_halo3(float *out, const float *in, int n, float w)
{
    __shared__ float s[TB + 2];
    int g = blockIdx.x * TB + threadIdx.x;
    s[threadIdx.x + 1] = g < n ? in[g] : 0.0f;
    if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0.0f;
    if (threadIdx.x == TB - 1) s[TB + 1] = g + 1 < n ? in[g + 1] : 0.0f;
    __syncthreads();
    if (g < n) out[g] = w * s[threadIdx.x] + (1.0f - 2.0f * w) * s[threadIdx.x + 1] + w * s[threadIdx.x + 2];
}

// 2D 16x16 tile with a one-cell halo loaded by edge threads, 5-point Laplacian
extern "C" __global__ void __launch_bounds__(256) g36_tile2d_lap(float *out, const float *in, int nx, int ny)
{
    __shared__ float t[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    bool in_ = x < nx && y < ny;
    t[ty + 1][tx + 1] = in_ ? in[y * nx + x] : 0.0f;
    if (tx == 0) t[ty + 1][0] = (x > 0 && y < ny) ? in[y * nx + x - 1] : 0.0f;
    if (tx == 15) t[ty + 1][17] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.0f;
    if (ty == 0) t[0][tx + 1] = (y > 0 && x < nx) ? in[(y - 1) * nx + x] : 0.0f;
    if (ty == 15) t[17][tx + 1] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    if (in_)
        out[y * nx + x] = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.0f * t[ty + 1][tx + 1];
}

// passes of a block tree reduction where the active half shrinks: guarded adds before each barrier
extern "C" __global__ void __launch_bounds__(512) g36_tree_sum_i32(int *out, const int *in, int n)
{
    __shared__ int s[512];
    int g = blockIdx.x * 512 + threadIdx.x;
    int v = 0;
    if (g < n) v = in[g];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = 256; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// early exit of out-of-range rows before a barrier is NOT allowed; threads stay and skip work instead
extern "C" __global__ void __launch_bounds__(128) g36_row_scale_skip(float *out, const float *in, const float *scale,
                                                                      int rows, int cols)
{
    __shared__ float sc[128];
    int r = blockIdx.x;
    int c = threadIdx.x;
    if (c < cols) sc[c] = scale[c];
    __syncthreads();
    if (r < rows) {
        for (int j = c; j < cols; j += 128) out[r * cols + j] = in[r * cols + j] * sc[j & 127];
    }
}

// ping-pong Jacobi over a fixed number of sweeps with a guarded write-back each sweep
extern "C" __global__ void __launch_bounds__(TB) g36_jacobi_pingpong(float *out, const float *in, int n, int sweeps)
{
    __shared__ float a[TB + 2], b[TB + 2];
    int t = threadIdx.x, g = blockIdx.x * TB + t;
    a[t + 1] = g < n ? in[g] : 0.0f;
    if (t == 0) { a[0] = 0.0f; b[0] = 0.0f; a[TB + 1] = 0.0f; b[TB + 1] = 0.0f; }
    __syncthreads();
    float *src = a, *dst = b;
    for (int s = 0; s < sweeps; ++s) {
        if (g < n) dst[t + 1] = 0.5f * (src[t] + src[t + 2]);
        __syncthreads();
        float *tmp = src; src = dst; dst = tmp;
    }
    if (g < n) out[g] = src[t + 1];
}

// double tile: a guarded load of two arrays, a product staged, a barrier, then neighbour differences
extern "C" __global__ void __launch_bounds__(128) g36_two_array_tile(double *out, const double *x, const double *y, int n)
{
    __shared__ double s[129];
    int g = blockIdx.x * 128 + threadIdx.x;
    double p = 0.0;
    if (g < n) p = x[g] * y[g];
    s[threadIdx.x] = p;
    if (threadIdx.x == 127) s[128] = (g + 1 < n) ? x[g + 1] * y[g + 1] : 0.0;
    __syncthreads();
    if (g < n) out[g] = s[threadIdx.x + 1] - s[threadIdx.x];
}

// warp leaders write partial sums under a lane test, barrier, first warp finishes
extern "C" __global__ void __launch_bounds__(256) g36_warp_partials(float *out, const float *in, int n)
{
    __shared__ float part[8];
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = g < n ? in[g] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        float w = threadIdx.x < 8 ? part[threadIdx.x] : 0.0f;
        for (int o = 4; o > 0; o >>= 1) w += __shfl_down_sync(0xffffffffu, w, o);
        if (threadIdx.x == 0) atomicAdd(out, w);
    }
}

// histogram: clear bins under a guard, barrier, guarded atomics, barrier, guarded flush
extern "C" __global__ void __launch_bounds__(128) g36_hist_bins(unsigned *hist, const unsigned char *data, int n,
                                                                int nbins)
{
    __shared__ unsigned bins[256];
    for (int i = threadIdx.x; i < nbins; i += 128) bins[i] = 0u;
    __syncthreads();
    for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += gridDim.x * 128) {
        unsigned b = data[i];
        if (b < (unsigned)nbins) atomicAdd(&bins[b], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += 128)
        if (bins[i]) atomicAdd(&hist[i], bins[i]);
}

// time loop whose halo is reloaded from global each step under two ifs
extern "C" __global__ void __launch_bounds__(128) g36_wave_halo_steps(float *u, const float *u0, int n, int steps, float c)
{
    __shared__ float s[130];
    int t = threadIdx.x, g = blockIdx.x * 128 + t;
    float cur = g < n ? u0[g] : 0.0f;
    float prev = cur;
    for (int it = 0; it < steps; ++it) {
        s[t + 1] = cur;
        if (t == 0) s[0] = g > 0 ? u0[g - 1] : 0.0f;
        if (t == 127) s[129] = g + 1 < n ? u0[g + 1] : 0.0f;
        __syncthreads();
        float nxt = 2.0f * cur - prev + c * (s[t] + s[t + 2] - 2.0f * cur);
        prev = cur;
        cur = nxt;
        __syncthreads();
    }
    if (g < n) u[g] = cur;
}

// a tile transposed through shared memory with guarded loads and stores (32x8 threads, 32x32 tile)
extern "C" __global__ void __launch_bounds__(256) g36_transpose_tile(float *out, const float *in, int w, int h)
{
    __shared__ float t[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y + j < h) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < h && y + j < w) out[(y + j) * h + x] = t[threadIdx.x][threadIdx.y + j];
}

// a per-block flag computed under a guard, broadcast through shared memory, then a uniform branch
extern "C" __global__ void __launch_bounds__(256) g36_flag_broadcast(float *out, const float *in, const int *mask, int n)
{
    __shared__ int flag;
    int g = blockIdx.x * 256 + threadIdx.x;
    if (threadIdx.x == 0) flag = mask[blockIdx.x];
    __syncthreads();
    if (flag && g < n) out[g] = in[g] * 2.0f;
    else if (g < n) out[g] = in[g];
}
