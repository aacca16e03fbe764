// corpus: -arch=sm_80
// CUB: BlockReduce WARP_REDUCTIONS sum, WarpScan ExclusiveSum per warp, BlockReduce max of floats, BlockScan RAKING inclusive sum.
#include <cub/cub.cuh>
__global__ void cub_reduce_warp_reductions(const int* in, int* out) {
  using BR = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BR::TempStorage tmp;
  int v = in[blockIdx.x * 256 + threadIdx.x];
  int s = BR(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
__global__ void cub_warp_scan_excl(const int* in, int* out) {
  using WS = cub::WarpScan<int>;
  __shared__ typename WS::TempStorage tmp[4];
  int w = threadIdx.x / 32;
  int v = in[blockIdx.x * 128 + threadIdx.x], r, agg;
  WS(tmp[w]).ExclusiveSum(v, r, agg);
  out[blockIdx.x * 128 + threadIdx.x] = r + agg;
}
__global__ void cub_block_max_float(const float* in, float* out, int n) {
  using BR = cub::BlockReduce<float, 128>;
  __shared__ typename BR::TempStorage tmp;
  int i = blockIdx.x * 128 + threadIdx.x;
  float v = i < n ? in[i] : -1e30f;
  float m = BR(tmp).Reduce(v, ::cuda::maximum<>{});
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}
__global__ void cub_block_scan_raking(const int* in, int* out) {
  using BS = cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING>;
  __shared__ typename BS::TempStorage tmp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  BS(tmp).InclusiveSum(v, v);
  out[blockIdx.x * 128 + threadIdx.x] = v;
}
