// corpus: -arch=sm_90
// Distributed-shared-memory histogram (CUDA programming guide style): cluster.sync(), map_shared_rank
// (mapa), remote shared atomics, block_rank; cluster dims fixed with __cluster_dims__.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_dsmem_histogram(int *bins, int nbins, int bins_per_block, const int *input, size_t n)
{
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
    cluster.sync();
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = input[i];
        if (b < 0) b = 0; else if (b >= nbins) b = nbins - 1;
        int dst_block = b / bins_per_block;
        int dst_off = b % bins_per_block;
        int *dst = cluster.map_shared_rank(smem, dst_block);
        atomicAdd(dst + dst_off, 1);
    }
    cluster.sync();
    int *lbins = bins + blockIdx.x / cluster.num_blocks() * nbins + rank * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}
