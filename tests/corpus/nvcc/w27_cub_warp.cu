// corpus: -arch=sm_90
// CUB warp primitives: WarpReduce (sum, max, segmented head-flag), WarpScan (inclusive/exclusive with a
// running prefix across a loop), WarpExchange (blocked <-> striped) and WarpLoad.
#include <cub/cub.cuh>

extern "C" __global__ void w27_cub_warp_reduce_loop(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    using WR = cub::WarpReduce<float>;
    __shared__ typename WR::TempStorage ts[4];
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int r = blockIdx.x * 4 + w; r < rows; r += gridDim.x * 4) {
        float acc = 0.f;
        for (int c = lane; c < cols; c += 32) acc += x[(size_t)r * cols + c];
        float s = WR(ts[w]).Sum(acc);
        float m = WR(ts[w]).Reduce(acc, ::cuda::maximum<>());
        if (lane == 0) out[r] = s / m;
    }
}

extern "C" __global__ void w27_cub_warp_scan_running(const int* __restrict__ x, int* __restrict__ y, int n) {
    using WS = cub::WarpScan<int>;
    __shared__ typename WS::TempStorage ts[4];
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int running = 0;
    for (int base = (blockIdx.x * 4 + w) * 32; base < n; base += gridDim.x * 128) {
        int i = base + lane;
        int v = i < n ? x[i] : 0;
        int incl, agg;
        WS(ts[w]).InclusiveSum(v, incl, agg);
        if (i < n) y[i] = running + incl;
        running += agg;
    }
}

extern "C" __global__ void w27_cub_warp_segreduce(const int* __restrict__ x, const int* __restrict__ flags,
                                                  int* __restrict__ out, int n) {
    using WR = cub::WarpReduce<int>;
    __shared__ typename WR::TempStorage ts[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = threadIdx.x >> 5;
    int v = i < n ? x[i] : 0;
    int f = i < n ? flags[i] : 1;
    int s = WR(ts[w]).HeadSegmentedSum(v, f);
    if (f && i < n) out[i] = s;
}

extern "C" __global__ void w27_cub_warp_exchange_load(const int* __restrict__ x, int* __restrict__ y, int n) {
    constexpr int IPT = 4;
    using WL = cub::WarpLoad<int, IPT, cub::WARP_LOAD_TRANSPOSE, 32>;
    using WE = cub::WarpExchange<int, IPT, 32>;
    __shared__ typename WL::TempStorage lts[2];
    __shared__ typename WE::TempStorage ets[2];
    int w = threadIdx.x >> 5;
    int off = (blockIdx.x * 2 + w) * 32 * IPT;
    int items[IPT];
    if (off + 32 * IPT <= n) {
        WL(lts[w]).Load(x + off, items);
    } else {
        WL(lts[w]).Load(x + off, items, n - off, 0);
    }
#pragma unroll
    for (int j = 0; j < IPT; ++j) items[j] = items[j] * 2 + 1;
    WE(ets[w]).BlockedToStriped(items, items);
#pragma unroll
    for (int j = 0; j < IPT; ++j) {
        int idx = off + j * 32 + (threadIdx.x & 31);
        if (idx < n) y[idx] = items[j];
    }
}
