// corpus: -arch=sm_89
// Locks bracketed by __syncthreads, per-thread locks in divergent code.

__global__ void sync_mutex(int *mutex, int *out, const int *x, int n) {
    __shared__ int s_buf[128];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s_buf[tid] = (i < n) ? x[i] : 0;
    __syncthreads();
    if (tid == 0) {
        int total = 0;
        for (int k = 0; k < 128; ++k) total += s_buf[k];
        while (atomicCAS(mutex, 0, 1) != 0) { }
        __threadfence();
        out[0] += total;
        out[1] = max(out[1], total);
        __threadfence();
        atomicExch(mutex, 0);
    }
    __syncthreads();
    s_buf[tid] = out[0];
    __syncthreads();
    if (i < n) out[2 + i] = s_buf[(tid + 1) & 127];
}

__global__ void per_thread_lock(int *locks, float *table, const int *keys, const float *vals, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[k], 0, 1) == 0) {
            __threadfence();
            table[2 * k] += vals[i];
            table[2 * k + 1] += 1.0f;
            __threadfence();
            atomicExch(&locks[k], 0);
            done = true;
        }
    }
}

__global__ void hist_then_lock(const int *x, int n, int *ghist, int *mutex, int *gmax) {
    __shared__ int sh[64];
    __shared__ int smax;
    int tid = threadIdx.x;
    if (tid < 64) sh[tid] = 0;
    if (tid == 0) smax = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&sh[x[i] & 63], 1);
    __syncthreads();
    if (tid < 64) {
        int c = sh[tid];
        atomicAdd(&ghist[tid], c);
        atomicMax(&smax, c);
    }
    __syncthreads();
    if (tid == 0) {
        while (atomicCAS(mutex, 0, 1) != 0) { __nanosleep(64); }
        __threadfence();
        if (*gmax < smax) *gmax = smax;
        __threadfence();
        atomicExch(mutex, 0);
    }
}
