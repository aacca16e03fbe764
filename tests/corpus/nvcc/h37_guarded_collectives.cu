// corpus: -arch=sm_75
// Warp collectives in loops right after a guarded load (helper nvcoll37, stop 37): search loops that leave on a
// ballot / any, chunked reductions whose tail lanes load nothing, a match in a grid-stride loop.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. first column of a row equal to key, one warp per row, float keys, __any_sync then a ballot in the hit path
extern "C" __global__ void h37_row_find_any(const float *m, int *out, int rows, int cols, float key)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= rows) return;
    const float *row = m + (size_t)w * cols;
    int pos = -1;
    for (int j0 = 0; j0 < cols; j0 += 32) {
        int j = j0 + lane;
        bool hit = false;
        if (j < cols) hit = row[j] == key;
        if (__any_sync(0xffffffffu, hit)) {
            pos = j0 + __ffs(__ballot_sync(0xffffffffu, hit)) - 1;
            break;
        }
    }
    if (lane == 0) out[w] = pos;
}

// 2. count positives of a row with a tile<32> ballot each chunk, stop at the first zero element
extern "C" __global__ void h37_tile_count_until_zero(const int *v, int *count, int n)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int warp = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();
    const int *row = v + (size_t)warp * n;
    int total = 0;
    for (int base = 0; base < n; base += 32) {
        int i = base + tile.thread_rank();
        int x = i < n ? row[i] : 1;
        unsigned pos = tile.ballot(x > 0);
        unsigned zero = tile.ballot(x == 0);
        total += __popc(pos);
        if (zero) break;
    }
    if (tile.thread_rank() == 0) count[warp] = total;
}

// 3. chunked warp sum over a row: guarded load, shuffle-xor butterfly per chunk (a loop with a uniform trip count)
extern "C" __global__ void h37_row_sum_chunks(const float *x, float *y, int rows, int cols)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= rows) return;
    float acc = 0.f;
    for (int j0 = 0; j0 < cols; j0 += 32) {
        float v = 0.f;
        if (j0 + lane < cols) v = x[(size_t)w * cols + j0 + lane];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        acc += v;
    }
    if (lane == 0) y[w] = acc;
}

// 4. max of a row with __reduce_max_sync per chunk (sm_80+ redux), stop when the max reaches a cap
extern "C" __global__ void h37_row_max_cap(const int *x, int *y, int rows, int cols, int cap)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= rows) return;
    int best = -2147483647;
    for (int j0 = 0; j0 < cols; j0 += 32) {
        int v = -2147483647;
        if (j0 + lane < cols) v = x[(size_t)w * cols + j0 + lane];
#if __CUDA_ARCH__ >= 800
        v = __reduce_max_sync(0xffffffffu, v);
#else
        for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
#endif
        best = max(best, v);
        if (best >= cap) break;
    }
    if (lane == 0) y[w] = best;
}

// 5. sorted-array lower bound, one warp per query, 64-bit data, ballot picks the first lane not below the query
extern "C" __global__ void h37_warp_lower_bound(const long long *a, const long long *q, int *out, int n, int nq)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= nq) return;
    long long key = q[w];
    int pos = n;
    for (int base = 0; base < n; base += 32) {
        int i = base + lane;
        bool ge = i < n && a[i] >= key;
        unsigned b = __ballot_sync(0xffffffffu, ge);
        if (b != 0u) { pos = base + __ffs(b) - 1; break; }
    }
    if (lane == 0) out[w] = pos;
}

// 6. a grid-stride loop: guarded byte load, shuffle broadcast of lane 0's flag, store where the flag is set
extern "C" __global__ void h37_grid_flag_bcast(const unsigned char *f, float *out, int n)
{
    int lane = threadIdx.x & 31;
    int stride = blockDim.x * gridDim.x;
    for (int base = blockIdx.x * blockDim.x; base < n; base += stride) {
        int i = base + threadIdx.x;
        int flag = 0;
        if (i < n) flag = f[i];
        int lead = __shfl_sync(0xffffffffu, flag, 0);
        if (lead && i < n) out[i] = (float)lane;
    }
}

// 7. half-warp search with a tile<16>: guarded load, tile.any, leave on a hit
extern "C" __global__ void h37_tile16_any_hit(const int *keys, const int *queries, int *found, int n)
{
    auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
    int g = blockIdx.x * (blockDim.x / 16) + t16.meta_group_rank();
    int q = queries[g];
    int hit_at = -1;
    for (int base = 0; base < n; base += 16) {
        int i = base + t16.thread_rank();
        int k = -1;
        if (i < n) k = keys[i];
        if (t16.any(k == q)) { hit_at = base; break; }
    }
    if (t16.thread_rank() == 0) found[g] = hit_at;
}
