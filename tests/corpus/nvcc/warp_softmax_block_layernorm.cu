// corpus: -arch=sm_75
// A warp-per-row softmax (max and sum shuffle reductions in loops) and a block layer norm (warp partials through shared memory, thread 0 finishing).
__global__ void warp_softmax(const float* in, float* out, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  const float* r = in + row * cols;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += __expf(r[c] - m);
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  for (int c = lane; c < cols; c += 32) out[row * cols + c] = __expf(r[c] - m) / s;
}
__global__ void block_layernorm(const float* x, float* y, int n, float eps) {
  __shared__ float part[32];
  __shared__ float mean, rstd;
  const float* r = x + blockIdx.x * n;
  float s = 0.f, ss = 0.f;
  for (int c = threadIdx.x; c < n; c += blockDim.x) { float v = r[c]; s += v; ss += v * v; }
  for (int o = 16; o; o >>= 1) { s += __shfl_down_sync(0xffffffff, s, o); ss += __shfl_down_sync(0xffffffff, ss, o); }
  if ((threadIdx.x & 31) == 0) { part[threadIdx.x / 32] = s; }
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
    for (int o = 16; o; o >>= 1) t += __shfl_down_sync(0xffffffff, t, o);
    if (threadIdx.x == 0) { mean = t / n; }
  }
  __syncthreads();
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = ss;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < blockDim.x / 32; ++w) t += part[w];
    rstd = rsqrtf(t / n - mean * mean + eps);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < n; c += blockDim.x) y[blockIdx.x * n + c] = (r[c] - mean) * rstd;
}
