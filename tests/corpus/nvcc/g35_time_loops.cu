// corpus: -arch=sm_75
// Block-wide kernels that load a per-thread value under a bounds check and then run a time-step / pass loop with
// __syncthreads (1D/2D Jacobi with halos, iterated block smoothing, repeated block normalisation, a block
// scan repeated over passes), written as a kernel author would.
#define B 256

template <int R, typename T>
__device__ void smooth_rows(T *out, const T *in, int n, int steps)
{
    __shared__ T s[B + 2 * R];
    int g = blockIdx.x * B + threadIdx.x;
    T v = g < n ? in[g] : T(0);
    for (int it = 0; it < steps; ++it) {
        s[threadIdx.x + R] = v;
        if (threadIdx.x < R) {
            s[threadIdx.x] = g - R >= 0 ? in[g - R] : T(0);
            s[threadIdx.x + B + R] = g + B < n ? in[g + B] : T(0);
        }
        __syncthreads();
        T acc = T(0);
#pragma unroll
        for (int k = 0; k <= 2 * R; ++k) acc += s[threadIdx.x + k];
        v = acc * T(1.0 / (2 * R + 1));
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

extern "C" __global__ void __launch_bounds__(B) g35_smooth_f32_r2(float *out, const float *in, int n, int steps)
{
    smooth_rows<2, float>(out, in, n, steps);
}

extern "C" __global__ void __launch_bounds__(B) g35_smooth_f64_r1(double *out, const double *in, int n, int steps)
{
    smooth_rows<1, double>(out, in, n, steps);
}

// halo from shared only (zero padding set once), value kept in a register across steps
extern "C" __global__ void __launch_bounds__(B) g35_diffuse_zero_halo(float *out, const float *in, int n, int steps,
                                                                       float k)
{
    __shared__ float s[B + 2];
    int g = blockIdx.x * B + threadIdx.x;
    float v = 0.0f;
    if (g < n) v = in[g];
    if (threadIdx.x == 0) { s[0] = 0.0f; s[B + 1] = 0.0f; }
    for (int it = 0; it < steps; ++it) {
        s[threadIdx.x + 1] = v;
        __syncthreads();
        v += k * (s[threadIdx.x] + s[threadIdx.x + 2] - 2.0f * v);
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

// integer counters: repeated block-wide max with a guarded initial load
extern "C" __global__ void __launch_bounds__(128) g35_iter_block_max(int *out, const int *in, int n, int passes)
{
    __shared__ int s[128];
    int g = blockIdx.x * 128 + threadIdx.x;
    int v = g < n ? in[g] : -2147483647;
    for (int p = 0; p < passes; ++p) {
        s[threadIdx.x] = v;
        __syncthreads();
        for (int o = 64; o > 0; o >>= 1) {
            if (threadIdx.x < o) s[threadIdx.x] = max(s[threadIdx.x], s[threadIdx.x + o]);
            __syncthreads();
        }
        v = v - s[0] / 2;
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

// 2D heat with a time loop over a tile, guarded centre load, halo loads each step
extern "C" __global__ void __launch_bounds__(256) g35_heat2d_halo_steps(float *u, const float *u0, int nx, int ny,
                                                                        int steps, float a)
{
    __shared__ float t[10][34];
    int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    int gx = blockIdx.x * 32 + tx, gy = blockIdx.y * 8 + ty;
    float c = 0.0f;
    if (gx < nx && gy < ny) c = u0[gy * nx + gx];
    for (int s = 0; s < steps; ++s) {
        t[ty + 1][tx + 1] = c;
        if (tx == 0) t[ty + 1][0] = gx > 0 && gy < ny ? u0[gy * nx + gx - 1] : 0.0f;
        if (tx == 31) t[ty + 1][33] = gx + 1 < nx && gy < ny ? u0[gy * nx + gx + 1] : 0.0f;
        if (ty == 0) t[0][tx + 1] = gy > 0 && gx < nx ? u0[(gy - 1) * nx + gx] : 0.0f;
        if (ty == 7) t[9][tx + 1] = gy + 1 < ny && gx < nx ? u0[(gy + 1) * nx + gx] : 0.0f;
        __syncthreads();
        c += a * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.0f * c);
        __syncthreads();
    }
    if (gx < nx && gy < ny) u[gy * nx + gx] = c;
}

// repeated block L2 normalisation of one value per thread (guarded load, shared tree sum per pass)
extern "C" __global__ void __launch_bounds__(256) g35_iter_normalize(float *y, const float *x, int n, int iters)
{
    __shared__ float red[256];
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = g < n ? x[g] : 0.0f;
    for (int it = 0; it < iters; ++it) {
        red[threadIdx.x] = v * v;
        __syncthreads();
        for (int s = 128; s > 0; s >>= 1) {
            if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
            __syncthreads();
        }
        v = v * rsqrtf(red[0] + 1e-6f);
        __syncthreads();
    }
    if (g < n) y[g] = v;
}

// block inclusive scan repeated over passes, guarded u32 load
extern "C" __global__ void __launch_bounds__(128) g35_scan_passes(unsigned *out, const unsigned *in, int n, int passes)
{
    __shared__ unsigned s[128];
    int g = blockIdx.x * 128 + threadIdx.x;
    unsigned v = 0;
    if (g < n) v = in[g];
    for (int p = 0; p < passes; ++p) {
        s[threadIdx.x] = v;
        __syncthreads();
        for (int o = 1; o < 128; o <<= 1) {
            unsigned a = threadIdx.x >= o ? s[threadIdx.x - o] : 0u;
            __syncthreads();
            s[threadIdx.x] += a;
            __syncthreads();
        }
        v = s[threadIdx.x] ^ (v >> 1);
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

// time loop with a fixed count (unrolled by the compiler) after a guarded load
extern "C" __global__ void __launch_bounds__(256) g35_jacobi_fixed4(float *out, const float *in, int n)
{
    __shared__ float s[258];
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = g < n ? in[g] : 0.0f;
    for (int it = 0; it < 4; ++it) {
        s[threadIdx.x + 1] = v;
        if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0.0f;
        if (threadIdx.x == 255) s[257] = g + 1 < n ? in[g + 1] : 0.0f;
        __syncthreads();
        v = 0.5f * v + 0.25f * (s[threadIdx.x] + s[threadIdx.x + 2]);
        __syncthreads();
    }
    if (g < n) out[g] = v;
}

// half-precision-free int2 pair load then a pass loop with a halo from neighbours' shared values
extern "C" __global__ void __launch_bounds__(128) g35_pair_relax(int2 *out, const int2 *in, int n, int steps)
{
    __shared__ int sx[130], sy[130];
    int g = blockIdx.x * 128 + threadIdx.x;
    int2 v = make_int2(0, 0);
    if (g < n) v = in[g];
    for (int it = 0; it < steps; ++it) {
        sx[threadIdx.x + 1] = v.x;
        sy[threadIdx.x + 1] = v.y;
        if (threadIdx.x == 0) {
            sx[0] = g > 0 ? in[g - 1].x : 0;
            sy[129] = g + 128 < n ? in[g + 128].y : 0;
        }
        __syncthreads();
        v.x = (sx[threadIdx.x] + v.x + sx[threadIdx.x + 2]) / 3;
        v.y = (sy[threadIdx.x] + v.y + sy[threadIdx.x + 2]) >> 1;
        __syncthreads();
    }
    if (g < n) out[g] = v;
}
