// corpus: -arch=sm_75
// Shared-memory tiles: a padded transpose, a two-phase tree reduction ending in shuffles, a 1-D stencil with halo loads; __syncthreads between.
#define TILE 32
__global__ void transpose_tiled(float* out, const float* in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void reduce_two_phase(const float* in, float* out, int n) {
  extern __shared__ float s[];
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float v = s[threadIdx.x] + s[threadIdx.x + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}
__global__ void stencil_1d(const float* in, float* out, int n) {
  __shared__ float buf[256 + 6];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 3;
  buf[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < 3) {
    buf[l - 3] = g >= 3 ? in[g - 3] : 0.f;
    buf[l + 256] = g + 256 < n ? in[g + 256] : 0.f;
  }
  __syncthreads();
  float r = 0.f;
  for (int k = -3; k <= 3; ++k) r += buf[l + k];
  if (g < n) out[g] = r;
}
