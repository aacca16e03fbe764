// corpus: -arch=sm_80
// Check kernels for the remainder-chain rule (helper nvreg37, stop 37), written after the rule: strided guarded
// copies into shared memory and strided guarded sums, as kernel authors write them.

// 2D tile with a radius-3 halo: rows and columns loaded by strided loops under bounds checks, then a 7-point
// cross average.
extern "C" __global__ void q37_check_tile_r3(const float *__restrict__ u, float *__restrict__ v, int nx, int ny)
{
    __shared__ float s[16 + 6][32 + 6];
    int tx = threadIdx.x, ty = threadIdx.y;   // 32 x 16
    int x0 = blockIdx.x * 32 - 3, y0 = blockIdx.y * 16 - 3;
    for (int j = ty; j < 22; j += 16)
        for (int i = tx; i < 38; i += 32) {
            int x = x0 + i, y = y0 + j;
            s[j][i] = (x >= 0 && x < nx && y >= 0 && y < ny) ? u[y * nx + x] : 0.f;
        }
    __syncthreads();
    int gx = x0 + 3 + tx, gy = y0 + 3 + ty;
    if (gx < nx && gy < ny) {
        float a = 0.f;
        for (int d = -3; d <= 3; ++d) a += s[ty + 3][tx + 3 + d] + s[ty + 3 + d][tx + 3];
        v[gy * nx + gx] = a * (1.f / 14.f);
    }
}

// 1D convolution with a runtime-length window: the window is copied to shared memory by a strided loop whose
// trip count depends on the thread.
extern "C" __global__ void q37_check_conv1d(const float *__restrict__ x, const float *__restrict__ w,
                                            float *__restrict__ y, int n, int r)
{
    extern __shared__ float s[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x - r;
    int len = blockDim.x + 2 * r;
    for (int i = t; i < len; i += blockDim.x) {
        int g = base + i;
        s[i] = (g >= 0 && g < n) ? x[g] : 0.f;
    }
    __syncthreads();
    int g = blockIdx.x * blockDim.x + t;
    if (g < n) {
        float acc = 0.f;
        for (int k = -r; k <= r; ++k) acc += w[k + r] * s[t + r + k];
        y[g] = acc;
    }
}

// Per-thread strided partial sum of a bounded window (no shared memory), then a warp reduction.
extern "C" __global__ void q37_check_window_sum(const float *__restrict__ x, float *__restrict__ out, int n, int m)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int b = (t >> 5) * m;
    float acc = 0.f;
    for (int i = threadIdx.x & 31; i < m; i += 32) {
        int g = b + i;
        acc += g < n ? x[g] : 0.f;
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) out[t >> 5] = acc;
}

// Two-array tile: both inputs copied by strided guarded loops of different lengths, then a product sum.
extern "C" __global__ void q37_check_two_tiles(const float *__restrict__ a, const float *__restrict__ b,
                                              float *__restrict__ c, int n, int k)
{
    __shared__ float sa[200];
    __shared__ float sb[136];
    int t = threadIdx.x;   // 64 threads
    int base = blockIdx.x * 128;
    for (int i = t; i < 200; i += 64) sa[i] = base + i < n ? a[base + i] : 0.f;
    for (int i = t; i < 136; i += 64) sb[i] = i < k ? b[i] : 0.f;
    __syncthreads();
    float acc = 0.f;
    for (int j = 0; j < 8; ++j) acc += sa[t + j] * sb[t + j];
    if (base + t < n) c[base + t] = acc;
}
