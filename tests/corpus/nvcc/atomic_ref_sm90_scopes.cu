// corpus: -arch=sm_90
// cuda::atomic_ref on sm_90: cluster scope, float/double fetch_add/min/max, 64-bit CAS, release/acquire fences.
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_sm90_scopes(float *f, double *d, unsigned long long *u, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<float, cuda::thread_scope_device> af(*f);
    cuda::atomic_ref<double, cuda::thread_scope_system> ad(*d);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> au(*u);
    af.fetch_add(1.0f, cuda::memory_order_relaxed);
    out[i * 3 + 0] = (int)ad.fetch_add(0.5, cuda::memory_order_release);
    unsigned long long e = au.load(cuda::memory_order_relaxed);
    while (!au.compare_exchange_weak(e, e * 3 + i, cuda::memory_order_acq_rel)) { }
    out[i * 3 + 1] = (int)e;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
    out[i * 3 + 2] = (int)af.load(cuda::memory_order_acquire);
}
