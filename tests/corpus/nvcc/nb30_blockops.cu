// corpus: -arch=sm_80
// Block-level kernels as people write them: guarded tails around global loads/stores on both sides of
// __syncthreads, a block sum with a final thread-0 write, a bounds-checked shared tile transpose, a shared
// histogram, a grid-stride loop with a barrier per tile, and an early exit of whole blocks before a barrier.

extern "C" __global__ void nb30_scale_shift(const float* __restrict__ in, float* __restrict__ out,
                                            int n, float s) {
    __shared__ float buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) buf[threadIdx.x] = in[i] * s;
    __syncthreads();
    int j = (threadIdx.x + 1) % blockDim.x;
    if (i < n) out[i] = buf[threadIdx.x] - buf[j];
}

extern "C" __global__ void nb30_block_sum(const float* __restrict__ in, float* __restrict__ partial, int n) {
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

#define TILE 32
extern "C" __global__ void nb30_transpose(const float* __restrict__ a, float* __restrict__ b, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += 8)
        if (x < cols && y + k < rows) tile[threadIdx.y + k][threadIdx.x] = a[(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += 8)
        if (x < rows && y + k < cols) b[(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" __global__ void nb30_histogram(const unsigned char* __restrict__ data, unsigned* __restrict__ hist, int n) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}

extern "C" __global__ void nb30_stencil_gs(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float s[256 + 2];
    for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
        int i = base + threadIdx.x;
        s[threadIdx.x + 1] = (i < n) ? in[i] : 0.f;
        if (threadIdx.x == 0) s[0] = (base > 0) ? in[base - 1] : 0.f;
        if (threadIdx.x == blockDim.x - 1) s[blockDim.x + 1] = (i + 1 < n) ? in[i + 1] : 0.f;
        __syncthreads();
        if (i < n) out[i] = 0.25f * s[threadIdx.x] + 0.5f * s[threadIdx.x + 1] + 0.25f * s[threadIdx.x + 2];
        __syncthreads();
    }
}

extern "C" __global__ void nb30_rownorm(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    __shared__ float red[32];
    __shared__ float inv;
    int row = blockIdx.x;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += xr[c] * xr[c];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = threadIdx.x < (blockDim.x >> 5) ? red[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
        if (threadIdx.x == 0) inv = rsqrtf(v + 1e-6f);
    }
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)row * cols + c] = xr[c] * inv;
}
