// corpus: -arch=sm_80
// Per-block spin locks guarding a struct of statistics, as people write them.

struct Stats {
    float sum;
    float sumsq;
    float maxv;
    int count;
};

__device__ int g_mutex;

__global__ void block_stats_lock(const float *x, int n, Stats *stats, int *mutex) {
    __shared__ float s_sum[256];
    __shared__ float s_sq[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    float v = (i < n) ? x[i] : 0.0f;
    s_sum[tid] = v;
    s_sq[tid] = v * v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            s_sum[tid] += s_sum[tid + s];
            s_sq[tid] += s_sq[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        while (atomicCAS(mutex, 0, 1) != 0) { }
        __threadfence();
        stats->sum += s_sum[0];
        stats->sumsq += s_sq[0];
        stats->count += 1;
        __threadfence();
        atomicExch(mutex, 0);
    }
}

__global__ void mutex_critical_section(float *acc, const float *x, int n) {
    __shared__ float partial;
    if (threadIdx.x == 0) partial = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&partial, x[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
        while (atomicCAS(&g_mutex, 0, 1) != 0) { }
        __threadfence();
        acc[0] += partial;
        acc[1] = fmaxf(acc[1], partial);
        __threadfence();
        atomicExch(&g_mutex, 0);
    }
    __syncthreads();
    if (i < n) acc[2 + (i & 7)] = partial;
}

__global__ void lock_backoff(int *counter, int *mutex, int iters) {
    __shared__ int s_local;
    if (threadIdx.x == 0) s_local = 0;
    __syncthreads();
    atomicAdd(&s_local, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned ns = 8;
        while (atomicCAS(mutex, 0, 1) != 0) {
            __nanosleep(ns);
            if (ns < 256) ns *= 2;
        }
        __threadfence();
        for (int k = 0; k < iters; ++k) counter[k] += s_local;
        __threadfence();
        atomicExch(mutex, 0);
    }
}
