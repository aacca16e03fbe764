// corpus: -arch=sm_75
// 2D stencils with halo loads into a shared tile, tiled transpose, temporal blocking.
#define BX 16
#define BY 16
#define R 2

extern "C" __global__ void hs32_stencil5(const float *in, float *out, int nx, int ny) {
    __shared__ float tile[BY + 2 * R][BX + 2 * R];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    bool inside = x < nx && y < ny;
    tile[ty + R][tx + R] = inside ? in[y * nx + x] : 0.f;
    if (tx < R) {
        tile[ty + R][tx] = (x - R >= 0 && y < ny) ? in[y * nx + x - R] : 0.f;
        tile[ty + R][tx + BX + R] = (x + BX < nx && y < ny) ? in[y * nx + x + BX] : 0.f;
    }
    if (ty < R) {
        tile[ty][tx + R] = (y - R >= 0 && x < nx) ? in[(y - R) * nx + x] : 0.f;
        tile[ty + BY + R][tx + R] = (y + BY < ny && x < nx) ? in[(y + BY) * nx + x] : 0.f;
    }
    __syncthreads();
    if (inside) {
        float s = tile[ty + R][tx + R] * -4.f;
        for (int k = 1; k <= R; ++k)
            s += tile[ty + R][tx + R - k] + tile[ty + R][tx + R + k] + tile[ty + R - k][tx + R] + tile[ty + R + k][tx + R];
        out[y * nx + x] = s;
    }
}

extern "C" __global__ void hs32_blur_rows(const float *in, float *out, int n, int width) {
    __shared__ float row[256 + 2 * 4];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    row[t + 4] = i < n ? in[i] : 0.f;
    if (t < 4) {
        int l = i - 4;
        row[t] = l >= 0 ? in[l] : 0.f;
    }
    if (t >= blockDim.x - 4) {
        int r = i + 4;
        row[t + 8] = r < n ? in[r] : 0.f;
    }
    __syncthreads();
    if (i < n) {
        float acc = 0.f;
#pragma unroll
        for (int k = -4; k <= 4; ++k) acc += row[t + 4 + k];
        out[i] = acc * (1.f / 9.f);
    }
}

extern "C" __global__ void hs32_heat_temporal(float *u, int n, int steps, float alpha) {
    __shared__ float a[258], b[258];
    int t = threadIdx.x + 1;
    int i = blockIdx.x * 256 + threadIdx.x;
    a[t] = i < n ? u[i] : 0.f;
    if (threadIdx.x == 0) a[0] = i > 0 ? u[i - 1] : 0.f;
    if (threadIdx.x == 255) a[257] = i + 1 < n ? u[i + 1] : 0.f;
    __syncthreads();
    float *src = a, *dst = b;
    for (int s = 0; s < steps; ++s) {
        dst[t] = src[t] + alpha * (src[t - 1] - 2.f * src[t] + src[t + 1]);
        if (threadIdx.x == 0) dst[0] = src[0];
        if (threadIdx.x == 255) dst[257] = src[257];
        __syncthreads();
        float *tmp = src; src = dst; dst = tmp;
    }
    if (i < n) u[i] = src[t];
}

extern "C" __global__ void hs32_transpose(const float *in, float *out, int w, int h) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
