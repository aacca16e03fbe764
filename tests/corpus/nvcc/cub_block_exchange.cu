// corpus: -arch=sm_75
// cub::BlockExchange rearrangements through shared memory: striped -> blocked after a coalesced load (with
// a per-thread local reduction), blocked -> warp-striped before a store, and ScatterToStriped with computed
// ranks (the scatter half of a partition), with and without bank-conflict padding (WARP_TIME_SLICING).
#include <cub/block/block_exchange.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_exchange_striped_to_blocked(const int *in, int *out)
{
    using EX = cub::BlockExchange<int, 128, 4>;
    __shared__ typename EX::TempStorage tmp;
    int v[4];
    const int *p = in + blockIdx.x * 512;
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = p[k * 128 + threadIdx.x];
    EX(tmp).StripedToBlocked(v, v);
    int run = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) { run += v[k]; v[k] = run; }
    __syncthreads();
    EX(tmp).BlockedToWarpStriped(v, v);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < 4; ++k) out[blockIdx.x * 512 + warp * 128 + k * 32 + lane] = v[k];
}

extern "C" __global__ void __launch_bounds__(256)
block_exchange_scatter_time_sliced(const float *in, const int *rank, float *out)
{
    using EX = cub::BlockExchange<float, 256, 2, true>;
    __shared__ typename EX::TempStorage tmp;
    float v[2];
    int r[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        v[k] = in[blockIdx.x * 512 + threadIdx.x * 2 + k];
        r[k] = rank[blockIdx.x * 512 + threadIdx.x * 2 + k] & 511;
    }
    EX(tmp).ScatterToStriped(v, v, r);
#pragma unroll
    for (int k = 0; k < 2; ++k) out[blockIdx.x * 512 + k * 256 + threadIdx.x] = v[k];
}
