// corpus: -arch=sm_75
// 2D heat / Jacobi stencils with __syncthreads inside a time-step loop and halo loads under `if (threadIdx.x < R)`,
// and grid-stride normalisations with a shared-memory block reduction.
#define BX 32
#define BY 8

extern "C" __global__ void __launch_bounds__(256) j34_heat2d_steps(float *u, const float *u0, int nx, int ny,
                                                                   int steps, float a)
{
    __shared__ float t[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
    bool in = gx < nx && gy < ny;
    float c = in ? u0[gy * nx + gx] : 0.0f;
    for (int s = 0; s < steps; ++s) {
        t[ty + 1][tx + 1] = c;
        if (tx < 1) {
            t[ty + 1][0] = gx > 0 && gy < ny ? u[gy * nx + gx - 1] : 0.0f;
            t[ty + 1][BX + 1] = gx + BX < nx && gy < ny ? u[gy * nx + gx + BX] : 0.0f;
        }
        if (ty < 1) {
            t[0][tx + 1] = gy > 0 && gx < nx ? u[(gy - 1) * nx + gx] : 0.0f;
            t[BY + 1][tx + 1] = gy + BY < ny && gx < nx ? u[(gy + BY) * nx + gx] : 0.0f;
        }
        __syncthreads();
        c = c + a * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.0f * c);
        __syncthreads();
    }
    if (in) u[gy * nx + gx] = c;
}

template <int R>
__device__ void jacobi_rows(float *out, const float *in, int n, int steps)
{
    __shared__ float s[256 + 2 * R];
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = g < n ? in[g] : 0.0f;
    for (int it = 0; it < steps; ++it) {
        s[threadIdx.x + R] = v;
        if (threadIdx.x < R) {
            int l = g - R, r = g + 256;
            s[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
            s[threadIdx.x + 256 + R] = r < n ? in[r] : 0.0f;
        }
        __syncthreads();
        float acc = 0.0f;
#pragma unroll
        for (int k = -R; k <= R; ++k) acc += s[threadIdx.x + R + k];
        v = acc / (2 * R + 1);
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

extern "C" __global__ void __launch_bounds__(256) j34_jacobi1d_r1(float *out, const float *in, int n, int steps)
{
    jacobi_rows<1>(out, in, n, steps);
}

extern "C" __global__ void __launch_bounds__(256) j34_jacobi1d_r3(float *out, const float *in, int n, int steps)
{
    jacobi_rows<3>(out, in, n, steps);
}

extern "C" __global__ void __launch_bounds__(256) j34_jacobi2d_pingpong(float *a, float *b, int nx, int ny, int steps)
{
    __shared__ float t[2][BY + 2][BX + 2];
    int tx = threadIdx.x % BX, ty = threadIdx.x / BX;
    int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
    int cur = 0;
    for (int s = 0; s < steps; ++s) {
        const float *src = (s & 1) ? b : a;
        float *dst = (s & 1) ? a : b;
        t[cur][ty + 1][tx + 1] = gx < nx && gy < ny ? src[gy * nx + gx] : 0.0f;
        if (tx < 1 && gx > 0 && gy < ny) t[cur][ty + 1][0] = src[gy * nx + gx - 1];
        if (ty < 1 && gy > 0 && gx < nx) t[cur][0][tx + 1] = src[(gy - 1) * nx + gx];
        if (ty == BY - 1 && gy + 1 < ny && gx < nx) t[cur][BY + 1][tx + 1] = src[(gy + 1) * nx + gx];
        __syncthreads();
        if (gx < nx && gy < ny)
            dst[gy * nx + gx] = 0.25f * (t[cur][ty][tx + 1] + t[cur][ty + 2][tx + 1] + t[cur][ty + 1][tx] +
                                         t[cur][ty + 1][tx + 2]);
        cur ^= 1;
    }
}

extern "C" __global__ void __launch_bounds__(256) j34_norm_l2_gridstride(const float *x, float *y, float *norms, int n)
{
    __shared__ float red[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) acc += x[i] * x[i];
    red[threadIdx.x] = acc;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float inv = rsqrtf(red[0] + 1e-12f);
    if (threadIdx.x == 0) norms[blockIdx.x] = inv;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) y[i] = x[i] * inv;
}

extern "C" __global__ void __launch_bounds__(128) j34_norm_minmax_gridstride(const float *x, float *y, int n)
{
    __shared__ float smin[128], smax[128];
    float lo = 3.4e38f, hi = -3.4e38f;
    for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += gridDim.x * 128) {
        float v = x[i];
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    smin[threadIdx.x] = lo;
    smax[threadIdx.x] = hi;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            smin[threadIdx.x] = fminf(smin[threadIdx.x], smin[threadIdx.x + s]);
            smax[threadIdx.x] = fmaxf(smax[threadIdx.x], smax[threadIdx.x + s]);
        }
        __syncthreads();
    }
    float l = smin[0], r = 1.0f / (smax[0] - l + 1e-6f);
    for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += gridDim.x * 128) y[i] = (x[i] - l) * r;
}

extern "C" __global__ void __launch_bounds__(256) j34_norm_mean_warp_red(const double *x, double *y, int n)
{
    __shared__ double part[8];
    double acc = 0.0;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) acc += x[i];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 8) {
        double p = part[threadIdx.x];
        for (int o = 4; o > 0; o >>= 1) p += __shfl_down_sync(0xffu, p, o);
        if (threadIdx.x == 0) part[0] = p / n;
    }
    __syncthreads();
    double m = part[0];
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) y[i] = x[i] - m;
}
