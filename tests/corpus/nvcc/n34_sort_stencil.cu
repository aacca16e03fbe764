// corpus: -arch=sm_75
// Fresh kernels (helper nvnest34, stop 34): bitonic sorts in shared memory (nested k/j loops, a barrier per
// step, a divergent compare-swap), 2D stencils with halo loads inside a time loop.

extern "C" __global__ void n34_bitonic_u32_256(unsigned* __restrict__ data) {
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = data[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned k = 2; k <= 256; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned ixj = t ^ j;
            if (ixj > t) {
                unsigned a = s[t], b = s[ixj];
                bool up = (t & k) == 0;
                if ((a > b) == up) { s[t] = b; s[ixj] = a; }
            }
            __syncthreads();
        }
    }
    data[blockIdx.x * 256 + t] = s[t];
}

extern "C" __global__ void n34_bitonic_f32_n(float* __restrict__ data, int n) {
    extern __shared__ float sf[];
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) sf[i] = data[i];
    __syncthreads();
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = t; i < n; i += blockDim.x) {
                int ixj = i ^ j;
                if (ixj > i) {
                    float a = sf[i], b = sf[ixj];
                    if ((i & k) == 0 ? a > b : a < b) { sf[i] = b; sf[ixj] = a; }
                }
            }
            __syncthreads();
        }
    }
    for (int i = t; i < n; i += blockDim.x) data[i] = sf[i];
}

extern "C" __global__ void n34_bitonic_kv_128(int* __restrict__ keys, int* __restrict__ vals) {
    __shared__ int sk[128], sv[128];
    int t = threadIdx.x;
    sk[t] = keys[blockIdx.x * 128 + t];
    sv[t] = vals[blockIdx.x * 128 + t];
    __syncthreads();
    #pragma unroll 1
    for (int k = 2; k <= 128; k <<= 1) {
        #pragma unroll 1
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                int a = sk[t], b = sk[p];
                bool desc = (t & k) != 0;
                if (desc ? (a < b) : (a > b)) {
                    sk[t] = b; sk[p] = a;
                    int va = sv[t]; sv[t] = sv[p]; sv[p] = va;
                }
            }
            __syncthreads();
        }
    }
    keys[blockIdx.x * 128 + t] = sk[t];
    vals[blockIdx.x * 128 + t] = sv[t];
}

#define TW 16
extern "C" __global__ void n34_jacobi_halo_steps(const float* __restrict__ in, float* __restrict__ out,
                                                 int nx, int ny, int steps) {
    __shared__ float tile[TW + 2][TW + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TW + tx, y = blockIdx.y * TW + ty;
    bool inside = x < nx && y < ny;
    float v = inside ? in[y * nx + x] : 0.f;
    for (int s = 0; s < steps; ++s) {
        tile[ty + 1][tx + 1] = v;
        if (tx == 0) tile[ty + 1][0] = (x > 0 && y < ny) ? in[y * nx + x - 1] : 0.f;
        if (tx == TW - 1) tile[ty + 1][TW + 1] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.f;
        if (ty == 0) tile[0][tx + 1] = (y > 0 && x < nx) ? in[(y - 1) * nx + x] : 0.f;
        if (ty == TW - 1) tile[TW + 1][tx + 1] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.f;
        __syncthreads();
        v = 0.25f * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
        __syncthreads();
    }
    if (inside) out[y * nx + x] = v;
}

extern "C" __global__ void n34_stencil_rows_loop(const float* __restrict__ in, float* __restrict__ out,
                                                 int nx, int ny) {
    __shared__ float row[3][258];
    int tx = threadIdx.x;
    int x = blockIdx.x * 256 + tx;
    for (int y = 1; y < ny - 1; ++y) {
        for (int r = 0; r < 3; ++r) {
            int yy = y - 1 + r;
            row[r][tx + 1] = x < nx ? in[yy * nx + x] : 0.f;
            if (tx < 2) {
                int hx = tx == 0 ? x - 1 : x + 256;
                int hi = tx == 0 ? 0 : 257;
                row[r][hi] = (hx >= 0 && hx < nx) ? in[yy * nx + hx] : 0.f;
            }
        }
        __syncthreads();
        if (x < nx)
            out[y * nx + x] = row[0][tx + 1] + row[2][tx + 1] + row[1][tx] + row[1][tx + 2] - 4.f * row[1][tx + 1];
        __syncthreads();
    }
}

extern "C" __global__ void n34_blur_halo2_tiles(const float* __restrict__ in, float* __restrict__ out,
                                                int nx, int ny, int tiles_y) {
    __shared__ float t[20][36];
    int tx = threadIdx.x, ty = threadIdx.y;   // 32 x 16
    int x0 = blockIdx.x * 32;
    for (int tyi = 0; tyi < tiles_y; ++tyi) {
        int y0 = (blockIdx.y * tiles_y + tyi) * 16;
        for (int yy = ty; yy < 20; yy += 16)
            for (int xx = tx; xx < 36; xx += 32) {
                int gx = x0 + xx - 2, gy = y0 + yy - 2;
                t[yy][xx] = (gx >= 0 && gx < nx && gy >= 0 && gy < ny) ? in[gy * nx + gx] : 0.f;
            }
        __syncthreads();
        int gx = x0 + tx, gy = y0 + ty;
        if (gx < nx && gy < ny) {
            float s = 0.f;
            #pragma unroll
            for (int d = 0; d < 5; ++d) s += t[ty + d][tx + 2] + t[ty + 2][tx + d];
            out[gy * nx + gx] = s * 0.1f;
        }
        __syncthreads();
    }
}
