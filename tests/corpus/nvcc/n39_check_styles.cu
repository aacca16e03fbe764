// corpus: -arch=sm_75
// Check kernels for helper nvbar39 (stop 39), another style than n39_radix_pairs / n39_block_late_loads: CUB's
// BlockLoad/BlockStore classes (transpose through shared memory) around a pair sort, a pair sort on a bit range
// inside a grid-stride loop, a BlockScan whose block aggregate a cooperative-groups leader publishes while a
// payload load is in flight, and a segmented BlockReduce with a payload read after the reduction.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(64) n39_check_load_transpose_sort(const int *keys, const double *vals,
                                                                              int *okeys, double *ovals, int n)
{
    using LoadK = cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using LoadV = cub::BlockLoad<double, 64, 4, cub::BLOCK_LOAD_DIRECT>;
    using Sort = cub::BlockRadixSort<int, 64, 4, double>;
    __shared__ union { typename LoadK::TempStorage lk; typename Sort::TempStorage sort; } tmp;
    int k[4];
    double v[4];
    int base = blockIdx.x * 256;
    LoadK(tmp.lk).Load(keys + base, k, n - base, INT_MAX);
    LoadV().Load(vals + base, v, n - base, 0.0);
    __syncthreads();
    Sort(tmp.sort).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, okeys + base, k, n - base);
    cub::StoreDirectBlocked(threadIdx.x, ovals + base, v, n - base);
}

extern "C" __global__ void __launch_bounds__(128) n39_check_tiles_bits(const unsigned *keys, const unsigned *vals,
                                                                     unsigned *okeys, unsigned *ovals, int tiles, int hi)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 2, unsigned>;
    __shared__ typename Sort::TempStorage tmp;
    int t = blockIdx.x;
    while (t < tiles) {
        unsigned k[2], v[2];
        cub::LoadDirectStriped<128>(threadIdx.x, keys + t * 256, k);
        cub::LoadDirectStriped<128>(threadIdx.x, vals + t * 256, v);
        Sort(tmp).SortBlockedToStriped(k, v, 0, hi);
        cub::StoreDirectStriped<128>(threadIdx.x, okeys + t * 256, k);
        cub::StoreDirectStriped<128>(threadIdx.x, ovals + t * 256, v);
        __syncthreads();
        t += gridDim.x;
    }
}

extern "C" __global__ void __launch_bounds__(256) n39_check_scan_publish(const int *flags, const float *payload,
                                                                       int *pos, float *out, int *block_counts)
{
    using Scan = cub::BlockScan<int, 256>;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ int total;
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * 256 + threadIdx.x;
    int f = flags[i] != 0;
    float p = payload[i];
    int x, agg;
    Scan(tmp).ExclusiveSum(f, x, agg);
    if (block.thread_rank() == 0) {
        total = agg;
        block_counts[blockIdx.x] = agg;
    }
    block.sync();
    pos[i] = x + total;
    if (f) out[blockIdx.x * 256 + x] = p * 2.0f;
}

extern "C" __global__ void __launch_bounds__(128) n39_check_reduce_payload(const float *x, const float *w, float *y,
                                                                         float *norms)
{
    using Reduce = cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename Reduce::TempStorage tmp;
    __shared__ float inv;
    int i = blockIdx.x * 128 + threadIdx.x;
    float a = x[i];
    float b = w[i];
    float s = Reduce(tmp).Sum(a * a);
    if (threadIdx.x == 0) {
        float r = rsqrtf(s + 1e-6f);
        inv = r;
        norms[blockIdx.x] = s;
    }
    __syncthreads();
    y[i] = a * inv * b;
}
