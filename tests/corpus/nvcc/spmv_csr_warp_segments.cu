// corpus: -arch=sm_75
// CSR SpMV: a warp per row with __shfl_down_sync, a scalar row loop of float atomics, a segmented warp sum with __match_any_sync peers and a leader atomic.
__global__ void spmv_csr_vector(const int* rowptr, const int* col, const float* val, const float* x, float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  float sum = 0.f;
  for (int j = rowptr[warp] + lane; j < rowptr[warp + 1]; j += 32) sum += val[j] * x[col[j]];
  for (int o = 16; o; o >>= 1) sum += __shfl_down_sync(0xffffffff, sum, o);
  if (lane == 0) y[warp] = sum;
}
__global__ void spmv_csr_scalar_atomic(const int* rowptr, const int* col, const float* val, const float* x, float* y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) atomicAdd(&y[col[j]], val[j] * x[r]);
  }
}
__global__ void segmented_warp_sum(const float* v, const int* seg, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned act = __activemask();
  if (i < n) {
    float s = v[i];
    int k = seg[i];
    unsigned peers = __match_any_sync(act, k);
    int lane = threadIdx.x & 31;
    int leader = __ffs(peers) - 1;
    for (int o = 1; o < 32; o <<= 1) {
      float t = __shfl_down_sync(act, s, o);
      if (lane + o < 32 && ((peers >> (lane + o)) & 1)) s += t;
    }
    if (lane == leader) atomicAdd(&out[k], s);
  }
}
