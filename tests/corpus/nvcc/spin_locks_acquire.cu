// corpus: -arch=sm_75
// Locks as kernel authors write them: a per-bucket mutex for a hash-table insert built on
// cuda::atomic_ref<int, thread_scope_device> (test-and-test-and-set: relaxed polling load, exchange with
// acquire, store with release, __nanosleep back-off, the lock held by one lane per warp at a time to avoid
// divergent deadlock), and a classic volatile + atomicCAS spin lock with __threadfence around the critical
// section (a global max-with-payload update).
#include <cuda/atomic>

extern "C" __global__ void __launch_bounds__(128)
hash_insert_bucket_locks(const int *keys, const int *vals, int *table_keys, int *table_vals, int *locks,
                         int buckets, int slots)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    int key = keys[i], b = (unsigned)(key * 2654435761u) % buckets;
    bool done = false;
    while (!__all_sync(0xffffffff, done)) {
        if (!done) {
            cuda::atomic_ref<int, cuda::thread_scope_device> lock(locks[b]);
            if (lock.load(cuda::memory_order_relaxed) == 0 &&
                lock.exchange(1, cuda::memory_order_acquire) == 0) {
                for (int s = 0; s < slots; ++s) {
                    int *k = &table_keys[b * slots + s];
                    if (*k == key || *k == -1) { *k = key; table_vals[b * slots + s] = vals[i]; break; }
                }
                lock.store(0, cuda::memory_order_release);
                done = true;
            } else {
                __nanosleep(64);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(256)
volatile_lock_argmax(const float *x, int *mutex, volatile float *best, volatile int *best_idx, int n)
{
    __shared__ float s[256];
    __shared__ int si[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : -INFINITY;
    si[threadIdx.x] = i;
    __syncthreads();
    for (int o = 128; o > 0; o >>= 1) {
        if (threadIdx.x < o && s[threadIdx.x + o] > s[threadIdx.x]) {
            s[threadIdx.x] = s[threadIdx.x + o];
            si[threadIdx.x] = si[threadIdx.x + o];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        while (atomicCAS(mutex, 0, 1) != 0) { }
        __threadfence();
        if (s[0] > *best) { *best = s[0]; *best_idx = si[0]; }
        __threadfence();
        atomicExch(mutex, 0);
    }
}
