// corpus: -arch=sm_80
// Warp statistics with several __reduce_*_sync in a row, lane 0 stores (fresh kernels, helper nvintrin32).
#define FULL 0xffffffffu

// min/max/sum of a per-thread count, lane 0 writes one record per warp
extern "C" __global__ void wi32_warp_minmaxsum(const unsigned *cnt, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c = i < n ? cnt[i] : 0u;
    unsigned s = __reduce_add_sync(FULL, c);
    unsigned lo = __reduce_min_sync(FULL, c);
    unsigned hi = __reduce_max_sync(FULL, c);
    if ((threadIdx.x & 31) == 0)
        out[i >> 5] = make_uint4(s, lo, hi, hi - lo);
}

// flag summary: and/or/xor of bit masks plus a signed max of a key
extern "C" __global__ void wi32_flag_summary(const unsigned *flags, const int *keys, unsigned *out, int *kout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned f = flags[i];
    int k = keys[i];
    unsigned all_bits = __reduce_and_sync(FULL, f);
    unsigned any_bits = __reduce_or_sync(FULL, f);
    unsigned parity = __reduce_xor_sync(FULL, f);
    int kmax = __reduce_max_sync(FULL, k);
    int kmin = __reduce_min_sync(FULL, k);
    if ((threadIdx.x & 31) == 0) {
        out[(i >> 5) * 3 + 0] = all_bits;
        out[(i >> 5) * 3 + 1] = any_bits;
        out[(i >> 5) * 3 + 2] = parity;
        kout[i >> 5] = kmax - kmin;
    }
}

// ballot + popc + reduce of the selected values, combined by lane 0
extern "C" __global__ void wi32_ballot_reduce(const float *x, float thr, unsigned *mask_out, unsigned *sum_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    bool sel = v > thr;
    unsigned b = __ballot_sync(FULL, sel);
    unsigned q = sel ? __float_as_uint(v) >> 16 : 0u;
    unsigned qs = __reduce_add_sync(FULL, q);
    unsigned qm = __reduce_max_sync(FULL, q);
    unsigned act = __activemask();
    if ((threadIdx.x & 31) == 0) {
        mask_out[i >> 5] = b & act;
        sum_out[i >> 5] = qs + qm * __popc(b);
    }
}
