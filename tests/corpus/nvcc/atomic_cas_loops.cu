// corpus: -arch=sm_75
// atomicCAS retry loops: float max, double multiply, 16-bit add inside a 32-bit word, and a spin lock.
__device__ float atomic_max_float(float *addr, float v)
{
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(a, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ double atomic_mul_double(double *addr, double v)
{
    unsigned long long *a = (unsigned long long *)addr;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
    } while (old != assumed);
    return __longlong_as_double(old);
}

extern "C" __global__ void atomic_cas_loops(const float *in, float *fmax, double *dprod, int *lock, int *counter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomic_max_float(fmax, in[i]);
    atomic_mul_double(dprod, 1.0 + in[i]);
    if ((threadIdx.x & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        *counter += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}
