// corpus: -arch=sm_75
// Spin locks, ticket locks, last-block-done reductions.

__device__ void lock(int *m) {
    while (atomicCAS(m, 0, 1) != 0) { }
    __threadfence();
}
__device__ void unlock(int *m) {
    __threadfence();
    atomicExch(m, 0);
}

// One lane per block takes the lock and updates a shared total.
extern "C" __global__ void a27_spin_lock_block(int *mutex, float *total, const float *x, int n) {
    __shared__ float s[256];
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    s[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        lock(mutex);
        *total += s[0];
        unlock(mutex);
    }
}

// Per-bucket locks taken by every thread, with the warp-divergence-safe loop shape.
extern "C" __global__ void a27_bucket_locks(int *locks, float *buckets, const int *keys, const float *vals, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int k = keys[i];
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[k], 0, 1) == 0) {
            __threadfence();
            buckets[k] += vals[i];
            __threadfence();
            atomicExch(&locks[k], 0);
            done = true;
        }
    }
}

// Ticket lock: take a ticket, wait for now_serving, then advance it.
extern "C" __global__ void a27_ticket_lock(unsigned *next_ticket, volatile unsigned *now_serving, int *log) {
    if (threadIdx.x != 0) return;
    unsigned t = atomicAdd(next_ticket, 1u);
    while (*now_serving != t) { __nanosleep(32); }
    __threadfence();
    log[t] = blockIdx.x;
    __threadfence();
    atomicAdd((unsigned *)now_serving, 1u);
}

// Last-block-done sum (threadFenceReduction sample): atomicInc on a retirement counter.
__device__ unsigned int retirementCount = 0;

extern "C" __global__ void a27_last_block_sum(const float *x, float *partial, float *result, int n) {
    __shared__ float s[256];
    __shared__ bool amLast;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    s[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast) {
        float acc = 0.f;
        for (int j = threadIdx.x; j < gridDim.x; j += blockDim.x) acc += partial[j];
        s[threadIdx.x] = acc;
        __syncthreads();
        for (int st = blockDim.x / 2; st > 0; st >>= 1) {
            if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
            __syncthreads();
        }
        if (threadIdx.x == 0) { *result = s[0]; retirementCount = 0; }
    }
}

// Last-block-done with atomicAdd and warp shuffles in place of the shared tree.
extern "C" __global__ void a27_last_block_shfl(const int *x, int *partial, int *result, unsigned *counter, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int v = i < n ? x[i] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    __shared__ int ws[32];
    __shared__ unsigned ticket;
    if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? ws[threadIdx.x] : 0;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0) {
            partial[blockIdx.x] = v;
            __threadfence();
            ticket = atomicAdd(counter, 1u);
        }
    }
    __syncthreads();
    if (ticket == gridDim.x - 1 && threadIdx.x == 0) {
        int acc = 0;
        for (int b = 0; b < gridDim.x; ++b) acc += ((volatile int *)partial)[b];
        *result = acc;
        *counter = 0;
    }
}

// Semaphore-style barrier between blocks with atomicAdd_system and a spin on a volatile load.
extern "C" __global__ void a27_grid_flag_barrier(unsigned *arrived, int *out, unsigned nblocks) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_system();
        atomicAdd_system(arrived, 1u);
        while (((volatile unsigned *)arrived)[0] < nblocks) { }
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
