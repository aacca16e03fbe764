// corpus: -arch=sm_75
// Check kernels for helper nvcoll37's rule (stop 37), written after it: warp search and scan loops with guarded loads.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// a warp walks a linked bucket table in chunks of 32 slots until one slot holds the key or an empty slot is seen
extern "C" __global__ void h37_check_bucket_probe(const unsigned *slots, const unsigned *keys, int *where, int nkeys,
                                                  int nslots)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (w >= nkeys) return;
    unsigned k = keys[w];
    int start = (k * 2654435761u) % nslots;
    int res = -1;
    for (int c = 0; c < nslots; c += 32) {
        int s = start + c + lane;
        unsigned v = 0xffffffffu;
        if (s < nslots) v = slots[s];
        unsigned eq = __ballot_sync(0xffffffffu, v == k);
        unsigned empty = __ballot_sync(0xffffffffu, v == 0u);
        if (eq) { res = start + c + __ffs(eq) - 1; break; }
        if (empty) break;
    }
    if (lane == 0) where[w] = res;
}

// warp-level running maximum of a row until it exceeds a threshold; tile<32> shuffles, double values
extern "C" __global__ void h37_check_row_threshold(const double *x, int *first_over, int rows, int cols, double thr)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int r = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();
    if (r >= rows) return;
    int at = cols;
    for (int c0 = 0; c0 < cols; c0 += 32) {
        int c = c0 + tile.thread_rank();
        double v = c < cols ? x[(size_t)r * cols + c] : -1.0;
        double m = v;
        for (int o = 16; o > 0; o /= 2) m = fmax(m, tile.shfl_xor(m, o));
        if (m > thr) { at = c0; break; }
    }
    if (tile.thread_rank() == 0) first_over[r] = at;
}

// count leading non-zero bytes of a string per warp: guarded byte load, __all_sync, leave on the first zero
extern "C" __global__ void h37_check_strlen_warp(const char *const *strs, int *len, int nstr, int maxlen)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= nstr) return;
    const char *s = strs[w];
    int n = 0;
    for (int i0 = 0; i0 < maxlen; i0 += 32) {
        char ch = 0;
        if (i0 + lane < maxlen) ch = s[i0 + lane];
        if (__all_sync(0xffffffffu, ch != 0)) { n += 32; continue; }
        n += __ffs(__ballot_sync(0xffffffffu, ch == 0)) - 1;
        break;
    }
    if (lane == 0) len[w] = n;
}

// a grid-stride loop: guarded load, warp-aggregated count of matches with one atomic per warp, stop early when
// a sentinel value appears in the warp's chunk
extern "C" __global__ void h37_check_count_until_sentinel(const int *v, int *count, int n, int key, int sentinel)
{
    int lane = threadIdx.x & 31;
    for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < n; base += blockDim.x * gridDim.x) {
        int i = base + lane;
        int x = 0;
        if (i < n) x = v[i];
        unsigned m = __ballot_sync(0xffffffffu, x == key);
        if (lane == 0 && m) atomicAdd(count, __popc(m));
        if (__any_sync(0xffffffffu, x == sentinel)) break;
    }
}
