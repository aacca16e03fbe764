// corpus: -arch=sm_80
// Spin locks (atomicCAS acquire + __threadfence + atomicExch release) around multi-field statistics updates,
// and ticket-based hash-bucket insertion (atomicAdd ticket, then a CAS loop on the slot).
struct Stats { float sum; float sumsq; float mn; float mx; unsigned count; };
struct DStats { double sum; double sumsq; int count; int pad; };

__device__ __forceinline__ void acquire(int *m) { while (atomicCAS(m, 0, 1) != 0) { } __threadfence(); }
__device__ __forceinline__ void release(int *m) { __threadfence(); atomicExch(m, 0); }

// per-warp leader takes a global lock and merges a warp-reduced partial
extern "C" __global__ void k34_warp_leader_stats(const float *__restrict__ x, Stats *st, int *mutex, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    float s = v, q = v * v, mn = i < n ? v : 1e30f, mx = i < n ? v : -1e30f;
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffff, s, o);
        q += __shfl_xor_sync(0xffffffff, q, o);
        mn = fminf(mn, __shfl_xor_sync(0xffffffff, mn, o));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, o));
    }
    if ((threadIdx.x & 31) == 0) {
        acquire(mutex);
        st->sum += s; st->sumsq += q; st->mn = fminf(st->mn, mn); st->mx = fmaxf(st->mx, mx); st->count += 32;
        release(mutex);
    }
}

// every thread takes a per-key lock (done-flag loop so the warp does not deadlock), double fields
extern "C" __global__ void k34_keyed_dstats(const double *__restrict__ x, const int *__restrict__ key, DStats *st,
                                            int *locks, int nkeys, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int k = key[i] % nkeys;
        double v = x[i];
        bool done = false;
        do {
            if (atomicCAS(&locks[k], 0, 1) == 0) {
                __threadfence();
                st[k].sum += v; st[k].sumsq += v * v; st[k].count += 1;
                __threadfence();
                atomicExch(&locks[k], 0);
                done = true;
            }
        } while (!done);
    }
}

// block leader merges shared partials under a lock, then all threads read the result back
extern "C" __global__ void k34_block_merge(const float *__restrict__ x, Stats *st, int *mutex, float *out, int n) {
    __shared__ float ps[256], pq[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    float v = i < n ? x[i] : 0.f;
    ps[t] = v; pq[t] = v * v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) { if (t < s) { ps[t] += ps[t + s]; pq[t] += pq[t + s]; } __syncthreads(); }
    if (t == 0) {
        acquire(mutex);
        float c = (float)st->count;
        st->sum += ps[0]; st->sumsq += pq[0]; st->count += 256;
        volatile Stats *vs = st;
        vs->mn = c;
        release(mutex);
    }
    __syncthreads();
    if (i < n) out[i] = v * ps[0];
}

// shared-memory lock in a loop over a tile (lock/unlock per element, intra-block)
extern "C" __global__ void k34_shared_lock_loop(const int *__restrict__ key, const float *__restrict__ x, float *hsum,
                                                 int *hcnt, int n) {
    __shared__ int lk[16];
    __shared__ float s[16];
    __shared__ int c[16];
    int t = threadIdx.x;
    if (t < 16) { lk[t] = 0; s[t] = 0.f; c[t] = 0; }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
        int b = key[i] & 15;
        bool done = false;
        while (!done) {
            if (atomicCAS(&lk[b], 0, 1) == 0) {
                s[b] += x[i]; c[b] += 1;
                __threadfence_block();
                atomicExch(&lk[b], 0);
                done = true;
            }
        }
    }
    __syncthreads();
    if (t < 16) { atomicAdd(&hsum[t], s[t]); atomicAdd(&hcnt[t], c[t]); }
}

// ticket-based insertion: atomicAdd a ticket, then linear probe with atomicCAS
extern "C" __global__ void k34_ticket_insert(const unsigned *__restrict__ keys, unsigned *table, unsigned *vals,
                                             unsigned *ticket, int cap, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    unsigned my = atomicAdd(ticket, 1u);
    unsigned h = (k * 2654435761u) & (cap - 1);
    while (true) {
        unsigned prev = atomicCAS(&table[h], 0xffffffffu, k);
        if (prev == 0xffffffffu || prev == k) { vals[h] = my; break; }
        h = (h + 1) & (cap - 1);
    }
}

// bucketed ticket: per-bucket atomicAdd gives the slot, CAS on 64-bit slot until it lands
extern "C" __global__ void k34_bucket_ticket64(const unsigned long long *__restrict__ items, unsigned long long *slots,
                                               int *fill, int bucket_cap, int nb, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long it = items[i];
        int b = (int)(it % (unsigned long long)nb);
        int pos = atomicAdd(&fill[b], 1);
        int p = pos % bucket_cap;
        unsigned long long *base = slots + (size_t)b * bucket_cap;
        for (int tries = 0; tries < bucket_cap; ++tries) {
            if (atomicCAS(&base[p], 0ull, it) == 0ull) break;
            p = (p + 1) % bucket_cap;
        }
    }
}

// ticket lock (fair): take ticket, spin until now_serving == ticket, update, advance
extern "C" __global__ void k34_ticket_lock_stats(const float *__restrict__ x, Stats *st, unsigned *next,
                                                 volatile unsigned *serving, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float ws[8];
    float v = i < n ? x[i] : 0.f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < (blockDim.x >> 5); ++w) s += ws[w];
        unsigned my = atomicAdd(next, 1u);
        while (*serving != my) { __nanosleep(32); }
        __threadfence();
        st->sum += s; st->count += blockDim.x;
        __threadfence();
        *serving = my + 1;
    }
}
