// corpus: -arch=sm_80
// Independent warp collectives in one block (helper nvsched39, stop 39): a segmented scan whose head flags are
// balloted beside the value's shuffles, a vote beside a butterfly, two shuffle chains, match beside a vote, REDUX
// pairs; values loaded under a bounds guard as kernel authors write them.
#include <cuda_runtime.h>

// float segmented inclusive scan, head flags from a byte array, ballot beside the shuffles
extern "C" __global__ void o39_segscan_f32(const float* __restrict__ x, const unsigned char* __restrict__ head,
                                           float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = 0.0f;
    bool h = true;
    if (i < n) {
        v = x[i];
        h = head[i] != 0;
    }
    unsigned hb = __ballot_sync(0xffffffffu, h);
    unsigned mine = hb & (0xffffffffu >> (31 - lane));
    int start = 31 - __clz(mine);
    for (int d = 1; d < 32; d <<= 1) {
        float t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane - d >= start) v += t;
    }
    if (i < n) y[i] = v;
}

// max reduction by butterfly beside a count of positive elements by ballot
extern "C" __global__ void o39_max_and_count(const float* __restrict__ x, float* __restrict__ wmax,
                                             unsigned* __restrict__ wcnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : -3.0e38f;
    unsigned pos = __ballot_sync(0xffffffffu, i < n && v > 0.0f);
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if ((threadIdx.x & 31) == 0) {
        wmax[i >> 5] = v;
        wcnt[i >> 5] = __popc(pos);
    }
}

// two independent shuffle-down sums (value and weight) of one element
extern "C" __global__ void o39_two_sums(const float* __restrict__ a, const int* __restrict__ w,
                                        float* __restrict__ out_a, int* __restrict__ out_w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    int c = 0;
    if (i < n) {
        s = a[i] * 2.0f;
        c = w[i] + 1;
    }
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_down_sync(0xffffffffu, s, o);
        c += __shfl_down_sync(0xffffffffu, c, o);
    }
    if ((threadIdx.x & 31) == 0) {
        out_a[i >> 5] = s;
        out_w[i >> 5] = c;
    }
}

// segmented sum over keys: a key change found by shfl_up, then ballot and scan
extern "C" __global__ void o39_key_segsum(const int* __restrict__ keys, const int* __restrict__ vals,
                                          int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int k = i < n ? keys[i] : 0x7fffffff;
    int v = i < n ? vals[i] : 0;
    int pk = __shfl_up_sync(0xffffffffu, k, 1);
    unsigned heads = __ballot_sync(0xffffffffu, lane == 0 || pk != k);
    int start = 31 - __clz(heads & ((2u << lane) - 1u));
    #pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= start + d) v += t;
    }
    if (i < n) out[i] = v;
}

// match beside a vote: group leaders of equal keys, a uniform-valid flag
extern "C" __global__ void o39_match_vote(const int* __restrict__ keys, const float* __restrict__ x,
                                          int* __restrict__ groups, int* __restrict__ allok, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = 0;
    float v = 0.0f;
    if (i < n) {
        k = keys[i] >> 4;
        v = x[i];
    }
    unsigned peers = __match_any_sync(0xffffffffu, k);
    int ok = __all_sync(0xffffffffu, v == v);
    if (i < n && (threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&groups[k & 255], __popc(peers));
    if ((threadIdx.x & 31) == 0) allok[i >> 5] = ok;
}

// integer min/max/sum of two loaded arrays with redux
extern "C" __global__ void o39_redux_pairs(const int* __restrict__ a, const unsigned* __restrict__ b,
                                           int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? a[i] : 0;
    unsigned y = i < n ? b[i] : 0u;
    int mn = __reduce_min_sync(0xffffffffu, x);
    unsigned orb = __reduce_or_sync(0xffffffffu, y);
    int sm = __reduce_add_sync(0xffffffffu, x);
    unsigned mx = __reduce_max_sync(0xffffffffu, y);
    if ((threadIdx.x & 31) == 0) {
        int w = i >> 5;
        out[4 * w] = mn;
        out[4 * w + 1] = (int)orb;
        out[4 * w + 2] = sm;
        out[4 * w + 3] = (int)mx;
    }
}

// inclusive scan of counts beside a ballot of nonzero entries, double values
extern "C" __global__ void o39_scan_ballot_f64(const double* __restrict__ x, const int* __restrict__ flag,
                                               double* __restrict__ y, unsigned* __restrict__ nz, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    double v = 0.0;
    int f = 0;
    if (i < n) {
        v = x[i];
        f = flag[i];
    }
    unsigned b = __ballot_sync(0xffffffffu, f > 0);
    for (int d = 1; d < 32; d <<= 1) {
        double t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
    }
    if (i < n) y[i] = v;
    if (lane == 0) nz[i >> 5] = b;
}
