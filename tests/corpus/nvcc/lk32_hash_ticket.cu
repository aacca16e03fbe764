// corpus: -arch=sm_86
// Hash-table insertion with linear probing, ticket locks, warp-level locks.

#define EMPTY 0xffffffffu

__global__ void hash_insert(unsigned *keys, unsigned *vals, unsigned cap,
                            const unsigned *in_k, const unsigned *in_v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = in_k[i];
    unsigned slot = (k * 2654435761u) & (cap - 1);
    while (true) {
        unsigned prev = atomicCAS(&keys[slot], EMPTY, k);
        if (prev == EMPTY || prev == k) {
            vals[slot] = in_v[i];
            break;
        }
        slot = (slot + 1) & (cap - 1);
    }
}

__global__ void hash_insert_count(unsigned *keys, int *counts, unsigned cap,
                                  const unsigned *in_k, int n, int *inserted) {
    __shared__ int s_new;
    if (threadIdx.x == 0) s_new = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned k = in_k[i];
        unsigned slot = (k * 2654435761u) & (cap - 1);
        for (unsigned probe = 0; probe < cap; ++probe) {
            unsigned prev = atomicCAS(&keys[slot], EMPTY, k);
            if (prev == EMPTY) { atomicAdd(&s_new, 1); }
            if (prev == EMPTY || prev == k) { atomicAdd(&counts[slot], 1); break; }
            slot = (slot + 1) & (cap - 1);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(inserted, s_new);
}

__global__ void hash_insert_any(unsigned *keys, unsigned cap, const unsigned *in_k, int n, int *full) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = true;
    if (i < n) {
        unsigned k = in_k[i];
        unsigned slot = k & (cap - 1);
        ok = false;
        for (int probe = 0; probe < 32; ++probe) {
            unsigned prev = atomicCAS(&keys[slot], EMPTY, k);
            if (prev == EMPTY || prev == k) { ok = true; break; }
            slot = (slot + 1) & (cap - 1);
        }
    }
    if (__any_sync(0xffffffff, !ok) && (threadIdx.x & 31) == 0) atomicAdd(full, 1);
}

__global__ void ticket_lock(unsigned *next_ticket, volatile unsigned *now_serving, float *acc, const float *x) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.f;
    __syncthreads();
    atomicAdd(&s, x[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned t = atomicAdd(next_ticket, 1);
        while (*now_serving != t) { __nanosleep(32); }
        __threadfence();
        *acc += s;
        __threadfence();
        *now_serving = t + 1;
    }
}

__global__ void warp_lock(int *locks, float *bins, const int *idx, const float *w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = (i < n) ? w[i] : 0.f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    int b = idx[(blockIdx.x * blockDim.x) / 32 % 64];
    if (lane == 0) {
        while (atomicCAS(&locks[b], 0, 1) != 0) { __nanosleep(16); }
        __threadfence();
        bins[b] += v;
        __threadfence();
        atomicExch(&locks[b], 0);
    }
    __syncwarp();
}
