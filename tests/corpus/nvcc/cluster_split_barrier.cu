// corpus: -arch=sm_90
// Cluster split barrier (barrier.cluster.arrive.relaxed / .release + barrier.cluster.wait.acquire) around a
// DSMEM neighbour exchange, plus cluster-scope fences and a cluster-scope red (generic address) on remote shared memory.
#include <cooperative_groups.h>
#include <cuda/ptx>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_split_barrier(const float *in, float *out)
{
    __shared__ float halo[256];
    __shared__ int counter;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), nblk = cluster.num_blocks();
    halo[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) counter = 0;
    ptx::barrier_cluster_arrive(ptx::sem_relaxed);   // early arrive: only publishes "I started"
    float local = halo[threadIdx.x] * 2.0f;
    ptx::barrier_cluster_wait();
    cluster.sync();                                  // halo[] written everywhere
    float *right = cluster.map_shared_rank(halo, (rank + 1) % nblk);
    int *rc = cluster.map_shared_rank(&counter, (rank + 1) % nblk);
    asm volatile("red.relaxed.cluster.add.u32 [%0], 1;" :: "l"(rc) : "memory");   // no cluster scope in cuda::atomic_ref
    float r = right[threadIdx.x];
    ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
    ptx::barrier_cluster_arrive(ptx::sem_release);
    ptx::barrier_cluster_wait(ptx::sem_acquire);     // nobody exits while its smem is being read
    out[blockIdx.x * blockDim.x + threadIdx.x] = local + r + counter;
}
