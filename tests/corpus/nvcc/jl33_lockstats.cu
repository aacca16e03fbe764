// corpus: -arch=sm_80
// Lock-protected statistics updates (spin lock around a struct update), then __syncthreads.
struct Stats { float sum; float sumsq; float mn; float mx; unsigned count; };

__device__ void lock(int *m) { while (atomicCAS(m, 0, 1) != 0) { } __threadfence(); }
__device__ void unlock(int *m) { __threadfence(); atomicExch(m, 0); }

extern "C" __global__ void jl33_stats_block_lock(const float *__restrict__ x, Stats *st, int *mutex, float *out, int n) {
    __shared__ float part[128];
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    float v = i < n ? x[i] : 0.f;
    part[t] = v;
    __syncthreads();
    if (t == 0) {
        float s = 0.f, q = 0.f, mn = 1e30f, mx = -1e30f;
        for (int k = 0; k < 128; ++k) { float a = part[k]; s += a; q += a * a; mn = fminf(mn, a); mx = fmaxf(mx, a); }
        lock(mutex);
        st->sum += s; st->sumsq += q; st->mn = fminf(st->mn, mn); st->mx = fmaxf(st->mx, mx); st->count += 128;
        unlock(mutex);
    }
    __syncthreads();
    if (i < n) out[i] = v - part[0];
}

extern "C" __global__ void jl33_stats_bucket_lock(const float *__restrict__ x, const int *__restrict__ key,
                                                  Stats *st, int *locks, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = key[i];
        float v = x[i];
        bool done = false;
        while (!done) {
            if (atomicCAS(&locks[k], 0, 1) == 0) {
                st[k].sum += v; st[k].sumsq += v * v; st[k].count += 1;
                __threadfence();
                atomicExch(&locks[k], 0);
                done = true;
            }
        }
    }
    __syncthreads();
}

extern "C" __global__ void jl33_stats_shared_lock(const float *__restrict__ x, Stats *gst, int n) {
    __shared__ int slock;
    __shared__ Stats sst;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t == 0) { slock = 0; sst.sum = 0.f; sst.sumsq = 0.f; sst.mn = 1e30f; sst.mx = -1e30f; sst.count = 0; }
    __syncthreads();
    if (i < n) {
        float v = x[i];
        for (;;) {
            if (atomicCAS(&slock, 0, 1) == 0) {
                sst.sum += v; sst.sumsq += v * v; sst.mn = fminf(sst.mn, v); sst.mx = fmaxf(sst.mx, v); sst.count++;
                __threadfence_block();
                atomicExch(&slock, 0);
                break;
            }
        }
    }
    __syncthreads();
    if (t == 0) {
        atomicAdd(&gst->sum, sst.sum); atomicAdd(&gst->sumsq, sst.sumsq); atomicAdd(&gst->count, sst.count);
    }
}
