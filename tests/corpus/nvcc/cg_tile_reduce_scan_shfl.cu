// corpus: -arch=sm_80
// Cooperative groups: cg::reduce over a 16-thread tile with any/all, coalesced_threads with exclusive_scan and a leader atomic, tile shfl_xor/shfl_up over 8 threads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void cg_tile16_sum(const int* in, int* out, int n) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(out, s);
  block.sync();
  if (tile.any(v > 100)) out[1 + tile.meta_group_rank()] = tile.all(v > 0);
}
__global__ void cg_coalesced_branch(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 1)) {
    auto g = cg::coalesced_threads();
    int prefix = cg::exclusive_scan(g, 1);
    int total = g.size();
    int base;
    if (g.thread_rank() == 0) base = atomicAdd(out, total);
    base = g.shfl(base, 0);
    out[1 + base + prefix] = in[i];
  }
}
__global__ void cg_tile_shfl(float* data) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  float v = data[threadIdx.x];
  for (int o = tile.size() / 2; o > 0; o /= 2) v = fmaxf(v, tile.shfl_xor(v, o));
  tile.sync();
  data[threadIdx.x] = v + tile.shfl_up(v, 1);
}
