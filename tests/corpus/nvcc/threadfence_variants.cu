// corpus: -arch=sm_75
// __threadfence / __threadfence_block / __threadfence_system between stores (membar.gl / .cta / .sys).
extern "C" __global__ void threadfence_variants(int *a, int *b, volatile int *flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    __threadfence_block();
    b[i] = a[i ^ 1];
    __threadfence();
    a[i + 1024] = i * 2;
    __threadfence_system();
    if (threadIdx.x == 0) *flag = blockIdx.x + 1;
}

// "last block" pattern from the CUDA samples: partial results, __threadfence, ticket counter.
extern "C" __global__ void threadfence_last_block(const float *in, float *partial, unsigned *ticket, float *result)
{
    __shared__ bool is_last;
    __shared__ float s[128];
    s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    for (int st = 64; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned t = atomicInc(ticket, gridDim.x);
        is_last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last && threadIdx.x == 0) {
        float tot = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) tot += ((volatile float *)partial)[b];
        *result = tot;
        *ticket = 0;
    }
}
