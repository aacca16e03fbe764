// corpus: -arch=sm_75
// Atomics in divergent control and in loops: work queues, bump allocators, append buffers.

// Persistent-threads work queue: lane 0 of each warp grabs a batch, broadcasts it.
extern "C" __global__ void a27_work_queue_warp(int *head, const int *items, int *out, int n) {
    while (true) {
        int base;
        if ((threadIdx.x & 31) == 0) base = atomicAdd(head, 32);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (base >= n) break;
        int i = base + (threadIdx.x & 31);
        if (i < n) out[i] = items[i] * 2;
    }
}

// Per-thread work queue: every thread grabs one item at a time (ptxas may aggregate).
extern "C" __global__ void a27_work_queue_thread(unsigned *head, const float *in, float *out, unsigned n) {
    unsigned i;
    while ((i = atomicAdd(head, 1u)) < n) {
        out[i] = in[i] * in[i];
    }
}

// Block-level queue: thread 0 takes a tile through shared memory, __syncthreads around it.
extern "C" __global__ void a27_work_queue_block(int *head, const int *in, int *out, int ntiles, int tile) {
    __shared__ int s_tile;
    while (true) {
        if (threadIdx.x == 0) s_tile = atomicAdd(head, 1);
        __syncthreads();
        int t = s_tile;
        __syncthreads();
        if (t >= ntiles) break;
        for (int j = threadIdx.x; j < tile; j += blockDim.x) out[t * tile + j] = in[t * tile + j] + 1;
    }
}

// Bump allocator: variable-size allocations under a divergent condition.
extern "C" __global__ void a27_bump_alloc(unsigned long long *heap_top, unsigned long long cap,
                                          const int *sizes, unsigned long long *ptrs, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int sz = sizes[i];
    unsigned long long p = ~0ull;
    if (sz > 0) {
        unsigned long long off = atomicAdd(heap_top, (unsigned long long)((sz + 15) & ~15));
        if (off + sz <= cap) p = off;
        else atomicAdd(heap_top + 1, 1ull);  // overflow counter
    }
    ptrs[i] = p;
}

// Append buffer with overflow check and a shared staging counter.
extern "C" __global__ void a27_append_shared_stage(int *out, int *gcount, const int *in, int n, int key) {
    __shared__ int s_count;
    __shared__ int s_base;
    __shared__ int s_buf[256];
    if (threadIdx.x == 0) s_count = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && in[i] == key) {
        int pos = atomicAdd(&s_count, 1);
        s_buf[pos] = i;
    }
    __syncthreads();
    if (threadIdx.x == 0) s_base = atomicAdd(gcount, s_count);
    __syncthreads();
    if (threadIdx.x < s_count) out[s_base + threadIdx.x] = s_buf[threadIdx.x];
}

// Free-list pop/push with atomicExch / atomicCAS in a loop.
extern "C" __global__ void a27_free_list(int *free_head, int *next, int *got, int npop) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= npop) return;
    int h;
    do {
        h = atomicAdd(free_head, 0);
        if (h < 0) break;
    } while (atomicCAS(free_head, h, next[h]) != h);
    got[i] = h;
    if (h >= 0 && (h & 1)) {
        int old = atomicExch(free_head, h);
        next[h] = old;
    }
}

// Retry loop with back-off: claims slots of an open-addressing table.
extern "C" __global__ void a27_hash_insert(unsigned *keys, unsigned *vals, const unsigned *in, unsigned mask, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    unsigned k = in[i];
    unsigned slot = (k * 2654435761u) & mask;
    while (true) {
        unsigned prev = atomicCAS(&keys[slot], 0xffffffffu, k);
        if (prev == 0xffffffffu || prev == k) {
            atomicAdd(&vals[slot], 1u);
            break;
        }
        slot = (slot + 1) & mask;
    }
}
