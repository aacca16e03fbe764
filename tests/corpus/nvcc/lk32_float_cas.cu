// corpus: -arch=sm_75
// Float atomicMax/atomicMin written as atomicCAS loops on __float_as_int.

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
    int *ai = (int *)addr;
    int old = *ai, assumed;
    do {
        assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void minmax_reduce(const float *x, int n, float *out) {
    __shared__ float smax[32];
    __shared__ float smin[32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    float mx = -1e30f, mn = 1e30f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        mx = fmaxf(mx, v);
        mn = fminf(mn, v);
    }
    for (int o = 16; o > 0; o >>= 1) {
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, o));
        mn = fminf(mn, __shfl_xor_sync(0xffffffff, mn, o));
    }
    if (lane == 0) { smax[warp] = mx; smin[warp] = mn; }
    __syncthreads();
    if (warp == 0) {
        mx = (lane < blockDim.x / 32) ? smax[lane] : -1e30f;
        mn = (lane < blockDim.x / 32) ? smin[lane] : 1e30f;
        for (int o = 16; o > 0; o >>= 1) {
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, o));
            mn = fminf(mn, __shfl_xor_sync(0xffffffff, mn, o));
        }
        if (lane == 0) {
            atomicMaxFloat(&out[0], mx);
            atomicMinFloat(&out[1], mn);
        }
    }
}

__global__ void shared_float_max(const float *x, int n, float *out) {
    __shared__ float smax;
    if (threadIdx.x == 0) smax = -1e30f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(&smax, x[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicMaxFloat(out, smax);
}

__global__ void double_cas_add(double *acc, const double *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long *a = (unsigned long long *)acc;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(x[i] + __longlong_as_double(assumed)));
    } while (assumed != old);
}
