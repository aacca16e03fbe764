// corpus: -arch=sm_90
// sm_90: a 2-CTA cluster exchanging shared memory through map_shared_rank, a bulk copy completing on a cuda::barrier with barrier_arrive_tx, a __threadfence flag spin with __nanosleep.
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) cluster_neighbor_sum(const int* in, int* out) {
  __shared__ int s[128];
  auto cluster = cg::this_cluster();
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  cluster.sync();
  int other = cluster.block_rank() ^ 1;
  int* remote = cluster.map_shared_rank(s, other);
  int v = remote[threadIdx.x];
  cluster.sync();
  out[blockIdx.x * 128 + threadIdx.x] = v + s[threadIdx.x];
}
__global__ void bulk_copy_barrier(const int4* in, int4* out) {
  __shared__ alignas(16) int4 buf[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) { init(&bar, blockDim.x); }
  __syncthreads();
  cuda::barrier<cuda::thread_scope_block>::arrival_token tok;
  if (threadIdx.x == 0) {
    cuda::memcpy_async(buf, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(buf)), bar);
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(buf));
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  out[blockIdx.x * 256 + threadIdx.x] = buf[threadIdx.x];
}
__global__ void grid_fence_flag(int* data, volatile int* flag) {
  data[blockIdx.x] = blockIdx.x;
  __threadfence();
  if (threadIdx.x == 0) atomicAdd((int*)flag, 1);
  if (blockIdx.x == 0 && threadIdx.x == 0) { while (*flag < gridDim.x) { __nanosleep(32); } }
  __syncthreads();
}
