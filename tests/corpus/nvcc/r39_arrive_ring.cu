// corpus: -arch=sm_80
// cp.async arrivals on mbarriers (cuda::barrier + cuda::memcpy_async, __pipeline_arrive_on): the barrier is
// picked by a loop stage, a warp index, a constant, or under a guard (helper nvreg39, stop 39).
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

// two-stage ring over int4 tiles, stage = k & 1
__global__ void r39_ring2_int4(const int4* __restrict__ in, int* out, int tiles) {
  __shared__ int4 buf[2][128];
  __shared__ barrier_t bar[2];
  auto block = cg::this_thread_block();
  if (threadIdx.x == 0) { init(&bar[0], blockDim.x); init(&bar[1], blockDim.x); }
  __syncthreads();
  cuda::memcpy_async(block, buf[0], in, cuda::aligned_size_t<16>(sizeof(int4) * 128), bar[0]);
  int acc = 0;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      cuda::memcpy_async(block, buf[(k + 1) & 1], in + (k + 1) * 128,
                         cuda::aligned_size_t<16>(sizeof(int4) * 128), bar[(k + 1) & 1]);
    bar[k & 1].arrive_and_wait();
    int4 v = buf[k & 1][threadIdx.x & 127];
    acc += v.x + v.y + v.z + v.w;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// three-stage ring of floats, per-thread element copies (thread scope), stage = k % 3
__global__ void r39_ring3_thread(const float* __restrict__ in, float* out, int n, int steps) {
  __shared__ float buf[3][256];
  __shared__ barrier_t bar[3];
  if (threadIdx.x < 3) init(&bar[threadIdx.x], blockDim.x);
  __syncthreads();
  float s = 0.f;
  for (int k = 0; k < steps; ++k) {
    int st = k % 3;
    int g = k * blockDim.x + threadIdx.x;
    if (g < n) cuda::memcpy_async(&buf[st][threadIdx.x], in + g, sizeof(float), bar[st]);
    else buf[st][threadIdx.x] = 0.f;
    bar[st].arrive_and_wait();
    s += buf[st][threadIdx.x] * 0.5f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// one barrier per warp: the warp copies its own row, bar[warp]
__global__ void r39_per_warp_rows(const float* __restrict__ in, float* out, int cols) {
  __shared__ float rows[8][128];
  __shared__ barrier_t bar[8];
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (lane == 0) init(&bar[warp], 32);
  __syncwarp();
  const float* src = in + (blockIdx.x * 8 + warp) * cols;
  cuda::memcpy_async(tile, rows[warp], src, sizeof(float) * 128, bar[warp]);
  bar[warp].arrive_and_wait();
  float m = rows[warp][lane];
  for (int j = lane + 32; j < 128; j += 32) m = fmaxf(m, rows[warp][j]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (lane == 0) out[blockIdx.x * 8 + warp] = m;
}

// primitives: __pipeline_memcpy_async then __pipeline_arrive_on a fixed barrier (no ring)
__global__ void r39_prim_fixed(const double* __restrict__ in, double* out, int n) {
  __shared__ double buf[256];
  __shared__ __mbarrier_t bar;
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&bar)), "r"((int)blockDim.x));
  __syncthreads();
  if (t < n) __pipeline_memcpy_async(&buf[t], in + blockIdx.x * 256 + t, sizeof(double));
  __pipeline_arrive_on(&bar);
  unsigned long long tok;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(tok) : "r"((unsigned)__cvta_generic_to_shared(&bar)));
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"((unsigned)__cvta_generic_to_shared(&bar)), "l"(tok));
  out[blockIdx.x * 256 + t] = buf[t] * 2.0;
}

// primitives in a ring: __pipeline_arrive_on(&bars[k & 3]) inside a while loop
__global__ void r39_prim_ring4(const float4* __restrict__ in, float4* out, int tiles) {
  __shared__ float4 buf[4][64];
  __shared__ __mbarrier_t bars[4];
  int t = threadIdx.x;
  if (t < 4) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&bars[t])), "r"((int)blockDim.x));
  __syncthreads();
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  int k = 0;
  while (k < tiles) {
    int s = k & 3;
    if (t < 64) __pipeline_memcpy_async(&buf[s][t], in + k * 64 + t, sizeof(float4));
    __pipeline_arrive_on(&bars[s]);
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bars[s]);
    unsigned long long tok;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(tok) : "r"(addr));
    unsigned ok = 0;
    while (!ok)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(addr), "l"(tok));
    if (t < 64) { float4 v = buf[s][t]; acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w; }
    ++k;
  }
  if (t < 64) out[blockIdx.x * 64 + t] = acc;
}

// a guarded producer: only the first half of the block copies and arrives on bar[blockIdx.x & 1]
__global__ void r39_guarded_producer(const int* __restrict__ in, int* out) {
  __shared__ int buf[2][128];
  __shared__ barrier_t bar[2];
  if (threadIdx.x == 0) { init(&bar[0], 128); init(&bar[1], 128); }
  __syncthreads();
  int st = blockIdx.x & 1;
  if (threadIdx.x < 128) {
    cuda::memcpy_async(&buf[st][threadIdx.x], in + blockIdx.x * 128 + threadIdx.x, sizeof(int), bar[st]);
    bar[st].arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = buf[st][threadIdx.x] + 1;
  }
}

// a do-while over half-tiles whose barrier is chosen by the thread's half (per-thread address)
__global__ void r39_half_bars(const float* __restrict__ in, float* out, int reps) {
  __shared__ float buf[256];
  __shared__ barrier_t bar[2];
  int half = threadIdx.x >= 128;
  if (threadIdx.x == 0 || threadIdx.x == 128) init(&bar[half], 128);
  __syncthreads();
  float s = 0.f;
  int r = 0;
  do {
    cuda::memcpy_async(&buf[threadIdx.x], in + r * 256 + threadIdx.x, sizeof(float), bar[half]);
    bar[half].arrive_and_wait();
    s += buf[threadIdx.x];
    __syncthreads();
  } while (++r < reps);
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
