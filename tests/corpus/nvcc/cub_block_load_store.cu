// corpus: -arch=sm_75
// cub::BlockLoad / cub::BlockStore with each algorithm around a SAXPY-like per-item operation:
// DIRECT (blocked, partial tile with default), VECTORIZE (ld.v4), TRANSPOSE (striped load + exchange) and
// WARP_TRANSPOSE (warp-striped + warp-local exchange, __syncwarp), with the temp storage unioned.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

template <int T, int I, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__device__ void axpy_tile(float a, const float *x, float *y, int n)
{
    using Load = cub::BlockLoad<float, T, I, LA>;
    using Store = cub::BlockStore<float, T, I, SA>;
    __shared__ union { typename Load::TempStorage l; typename Store::TempStorage s; } tmp;
    int base = blockIdx.x * T * I;
    int valid = min(T * I, n - base);
    float xv[I], yv[I];
    if (valid == T * I) {
        Load(tmp.l).Load(x + base, xv);
        __syncthreads();
        Load(tmp.l).Load(y + base, yv);
    } else {
        Load(tmp.l).Load(x + base, xv, valid, 0.f);
        __syncthreads();
        Load(tmp.l).Load(y + base, yv, valid, 0.f);
    }
#pragma unroll
    for (int k = 0; k < I; ++k) yv[k] = a * xv[k] + yv[k];
    __syncthreads();
    if (valid == T * I) Store(tmp.s).Store(y + base, yv);
    else Store(tmp.s).Store(y + base, yv, valid);
}

extern "C" __global__ void __launch_bounds__(128) block_load_direct(float a, const float *x, float *y, int n)
{ axpy_tile<128, 4, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(a, x, y, n); }

extern "C" __global__ void __launch_bounds__(128) block_load_vectorize(float a, const float *x, float *y, int n)
{ axpy_tile<128, 4, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(a, x, y, n); }

extern "C" __global__ void __launch_bounds__(256) block_load_transpose(float a, const float *x, float *y, int n)
{ axpy_tile<256, 4, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(a, x, y, n); }

extern "C" __global__ void __launch_bounds__(96) block_load_warp_transpose(float a, const float *x, float *y, int n)
{ axpy_tile<96, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(a, x, y, n); }
