// corpus: -arch=sm_90
// A block-wide inclusive scan (Hillis-Steele in shared memory, guarded load and store), a tiled matrix multiply
// with bounds-checked tiles, and a block max with an early exit of threads past the end.

extern "C" __global__ void nb30_block_scan(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ sums, int n) {
    __shared__ int t[512];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int v = 0;
        if (threadIdx.x >= off) v = t[threadIdx.x - off];
        __syncthreads();
        t[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < n) out[i] = t[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = t[threadIdx.x];
}

#define BS 16
extern "C" __global__ void nb30_matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                       int M, int N, int K) {
    __shared__ float As[BS][BS], Bs[BS][BS];
    int row = blockIdx.y * BS + threadIdx.y, col = blockIdx.x * BS + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BS) {
        As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

extern "C" __global__ void nb30_block_max(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float m[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = -3.4e38f;
    if (i < n) v = in[i];
    m[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (threadIdx.x < s) m[threadIdx.x] = fmaxf(m[threadIdx.x], m[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        volatile float* vm = m;
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 32]);
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 16]);
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 8]);
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 4]);
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 2]);
        vm[threadIdx.x] = fmaxf(vm[threadIdx.x], vm[threadIdx.x + 1]);
    }
    if (threadIdx.x == 0) atomicMax((int*)out, __float_as_int(m[0]));
}
