// corpus: -arch=sm_80
// cuda::memcpy_async double buffering on two cuda::barriers, and a three-stage cuda::pipeline (producer_acquire/commit, consumer_wait/release).
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void double_buffer_barrier(const float* in, float* out, int chunks) {
  __shared__ float buf[2][256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar[2];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) { init(&bar[0], block.size()); init(&bar[1], block.size()); }
  block.sync();
  cuda::memcpy_async(block, buf[0], in, sizeof(float) * 256, bar[0]);
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    if (c + 1 < chunks)
      cuda::memcpy_async(block, buf[(c + 1) & 1], in + (c + 1) * 256, sizeof(float) * 256, bar[(c + 1) & 1]);
    bar[c & 1].arrive_and_wait();
    acc += buf[c & 1][threadIdx.x];
    block.sync();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
__global__ void pipeline_three_stage(const int* in, int* out, int n) {
  constexpr int S = 3;
  __shared__ int sm[S][128];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> st;
  auto pipe = cuda::make_pipeline(block, &st);
  int sum = 0;
  for (int f = 0, c = 0; c < n; ++c) {
    for (; f < n && f < c + S; ++f) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, sm[f % S], in + f * 128, cuda::aligned_size_t<16>(sizeof(int) * 128), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    sum += sm[c % S][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}
