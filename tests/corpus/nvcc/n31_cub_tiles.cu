// corpus: -arch=sm_80
// CUB block primitives as used in real tile kernels: BlockLoad/BlockStore with WARP_TRANSPOSE around a
// BlockRadixSort of key/value pairs with a partial tail, a BlockHistogram (atomic) of bytes merged into a global
// histogram, and a BlockScan exclusive sum with a running prefix callback over a loop of tiles.
#include <cub/cub.cuh>

template <int BLOCK, int ITEMS>
__device__ void sort_tile(const unsigned* keys_in, const float* vals_in, unsigned* keys_out, float* vals_out,
                          int n) {
    using LoadK = cub::BlockLoad<unsigned, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using LoadV = cub::BlockLoad<float, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<unsigned, BLOCK, ITEMS, float>;
    using StoreK = cub::BlockStore<unsigned, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using StoreV = cub::BlockStore<float, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename LoadK::TempStorage lk;
        typename LoadV::TempStorage lv;
        typename Sort::TempStorage sort;
        typename StoreK::TempStorage sk;
        typename StoreV::TempStorage sv;
    } tmp;
    int base = blockIdx.x * BLOCK * ITEMS;
    int valid = min(n - base, BLOCK * ITEMS);
    unsigned k[ITEMS];
    float v[ITEMS];
    LoadK(tmp.lk).Load(keys_in + base, k, valid, 0xffffffffu);
    __syncthreads();
    LoadV(tmp.lv).Load(vals_in + base, v, valid, 0.f);
    __syncthreads();
    Sort(tmp.sort).Sort(k, v, 0, 24);
    __syncthreads();
    StoreK(tmp.sk).Store(keys_out + base, k, valid);
    __syncthreads();
    StoreV(tmp.sv).Store(vals_out + base, v, valid);
}

extern "C" __global__ void n31_sort_pairs_tile(const unsigned* ki, const float* vi, unsigned* ko, float* vo, int n) {
    sort_tile<128, 4>(ki, vi, ko, vo, n);
}

extern "C" __global__ void n31_byte_histogram(const unsigned char* data, int n, unsigned* global_hist) {
    using Hist = cub::BlockHistogram<unsigned char, 256, 8, 256, cub::BLOCK_HISTO_ATOMIC>;
    using Load = cub::BlockLoad<unsigned char, 256, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Hist::TempStorage hist_tmp;
    __shared__ unsigned smem_hist[256];
    Hist(hist_tmp).InitHistogram(smem_hist);
    for (int base = blockIdx.x * 2048; base < n; base += gridDim.x * 2048) {
        unsigned char items[8];
        int valid = min(n - base, 2048);
        Load(load_tmp).Load(data + base, items, valid, (unsigned char)0);
        if (valid < 2048) {
            for (int i = 0; i < 8; ++i)
                if (threadIdx.x * 8 + i >= valid) items[i] = 0;
        }
        __syncthreads();
        Hist(hist_tmp).Composite(items, smem_hist);
        __syncthreads();
    }
    unsigned c = smem_hist[threadIdx.x];
    if (c) atomicAdd(&global_hist[threadIdx.x], c);
}

struct RunningPrefix {
    int total;
    __device__ RunningPrefix(int t) : total(t) {}
    __device__ int operator()(int block_aggregate) {
        int old = total;
        total += block_aggregate;
        return old;
    }
};

extern "C" __global__ void n31_scan_tiles_prefix(const int* in, int* out, int n) {
    using Scan = cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS>;
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Scan::TempStorage scan;
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } tmp;
    RunningPrefix prefix(0);
    int rows_base = blockIdx.x * n;
    for (int tile = 0; tile < n; tile += 512) {
        int items[4];
        int valid = min(n - tile, 512);
        Load(tmp.load).Load(in + rows_base + tile, items, valid, 0);
        __syncthreads();
        Scan(tmp.scan).InclusiveSum(items, items, prefix);
        __syncthreads();
        Store(tmp.store).Store(out + rows_base + tile, items, valid);
        __syncthreads();
    }
}

extern "C" __global__ void n31_radix_rank_keys_desc(const int* keys, int* out, int n) {
    using Sort = cub::BlockRadixSort<int, 256, 2>;
    __shared__ typename Sort::TempStorage tmp;
    int k[2];
    int base = blockIdx.x * 512;
    for (int i = 0; i < 2; ++i) {
        int idx = base + threadIdx.x * 2 + i;
        k[i] = idx < n ? keys[idx] : INT_MIN;
    }
    Sort(tmp).SortDescendingBlockedToStriped(k);
    for (int i = 0; i < 2; ++i) {
        int idx = base + i * 256 + threadIdx.x;
        if (idx < n) out[idx] = k[i];
    }
}
