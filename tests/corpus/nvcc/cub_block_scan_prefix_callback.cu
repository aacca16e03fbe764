// corpus: -arch=sm_75
// Single-block scan of an arbitrarily long array: a loop over tiles with a running-total prefix callback
// functor (the CUB documentation pattern) around BlockLoad / BlockScan / BlockStore, once with
// RAKING_MEMOIZE (exclusive) and once with WARP_SCANS (inclusive); __syncthreads between tiles.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <typename T>
struct RunningPrefix {
    T running;
    __device__ RunningPrefix(T r) : running(r) {}
    __device__ T operator()(T block_aggregate)
    {
        T old = running;
        running += block_aggregate;
        return old;
    }
};

template <int THREADS, int ITEMS, cub::BlockScanAlgorithm ALG, bool INCLUSIVE, typename T>
__device__ void scan_all_tiles(const T *in, T *out, int n)
{
    using Load = cub::BlockLoad<T, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<T, THREADS, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
    using Scan = cub::BlockScan<T, THREADS, ALG>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } tmp;
    RunningPrefix<T> prefix(0);
    constexpr int TILE = THREADS * ITEMS;
    for (int base = 0; base < n; base += TILE) {
        T items[ITEMS];
        int valid = min(TILE, n - base);
        Load(tmp.load).Load(in + base, items, valid, T(0));
        __syncthreads();
        if (INCLUSIVE) Scan(tmp.scan).InclusiveSum(items, items, prefix);
        else Scan(tmp.scan).ExclusiveSum(items, items, prefix);
        __syncthreads();
        Store(tmp.store).Store(out + base, items, valid);
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(128) scan_prefix_callback_exclusive(const int *in, int *out, int n)
{
    scan_all_tiles<128, 4, cub::BLOCK_SCAN_RAKING_MEMOIZE, false>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(256) scan_prefix_callback_inclusive(const float *in, float *out, int n)
{
    scan_all_tiles<256, 2, cub::BLOCK_SCAN_WARP_SCANS, true>(in, out, n);
}
