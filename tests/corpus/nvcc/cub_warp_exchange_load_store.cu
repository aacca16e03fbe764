// corpus: -arch=sm_75
// Warp-scoped data movement: cub::WarpLoad / cub::WarpStore with TRANSPOSE (shared-memory exchange per warp) and
// VECTORIZE, and cub::WarpExchange both through shared memory (StripedToBlocked) and through shuffles
// (WARP_EXCHANGE_SHUFFLE, BlockedToStriped), around a per-thread sequential prefix.
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>

extern "C" __global__ void __launch_bounds__(128)
warp_load_store_transpose(const int *in, int *out)
{
    constexpr int ITEMS = 4, WARPS = 4;
    using Load = cub::WarpLoad<int, ITEMS, cub::WARP_LOAD_TRANSPOSE>;
    using Store = cub::WarpStore<int, ITEMS, cub::WARP_STORE_TRANSPOSE>;
    __shared__ union { typename Load::TempStorage l[WARPS]; typename Store::TempStorage s[WARPS]; } tmp;
    int warp = threadIdx.x / 32;
    int off = (blockIdx.x * WARPS + warp) * 32 * ITEMS;
    int v[ITEMS];
    Load(tmp.l[warp]).Load(in + off, v);
    for (int k = 1; k < ITEMS; ++k) v[k] += v[k - 1];
    __syncwarp();
    Store(tmp.s[warp]).Store(out + off, v);
}

extern "C" __global__ void __launch_bounds__(64)
warp_exchange_smem_and_shuffle(const float *in, float *out, int n)
{
    constexpr int ITEMS = 8;
    using ExS = cub::WarpExchange<float, ITEMS, 32, cub::WARP_EXCHANGE_SMEM>;
    using ExF = cub::WarpExchange<float, ITEMS, 8, cub::WARP_EXCHANGE_SHUFFLE>;
    using Load = cub::WarpLoad<float, ITEMS, cub::WARP_LOAD_VECTORIZE>;
    __shared__ typename ExS::TempStorage xs[2];
    __shared__ typename Load::TempStorage ls[2];
    __shared__ typename ExF::TempStorage fs[8];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int off = (blockIdx.x * 2 + warp) * 32 * ITEMS;
    float v[ITEMS];
    if (off + 32 * ITEMS <= n) Load(ls[warp]).Load(in + off, v);
    else Load(ls[warp]).Load(in + off, v, n - off, 0.f);
    ExS(xs[warp]).StripedToBlocked(v, v);
    float m = v[0];
    for (int k = 1; k < ITEMS; ++k) { m = fmaxf(m, v[k]); v[k] = m; }
    ExF(fs[warp * 4 + lane / 8]).BlockedToStriped(v, v);   // within each group of 8 lanes
    for (int k = 0; k < ITEMS; ++k) {
        int j = off + (lane / 8) * 64 + k * 8 + lane % 8;
        if (j < n) out[j] = v[k];
    }
}
