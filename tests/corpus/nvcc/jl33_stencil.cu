// corpus: -arch=sm_80
// Heat / Jacobi stencil steps with halo tiles loaded into shared memory under bounds checks.
#define TX 32
#define TY 8

extern "C" __global__ void jl33_heat2d_r1(const float *__restrict__ u, float *__restrict__ v,
                                          int nx, int ny, float alpha) {
    __shared__ float s[TY + 2][TX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * TX + tx, gy = blockIdx.y * TY + ty;
    if (gx < nx && gy < ny) s[ty + 1][tx + 1] = u[gy * nx + gx];
    if (tx == 0 && gx > 0 && gy < ny) s[ty + 1][0] = u[gy * nx + gx - 1];
    if (tx == TX - 1 && gx + 1 < nx && gy < ny) s[ty + 1][TX + 1] = u[gy * nx + gx + 1];
    if (ty == 0 && gy > 0 && gx < nx) s[0][tx + 1] = u[(gy - 1) * nx + gx];
    if (ty == TY - 1 && gy + 1 < ny && gx < nx) s[TY + 1][tx + 1] = u[(gy + 1) * nx + gx];
    __syncthreads();
    if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1) {
        float c = s[ty + 1][tx + 1];
        v[gy * nx + gx] = c + alpha * (s[ty + 1][tx] + s[ty + 1][tx + 2] + s[ty][tx + 1] + s[ty + 2][tx + 1] - 4.f * c);
    }
}

template <int H>
__device__ void jacobi_tile(const float *__restrict__ u, float *__restrict__ v, int nx, int ny) {
    constexpr int W = TX + 2 * H;
    __shared__ float s[TY + 2 * H][W];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TX - H, y0 = blockIdx.y * TY - H;
    for (int j = ty; j < TY + 2 * H; j += TY)
        for (int i = tx; i < W; i += TX) {
            int x = x0 + i, y = y0 + j;
            s[j][i] = (x >= 0 && x < nx && y >= 0 && y < ny) ? u[y * nx + x] : 0.f;
        }
    __syncthreads();
    int gx = blockIdx.x * TX + tx, gy = blockIdx.y * TY + ty;
    if (gx < nx && gy < ny) {
        float acc = 0.f;
#pragma unroll
        for (int k = 1; k <= H; ++k)
            acc += s[ty + H][tx + H - k] + s[ty + H][tx + H + k] + s[ty + H - k][tx + H] + s[ty + H + k][tx + H];
        v[gy * nx + gx] = acc * (0.25f / H);
    }
}

extern "C" __global__ void jl33_jacobi_h1(const float *u, float *v, int nx, int ny) { jacobi_tile<1>(u, v, nx, ny); }
extern "C" __global__ void jl33_jacobi_h2(const float *u, float *v, int nx, int ny) { jacobi_tile<2>(u, v, nx, ny); }

template <int T, int BS>
__device__ void heat1d_temporal(const float *__restrict__ in, float *__restrict__ out, int n, float r) {
    __shared__ float a[BS + 2 * T];
    __shared__ float b[BS + 2 * T];
    int t = threadIdx.x;
    int base = blockIdx.x * BS - T;
    for (int i = t; i < BS + 2 * T; i += BS) {
        int g = base + i;
        a[i] = (g >= 0 && g < n) ? in[g] : 0.f;
    }
    __syncthreads();
    float *src = a, *dst = b;
    for (int step = 1; step <= T; ++step) {
        for (int i = t + step; i < BS + 2 * T - step; i += BS) {
            int g = base + i;
            float c = src[i];
            dst[i] = (g > 0 && g < n - 1) ? c + r * (src[i - 1] - 2.f * c + src[i + 1]) : c;
        }
        __syncthreads();
        float *tmp = src; src = dst; dst = tmp;
    }
    int g = blockIdx.x * BS + t;
    if (g < n) out[g] = src[t + T];
}

extern "C" __global__ void jl33_heat_tb2(const float *in, float *out, int n, float r) { heat1d_temporal<2, 128>(in, out, n, r); }
extern "C" __global__ void jl33_heat_tb4(const float *in, float *out, int n, float r) { heat1d_temporal<4, 256>(in, out, n, r); }

extern "C" __global__ void jl33_jacobi_steps(float *u, float *v, int nx, int ny, int steps) {
    __shared__ float s[TY + 2][TX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * TX + tx, gy = blockIdx.y * TY + ty;
    bool in = gx < nx && gy < ny;
    for (int it = 0; it < steps; ++it) {
        s[ty + 1][tx + 1] = in ? u[gy * nx + gx] : 0.f;
        if (tx < 1) {
            s[ty + 1][0] = (gx > 0 && gy < ny) ? u[gy * nx + gx - 1] : 0.f;
            s[ty + 1][TX + 1] = (gx + TX < nx && gy < ny) ? u[gy * nx + gx + TX] : 0.f;
        }
        if (ty < 1) {
            s[0][tx + 1] = (gy > 0 && gx < nx) ? u[(gy - 1) * nx + gx] : 0.f;
            s[TY + 1][tx + 1] = (gy + TY < ny && gx < nx) ? u[(gy + TY) * nx + gx] : 0.f;
        }
        __syncthreads();
        if (in)
            v[gy * nx + gx] = 0.25f * (s[ty + 1][tx] + s[ty + 1][tx + 2] + s[ty][tx + 1] + s[ty + 2][tx + 1]);
        __syncthreads();
        float *tmp = u; u = v; v = tmp;
    }
}
