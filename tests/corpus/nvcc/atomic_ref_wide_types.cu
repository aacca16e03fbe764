// corpus: -arch=sm_80
// cuda::atomic_ref on long long, float and double: 64-bit fetch_add/and/or/xor/min/max with acquire/release,
// float and double fetch_add (atom.add.f32/.f64) at block and device scope, float fetch_min/max (CAS loops),
// exchange and compare_exchange on doubles, and cuda::atomic_thread_fence / atomic_signal_fence.
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_int64(long long *p, long long *out)
{
    cuda::atomic_ref<long long, cuda::thread_scope_device> a(p[0]);
    cuda::atomic_ref<long long, cuda::thread_scope_block> b(p[1]);
    long long t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
    r += a.fetch_add(t, cuda::memory_order_relaxed);
    r += a.fetch_and(~t, cuda::memory_order_acquire);
    r += a.fetch_or(t << 32, cuda::memory_order_release);
    r += b.fetch_xor(t, cuda::memory_order_acq_rel);
    r += b.fetch_min(-t, cuda::memory_order_seq_cst);
    r += b.fetch_max(t, cuda::memory_order_relaxed);
    long long e = r;
    b.compare_exchange_strong(e, t, cuda::memory_order_acq_rel);
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
    out[t] = r + e + a.load(cuda::memory_order_acquire);
}

extern "C" __global__ void atomic_ref_float(float *p, float *out, const float *x)
{
    cuda::atomic_ref<float, cuda::thread_scope_device> sum(p[0]);
    cuda::atomic_ref<float, cuda::thread_scope_block> lo(p[1]);
    cuda::atomic_ref<float, cuda::thread_scope_system> hi(p[2]);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[t], r = 0.f;
    r += sum.fetch_add(v, cuda::memory_order_relaxed);
    r += sum.fetch_sub(0.5f * v, cuda::memory_order_release);
    r += lo.fetch_min(v, cuda::memory_order_relaxed);
    r += hi.fetch_max(v, cuda::memory_order_acq_rel);
    r += lo.exchange(v, cuda::memory_order_seq_cst);
    cuda::atomic_signal_fence(cuda::memory_order_seq_cst);
    out[t] = r + hi.load(cuda::memory_order_seq_cst);
}

extern "C" __global__ void atomic_ref_double(double *p, double *out, const double *x)
{
    cuda::atomic_ref<double, cuda::thread_scope_device> sum(p[0]);
    cuda::atomic_ref<double, cuda::thread_scope_block> blk(p[1 + (threadIdx.x & 1)]);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double v = x[t], r = 0.0;
    r += sum.fetch_add(v, cuda::memory_order_acq_rel);
    r += blk.fetch_add(v * v, cuda::memory_order_relaxed);
    r += blk.fetch_max(v, cuda::memory_order_acquire);
    double e = blk.load(cuda::memory_order_relaxed);
    while (!blk.compare_exchange_weak(e, e * 0.5 + v, cuda::memory_order_release, cuda::memory_order_relaxed)) { }
    r += sum.exchange(r, cuda::memory_order_consume);
    sum.store(r, cuda::memory_order_release);
    out[t] = r + e;
}
