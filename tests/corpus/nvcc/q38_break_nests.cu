// corpus: -arch=sm_80
// Loops whose body is an if/else with a break or continue inside one arm, nested ifs, per-thread sorts and a
// time-stepped stencil (helper nvreg38, stop 38).
#include <cstdint>

// Euclid by subtraction with a step cap: the cap test breaks out of one arm of the if/else.
extern "C" __global__ void q38_gcd_steps(const int *a, const int *b, int *g, int *steps, int n, int cap)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int x = a[t], y = b[t], s = 0;
    while (x != y) {
        if (x > y) {
            if (s > cap) { s = -1; break; }
            x -= y;
        } else {
            y -= x;
        }
        ++s;
    }
    g[t] = x;
    steps[t] = s;
}

// Saturating integer filter over a grid-stride range: negative outliers are skipped with a continue.
extern "C" __global__ void q38_sat_filter(const int *in, int *out, unsigned *kept, int n, int lo, int hi)
{
    unsigned k = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (v > hi) {
            if (v > 4 * hi) continue;
            v = hi;
        } else if (v < lo) {
            v = lo;
        }
        out[i] = v;
        ++k;
    }
    kept[blockIdx.x * blockDim.x + threadIdx.x] = k;
}

// Rejection sampling with an LCG: out-of-range draws retry, an odd draw past a bound gives up.
extern "C" __global__ void q38_reject_sample(const unsigned *seed, float *out, int n, unsigned lim, int tries)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned x = seed[t];
    float r = -1.f;
    for (int k = 0; k < tries; ++k) {
        x = x * 1664525u + 1013904223u;
        if (x & 0x80000000u) {
            if ((x & 0xffu) == 0xffu) { r = -2.f; break; }
            x ^= x >> 7;
        } else {
            x += 0x9e3779b9u;
        }
        if (x < lim) { r = (float)x / (float)lim; break; }
    }
    out[t] = r;
}

// Fixed-point iteration with a divergence guard in the growing arm.
extern "C" __global__ void q38_fixed_point(const float *c, float *out, int *iters, int n, int maxit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float z = 0.f, cc = c[t];
    int it = 0;
    for (; it < maxit; ++it) {
        float nz = z * z + cc;
        if (nz > z) {
            if (nz > 1e6f) { it = -it; break; }
            z = nz;
        } else {
            z = 0.5f * (z + nz);
        }
    }
    out[t] = z;
    iters[t] = it;
}

// Per-thread insertion sort of 8 keys in registers/local memory, then a strided store.
extern "C" __global__ void q38_insertion_sort8(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a[8];
    for (int i = 0; i < 8; ++i) a[i] = in[t * 8 + i];
    for (int i = 1; i < 8; ++i) {
        float key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; --j; }
        a[j + 1] = key;
    }
    for (int i = 0; i < 8; ++i) out[t * 8 + i] = a[i];
}

// A token-class scan: digits accumulate, spaces are skipped, anything else ends the number.
extern "C" __global__ void q38_parse_uint(const char *text, const int *start, int *val, int n, int maxlen)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const char *p = text + start[t];
    int v = 0;
    for (int i = 0; i < maxlen; ++i) {
        char ch = p[i];
        if (ch >= '0' && ch <= '9') {
            if (v > 214748363) { v = -1; break; }
            v = v * 10 + (ch - '0');
        } else if (ch == ' ') {
            continue;
        } else {
            break;
        }
    }
    val[t] = v;
}

// 1D heat equation, time steps in shared memory with a barrier per step and halo ifs.
template <int B>
__device__ void heat_steps(const float *in, float *out, int n, int steps, float r)
{
    __shared__ float s[2][B + 2];
    int tx = threadIdx.x, g = blockIdx.x * B + tx;
    s[0][tx + 1] = g < n ? in[g] : 0.f;
    if (tx == 0) s[0][0] = g > 0 ? in[g - 1] : 0.f;
    if (tx == B - 1) s[0][B + 1] = g + 1 < n ? in[g + 1] : 0.f;
    __syncthreads();
    int cur = 0;
    for (int k = 0; k < steps; ++k) {
        float v = s[cur][tx + 1] + r * (s[cur][tx] - 2.f * s[cur][tx + 1] + s[cur][tx + 2]);
        if (g == 0 || g >= n - 1) v = s[cur][tx + 1];
        s[cur ^ 1][tx + 1] = v;
        if (tx == 0) s[cur ^ 1][0] = s[cur][0];
        if (tx == B - 1) s[cur ^ 1][B + 1] = s[cur][B + 1];
        __syncthreads();
        cur ^= 1;
    }
    if (g < n) out[g] = s[cur][tx + 1];
}
extern "C" __global__ void q38_heat_steps128(const float *in, float *out, int n, int steps, float r) { heat_steps<128>(in, out, n, steps, r); }

// Bubble passes with an early exit when a pass swaps nothing (per-thread, 6 keys).
extern "C" __global__ void q38_bubble_early(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int a[6];
    for (int i = 0; i < 6; ++i) a[i] = in[t * 6 + i];
    for (int p = 0; p < 5; ++p) {
        bool sw = false;
        for (int i = 0; i < 5 - p; ++i)
            if (a[i] > a[i + 1]) { int x = a[i]; a[i] = a[i + 1]; a[i + 1] = x; sw = true; }
        if (!sw) break;
    }
    for (int i = 0; i < 6; ++i) out[t * 6 + i] = a[i];
}
