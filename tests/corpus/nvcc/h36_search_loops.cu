// corpus: -arch=sm_80
// Loops with breaks and early returns, nested ifs, while loops with a divergent exit, search loops
// (helper nvreg36, stop 36).
#include <cstdint>

// Linear search for the first element equal to key in a per-thread segment; early return when found.
extern "C" __global__ void h36_find_first(const int *a, const int *seg, int *pos, int nseg, int key)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    int b = seg[s], e = seg[s + 1];
    for (int i = b; i < e; ++i) {
        if (a[i] == key) {
            pos[s] = i;
            return;
        }
    }
    pos[s] = -1;
}

// Binary search (lower bound) in a sorted array per query.
extern "C" __global__ void h36_lower_bound(const float *sorted, const float *q, int *out, int n, int nq)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nq) {
        float v = q[t];
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (sorted[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        out[t] = lo;
    }
}

// Collatz step counts with a cap: while loop with a divergent exit and nested ifs.
extern "C" __global__ void h36_collatz(const unsigned *seed, int *steps, int n, int cap)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned x = seed[t];
    int c = 0;
    while (x != 1u) {
        if (x & 1u) {
            if (x > 0x55555554u) { c = -1; break; }
            x = 3u * x + 1u;
        } else {
            x >>= 1;
        }
        if (++c >= cap) break;
    }
    steps[t] = c;
}

// Hash-table probe with linear probing: break on hit or empty slot, a count of probes stored.
extern "C" __global__ void h36_hash_lookup(const unsigned *keys, const int *vals, const unsigned *q, int *out,
                                           int *probes, unsigned mask, int nq)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nq) return;
    unsigned k = q[t];
    unsigned h = (k * 2654435761u) & mask;
    int r = -1, p = 0;
    for (;;) {
        unsigned kk = keys[h];
        ++p;
        if (kk == k) { r = vals[h]; break; }
        if (kk == 0xffffffffu) break;
        h = (h + 1) & mask;
        if (p > 64) break;
    }
    out[t] = r;
    if (probes) probes[t] = p;
}

// Row scan for the first value above a threshold, then a second loop over the rest of the row.
extern "C" __global__ void h36_first_above_then_sum(const float *m, float *out, int rows, int cols, float th)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *row = m + (size_t)r * cols;
    int j = 0;
    while (j < cols && row[j] <= th) ++j;
    float s = 0.f;
    for (int k = j; k < cols; ++k) s += row[k];
    out[r] = j < cols ? s : -1.f;
}

// Newton iteration in double with a convergence break and an iteration cap.
extern "C" __global__ void h36_newton_sqrt(const double *a, double *x, int n, double tol)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        double v = a[t];
        if (v <= 0.0) {
            x[t] = 0.0;
        } else {
            double y = v > 1.0 ? v : 1.0;
            for (int it = 0; it < 40; ++it) {
                double ny = 0.5 * (y + v / y);
                if (fabs(ny - y) < tol * ny) { y = ny; break; }
                y = ny;
            }
            x[t] = y;
        }
    }
}

// Warp-cooperative search: each warp scans a row in chunks of 32, ballot to find the first hit, then breaks.
extern "C" __global__ void h36_warp_find(const int *m, int *out, int rows, int cols, int key)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= rows) return;
    const int *row = m + (size_t)w * cols;
    int found = -1;
    for (int j0 = 0; j0 < cols; j0 += 32) {
        int j = j0 + lane;
        bool hit = j < cols && row[j] == key;
        unsigned b = __ballot_sync(0xffffffffu, hit);
        if (b) { found = j0 + __ffs(b) - 1; break; }
    }
    if (lane == 0) out[w] = found;
}

// Nested ifs inside a loop with continue and an early exit on a sentinel.
extern "C" __global__ void h36_clip_until_sentinel(const float *in, float *out, int *len, int n, int stride,
                                                   float lo, float hi)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= stride) return;
    int k = 0;
    for (int i = t; i < n; i += stride) {
        float v = in[i];
        if (v != v) break;
        if (v < lo) {
            if (v < 2.f * lo) continue;
            v = lo;
        } else if (v > hi) {
            v = hi;
        }
        out[i] = v;
        ++k;
    }
    len[t] = k;
}

// Block loop with a shared flag: threads search, first hit sets the flag, all stop at the next barrier.
extern "C" __global__ void __launch_bounds__(128) h36_block_search(const int *a, int *res, int n, int key)
{
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0x7fffffff;
    __syncthreads();
    for (int base = blockIdx.x * 128; base < n; base += gridDim.x * 128) {
        int i = base + threadIdx.x;
        if (i < n && a[i] == key) atomicMin(&flag, i);
        __syncthreads();
        if (flag != 0x7fffffff) break;
    }
    if (threadIdx.x == 0 && flag != 0x7fffffff) atomicMin(res, flag);
}

// Bisection root find per thread on a cubic with an early return for a bracket failure.
extern "C" __global__ void h36_bisect_cubic(const float *c, float *root, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float c0 = c[4 * t], c1 = c[4 * t + 1], c2 = c[4 * t + 2], c3 = c[4 * t + 3];
    float a = -10.f, b = 10.f;
    float fa = ((c3 * a + c2) * a + c1) * a + c0;
    float fb = ((c3 * b + c2) * b + c1) * b + c0;
    if (fa * fb > 0.f) { root[t] = __int_as_float(0x7fc00000); return; }
    for (int it = 0; it < 30; ++it) {
        float m = 0.5f * (a + b);
        float fm = ((c3 * m + c2) * m + c1) * m + c0;
        if (fm == 0.f) { a = b = m; break; }
        if ((fm < 0.f) == (fa < 0.f)) { a = m; fa = fm; } else { b = m; }
    }
    root[t] = 0.5f * (a + b);
}
