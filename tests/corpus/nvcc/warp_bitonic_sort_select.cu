// corpus: -arch=sm_75
// Warp bitonic sort by __shfl_xor_sync, ballot-based stream selection with a leader's atomicAdd and __shfl_sync broadcast, any/all/match votes.
__device__ __forceinline__ int bitonic_warp(int v) {
  int lane = threadIdx.x & 31;
  for (int k = 2; k <= 32; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int o = __shfl_xor_sync(0xffffffffu, v, j);
      bool up = ((lane & k) == 0);
      bool lower = ((lane & j) == 0);
      v = (lower == up) ? min(v, o) : max(v, o);
    }
  return v;
}
__global__ void warp_sort32(int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = bitonic_warp(data[i]);
}
__global__ void select_above(const float* in, float* out, int* count, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  unsigned m = __ballot_sync(__activemask(), v > t);
  int lane = threadIdx.x & 31;
  int leader = __ffs(m) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(count, __popc(m));
  base = __shfl_sync(__activemask(), base, leader < 0 ? 0 : leader);
  if (v > t) out[base + __popc(m & ((1u << lane) - 1))] = v;
}
__global__ void warp_vote_flags(const int* in, int* any, int* all, int* uni, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int a = __any_sync(0xffffffff, v > 10);
  int b = __all_sync(0xffffffff, v != 0);
  unsigned u = __match_any_sync(0xffffffff, v);
  if ((threadIdx.x & 31) == 0) { any[i >> 5] = a; all[i >> 5] = b; uni[i >> 5] = __popc(u); }
}
