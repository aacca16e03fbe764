// corpus: -arch=sm_80
// 2D tiled stencils with halos: a 5-point heat step inside a time loop (shared tile, halo loads under
// conditions, two barriers per step), a double-buffered tile loader (prefetch next tile into the other buffer
// while computing this one), and a 3x3 box blur with corner halos.

#define BX 16
#define BY 16

extern "C" __global__ void __launch_bounds__(256) b27_heat_time_loop(float *u, int nx, int ny, int steps, float alpha)
{
    __shared__ float t[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
    bool inside = gx < nx && gy < ny;
    for (int s = 0; s < steps; ++s) {
        t[ty + 1][tx + 1] = inside ? u[gy * nx + gx] : 0.f;
        if (tx == 0) t[ty + 1][0] = (gx > 0 && gy < ny) ? u[gy * nx + gx - 1] : 0.f;
        if (tx == BX - 1) t[ty + 1][BX + 1] = (gx + 1 < nx && gy < ny) ? u[gy * nx + gx + 1] : 0.f;
        if (ty == 0) t[0][tx + 1] = (gy > 0 && gx < nx) ? u[(gy - 1) * nx + gx] : 0.f;
        if (ty == BY - 1) t[BY + 1][tx + 1] = (gy + 1 < ny && gx < nx) ? u[(gy + 1) * nx + gx] : 0.f;
        __syncthreads();
        float c = t[ty + 1][tx + 1];
        float lap = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.f * c;
        __syncthreads();
        if (inside) u[gy * nx + gx] = c + alpha * lap;
    }
}

extern "C" __global__ void __launch_bounds__(256) b27_double_buffer_rows(const float *in, float *out, int nrows, int ncols)
{
    __shared__ float buf[2][256];
    int tid = threadIdx.x;
    int col = blockIdx.x * 256 + tid;
    float acc = 0.f;
    if (col < ncols) buf[0][tid] = in[col];
    __syncthreads();
    for (int r = 0; r < nrows; ++r) {
        int cur = r & 1;
        if (r + 1 < nrows && col < ncols) buf[cur ^ 1][tid] = in[(r + 1) * ncols + col];
        float left = tid > 0 ? buf[cur][tid - 1] : 0.f;
        float right = tid < 255 ? buf[cur][tid + 1] : 0.f;
        acc += left + buf[cur][tid] + right;
        __syncthreads();
    }
    if (col < ncols) out[col] = acc;
}

extern "C" __global__ void __launch_bounds__(256) b27_box_blur(const unsigned char *img, unsigned char *dst, int w, int h)
{
    __shared__ unsigned char t[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
    for (int i = ty * BX + tx; i < (BX + 2) * (BY + 2); i += BX * BY) {
        int lx = i % (BX + 2), ly = i / (BX + 2);
        int x = min(max(x0 + lx, 0), w - 1), y = min(max(y0 + ly, 0), h - 1);
        t[ly][lx] = img[y * w + x];
    }
    __syncthreads();
    int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    if (x >= w || y >= h) return;
    int s = 0;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) s += t[ty + dy][tx + dx];
    dst[y * w + x] = (unsigned char)(s / 9);
}
