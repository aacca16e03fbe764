// corpus: -arch=sm_75
// 16-bit atomicCAS (atom.cas.b16, sm_70+): a lock-free max on unsigned short counters, a half-precision
// accumulate built on 16-bit CAS in shared memory, and a 16-bit try-lock flag.
#include <cuda_fp16.h>

extern "C" __global__ void cas16_max_counters(unsigned short *ctr, const unsigned short *v)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short *p = &ctr[t & 63];
    unsigned short want = v[t], cur = *p;
    while (cur < want) {
        unsigned short prev = atomicCAS(p, cur, want);
        if (prev == cur) break;
        cur = prev;
    }
}

extern "C" __global__ void __launch_bounds__(128) cas16_half_accumulate(const __half *x, __half *out, unsigned short *locks)
{
    __shared__ unsigned short acc[32];
    if (threadIdx.x < 32) acc[threadIdx.x] = 0;
    __syncthreads();
    unsigned short *p = &acc[threadIdx.x & 31];
    __half v = x[blockIdx.x * 128 + threadIdx.x];
    unsigned short old = *p, assumed;
    do {
        assumed = old;
        __half h = __hadd(__ushort_as_half(assumed), v);
        old = atomicCAS(p, assumed, __half_as_ushort(h));
    } while (old != assumed);
    __syncthreads();
    if (threadIdx.x < 32) {
        if (atomicCAS(&locks[blockIdx.x], (unsigned short)0, (unsigned short)1) == 0) {
            out[blockIdx.x * 32 + threadIdx.x] = __ushort_as_half(acc[threadIdx.x]);
            __threadfence();
            atomicCAS(&locks[blockIdx.x], (unsigned short)1, (unsigned short)0);
        }
    }
}
