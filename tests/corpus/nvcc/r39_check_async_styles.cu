// corpus: -arch=sm_80
// Check kernels for the ARRIVES R2UR loop rule, written after it in other styles: cooperative-groups tiles with
// their own barriers, hand-written PTX arrivals (.noinc) in a while loop with a sleeping wait, a split
// arrive/wait ring with a wrapped stage index, a templated three-stage ring closed by __syncthreads
// (helper nvreg39, stop 39).
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// each 16-thread tile copies a strip and waits on the barrier of its meta-group rank
__global__ void r39_check_tile_strips(const float2* __restrict__ src, float2* dst, int strip) {
  __shared__ float2 strips[16][64];
  __shared__ block_barrier bars[16];
  cg::thread_block blk = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(blk);
  const unsigned r = tile.meta_group_rank();
  if (tile.thread_rank() == 0) init(&bars[r], tile.size());
  blk.sync();
  cuda::memcpy_async(tile, strips[r], src + (size_t)(blockIdx.x * tile.meta_group_size() + r) * strip,
                     sizeof(float2) * 64, bars[r]);
  bars[r].arrive_and_wait();
  float2 a = strips[r][tile.thread_rank()];
  float2 b = strips[r][tile.thread_rank() + 16];
  dst[blockIdx.x * blockDim.x + threadIdx.x] = make_float2(a.x + b.x, a.y + b.y);
}

// hand-written PTX: per-quad barriers (four threads each), cp.async + arrive.noinc, then a sleeping wait
__global__ void r39_check_quad_noinc(const int* __restrict__ src, int* dst, int rounds) {
  __shared__ __align__(8) unsigned long long qbar[64];
  __shared__ int stage[256];
  const int t = threadIdx.x, q = t >> 2;
  const unsigned bar = (unsigned)__cvta_generic_to_shared(&qbar[q]);
  const unsigned slot = (unsigned)__cvta_generic_to_shared(&stage[t]);
  if ((t & 3) == 0) asm volatile("mbarrier.init.shared.b64 [%0], 4;" :: "r"(bar));
  __syncthreads();
  int acc = 0, i = 0;
  while (i < rounds) {
    const int* g = src + (size_t)i * blockDim.x + t;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(slot), "l"(g));
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(bar));
    unsigned long long tok;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(tok) : "r"(bar));
    unsigned done = 0;
    for (;;) {
      asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(bar), "l"(tok));
      if (done) break;
      __nanosleep(32);
    }
    acc ^= stage[t] + i;
    ++i;
  }
  dst[blockIdx.x * blockDim.x + t] = acc;
}

// split arrive / wait on a ring whose stage wraps by compare, block-wide copies
template <int S>
__global__ void r39_check_split_ring(const double* __restrict__ src, double* dst, int tiles) {
  __shared__ double ring[S][128];
  __shared__ block_barrier bars[S];
  auto blk = cg::this_thread_block();
  if (blk.thread_rank() < S) init(&bars[blk.thread_rank()], blk.size());
  blk.sync();
  double sum = 0.0;
  int stage = 0, tile = 0;
  do {
    cuda::memcpy_async(blk, ring[stage], src + (size_t)tile * 128, sizeof(double) * 128, bars[stage]);
    auto token = bars[stage].arrive();
    bars[stage].wait(std::move(token));
    sum += ring[stage][threadIdx.x & 127];
    stage = (stage + 1 == S) ? 0 : stage + 1;
  } while (++tile < tiles);
  dst[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
template __global__ void r39_check_split_ring<2>(const double*, double*, int);
template __global__ void r39_check_split_ring<3>(const double*, double*, int);

// a three-stage ring whose every trip ends in __syncthreads (the stage index stays uniform)
__global__ void r39_check_synced_ring(const int2* __restrict__ src, int2* dst, int tiles) {
  __shared__ int2 ring[3][256];
  __shared__ block_barrier bars[3];
  if (threadIdx.x < 3) init(&bars[threadIdx.x], blockDim.x);
  __syncthreads();
  int2 acc = make_int2(0, 0);
  for (int k = 0; k < tiles; ++k) {
    const int s = k % 3;
    cuda::memcpy_async(&ring[s][threadIdx.x], src + (size_t)k * blockDim.x + threadIdx.x, sizeof(int2), bars[s]);
    bars[s].arrive_and_wait();
    acc.x += ring[s][threadIdx.x].x;
    acc.y -= ring[s][threadIdx.x].y;
    __syncthreads();
  }
  dst[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
