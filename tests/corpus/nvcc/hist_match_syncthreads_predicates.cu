// corpus: -arch=sm_75
// A privatised histogram aggregated by __match_any_sync, __syncthreads_count/and/or on guarded loads, __syncwarp on half-warp masks.
__global__ void hist_aggregated(const unsigned char* in, unsigned* hist, int n) {
  __shared__ unsigned sh[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned v = in[i];
    unsigned peers = __match_any_sync(__activemask(), v);
    if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&sh[v], __popc(peers));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) if (sh[b]) atomicAdd(&hist[b], sh[b]);
}
__global__ void count_if_syncthreads(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i < n && in[i] > 0;
  int c = __syncthreads_count(p);
  int a = __syncthreads_and(p);
  int o = __syncthreads_or(i < n && in[i] < 0);
  if (threadIdx.x == 0) { out[3 * blockIdx.x] = c; out[3 * blockIdx.x + 1] = a; out[3 * blockIdx.x + 2] = o; }
}
__global__ void syncwarp_halves(int* data) {
  int lane = threadIdx.x & 31;
  int v = data[threadIdx.x];
  if (lane < 16) {
    v += __shfl_xor_sync(0x0000ffff, v, 1);
    __syncwarp(0x0000ffff);
  } else {
    v *= __shfl_xor_sync(0xffff0000, v, 2);
    __syncwarp(0xffff0000);
  }
  __syncwarp();
  data[threadIdx.x] = v;
}
