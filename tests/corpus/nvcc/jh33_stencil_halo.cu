// corpus: -arch=sm_90
// Stencil steps with halo tiles: a 1D 7-point stencil with guarded halo loads, a 2D 5-point step with the
// four halos loaded under separate conditions, and a time-stepped 1D heat update with two barriers per step.
#define R 3
extern "C" __global__ void __launch_bounds__(256) jh33_stencil1d(const float *in, float *out, int n)
{
    __shared__ float t[256 + 2 * R];
    int g = blockIdx.x * 256 + threadIdx.x;
    int l = threadIdx.x + R;
    t[l] = g < n ? in[g] : 0.f;
    if (threadIdx.x < R) {
        t[l - R] = g - R >= 0 ? in[g - R] : 0.f;
        t[l + 256] = g + 256 < n ? in[g + 256] : 0.f;
    }
    __syncthreads();
    float s = 0;
#pragma unroll
    for (int k = -R; k <= R; ++k) s += t[l + k];
    if (g < n) out[g] = s * (1.f / (2 * R + 1));
}

extern "C" __global__ void __launch_bounds__(256) jh33_stencil2d(const float *in, float *out, int w, int h)
{
    __shared__ float t[18][18];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    bool in_range = x < w && y < h;
    t[ty + 1][tx + 1] = in_range ? in[y * w + x] : 0.f;
    if (tx == 0) t[ty + 1][0] = x > 0 && y < h ? in[y * w + x - 1] : 0.f;
    if (tx == 15) t[ty + 1][17] = x + 1 < w && y < h ? in[y * w + x + 1] : 0.f;
    if (ty == 0) t[0][tx + 1] = y > 0 && x < w ? in[(y - 1) * w + x] : 0.f;
    if (ty == 15) t[17][tx + 1] = y + 1 < h && x < w ? in[(y + 1) * w + x] : 0.f;
    __syncthreads();
    if (in_range)
        out[y * w + x] = 0.2f * (t[ty + 1][tx + 1] + t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]);
}

extern "C" __global__ void __launch_bounds__(128) jh33_heat_steps(float *u, int n, int steps, float alpha)
{
    __shared__ float t[128 + 2];
    int g = blockIdx.x * 128 + threadIdx.x;
    float v = g < n ? u[g] : 0.f;
    for (int s = 0; s < steps; ++s) {
        t[threadIdx.x + 1] = v;
        if (threadIdx.x == 0) t[0] = g > 0 ? u[g - 1] : v;
        if (threadIdx.x == 127) t[129] = g + 1 < n ? u[g + 1] : v;
        __syncthreads();
        v = v + alpha * (t[threadIdx.x] - 2.f * v + t[threadIdx.x + 2]);
        __syncthreads();
    }
    if (g < n) u[g] = v;
}

extern "C" __global__ void __launch_bounds__(256) jh33_stencil2d_int(const int *in, int *out, int w, int h, int thr)
{
    __shared__ int t[10][34];
    int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
    t[ty + 1][tx + 1] = (x < w && y < h) ? in[y * w + x] : 0;
    if (threadIdx.x < 32) {
        int yy = blockIdx.y * 8 - 1, yb = blockIdx.y * 8 + 8;
        t[0][tx + 1] = (yy >= 0 && x < w) ? in[yy * w + x] : 0;
        t[9][tx + 1] = (yb < h && x < w) ? in[yb * w + x] : 0;
    }
    if (threadIdx.x < 10) {
        int yy = blockIdx.y * 8 + threadIdx.x - 1, xl = blockIdx.x * 32 - 1, xr = blockIdx.x * 32 + 32;
        t[threadIdx.x][0] = (yy >= 0 && yy < h && xl >= 0) ? in[yy * w + xl] : 0;
        t[threadIdx.x][33] = (yy >= 0 && yy < h && xr < w) ? in[yy * w + xr] : 0;
    }
    __syncthreads();
    int c = 0;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) c += t[ty + dy][tx + dx] > thr;
    if (x < w && y < h && c >= 5) out[y * w + x] = c;
}
