// corpus: -arch=sm_75
// atomicCAS loops: float max/min, double min, 64-bit packed updates, bit-flag updates.

__device__ float atomicMaxFloat(float *addr, float val) {
    int *ai = (int *)addr;
    int old = *ai, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(ai, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ float atomicMinFloat(float *addr, float val) {
    unsigned *au = (unsigned *)addr;
    unsigned old = *au, assumed;
    do {
        assumed = old;
        old = atomicCAS(au, assumed, __float_as_uint(fminf(val, __uint_as_float(assumed))));
    } while (assumed != old);
    return __uint_as_float(old);
}

__device__ double atomicMinDouble(double *addr, double val) {
    unsigned long long *a = (unsigned long long *)addr;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(fmin(val, __longlong_as_double(assumed))));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void a27_float_extrema(float *mx, float *mn, const float *x, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        float v = x[i];
        atomicMaxFloat(mx, v);
        atomicMinFloat(mn, v);
    }
}

extern "C" __global__ void a27_double_min_per_bucket(double *mins, const double *x, const int *bucket, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) atomicMinDouble(&mins[bucket[i]], x[i]);
}

// Argmax packed into 64 bits: (float bits << 32) | index, updated with a 64-bit CAS loop.
extern "C" __global__ void a27_argmax_packed(unsigned long long *best, const float *x, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    float v = x[i];
    unsigned long long mine = ((unsigned long long)__float_as_uint(v) << 32) | (unsigned)i;
    unsigned long long old = *best;
    while (__uint_as_float((unsigned)(old >> 32)) < v) {
        unsigned long long prev = atomicCAS(best, old, mine);
        if (prev == old) break;
        old = prev;
    }
}

// Bit flags: set with atomicOr, clear with atomicAnd, test-and-set with a CAS loop on a word.
extern "C" __global__ void a27_bitset_update(unsigned *bits, int *first_setter, const int *idx, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int b = idx[i];
    unsigned m = 1u << (b & 31);
    unsigned old = atomicOr(&bits[b >> 5], m);
    if (!(old & m)) first_setter[b] = i;
    if (b & 64) atomicAnd(&bits[(b >> 5) + 1], ~m);
}

extern "C" __global__ void a27_test_and_set_cas(unsigned *words, int *won, const int *idx, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int b = idx[i];
    unsigned *w = &words[b >> 5];
    unsigned m = 1u << (b & 31);
    unsigned cur = *w;
    bool mine = false;
    while (!(cur & m)) {
        unsigned prev = atomicCAS(w, cur, cur | m);
        if (prev == cur) { mine = true; break; }
        cur = prev;
    }
    won[i] = mine;
}

// Shared-memory float max with CAS, then a single global CAS-max per block.
extern "C" __global__ void a27_block_float_max(float *gmax, const float *x, int n) {
    __shared__ float smax;
    if (threadIdx.x == 0) smax = -3.0e38f;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) atomicMaxFloat(&smax, x[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicMaxFloat(gmax, smax);
}
