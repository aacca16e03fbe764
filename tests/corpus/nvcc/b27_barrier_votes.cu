// corpus: -arch=sm_75
// __syncthreads_count / _and / _or in real decisions: an iterative Jacobi relaxation in shared memory that stops
// when no thread changed (syncthreads_or), a stream compaction counting survivors with syncthreads_count, a
// block-wide "all sorted" check that exits early, and a kernel with two reductions back to back.

extern "C" __global__ void __launch_bounds__(256) b27_jacobi_converge(float *x, const float *b, float tol, int max_iter)
{
    __shared__ float cur[258];
    __shared__ float nxt[258];
    int tid = threadIdx.x;
    int g = blockIdx.x * 256 + tid;
    cur[tid + 1] = x[g];
    if (tid == 0) { cur[0] = 0.f; cur[257] = 0.f; nxt[0] = 0.f; nxt[257] = 0.f; }
    float rhs = b[g];
    __syncthreads();
    for (int it = 0; it < max_iter; ++it) {
        float v = 0.5f * (cur[tid] + cur[tid + 2] - rhs);
        nxt[tid + 1] = v;
        int changed = fabsf(v - cur[tid + 1]) > tol;
        if (!__syncthreads_or(changed)) break;
        cur[tid + 1] = nxt[tid + 1];
        __syncthreads();
    }
    x[g] = cur[tid + 1];
}

extern "C" __global__ void __launch_bounds__(128) b27_compact_count(const int *in, int *out, int *counts, int n)
{
    __shared__ int pos[128];
    int tid = threadIdx.x;
    int g = blockIdx.x * 128 + tid;
    int v = g < n ? in[g] : 0;
    int keep = v > 0;
    int total = __syncthreads_count(keep);
    if (total == 0) {
        if (tid == 0) counts[blockIdx.x] = 0;
        return;
    }
    pos[tid] = keep;
    __syncthreads();
    for (int off = 1; off < 128; off <<= 1) {
        int t = tid >= off ? pos[tid - off] : 0;
        __syncthreads();
        pos[tid] += t;
        __syncthreads();
    }
    if (keep) out[blockIdx.x * 128 + pos[tid] - 1] = v;
    if (tid == 0) counts[blockIdx.x] = total;
}

extern "C" __global__ void b27_sorted_check(const int *keys, int *flags, int n)
{
    int tid = threadIdx.x;
    int g = blockIdx.x * blockDim.x + tid;
    int ok = (g + 1 >= n) || keys[g] <= keys[g + 1];
    if (__syncthreads_and(ok)) {
        if (tid == 0) flags[blockIdx.x] = 1;
        return;
    }
    int bad = __syncthreads_count(!ok);
    if (tid == 0) flags[blockIdx.x] = -bad;
}

extern "C" __global__ void __launch_bounds__(256) b27_two_votes(const float *a, int *stats, float lo, float hi)
{
    int g = blockIdx.x * 256 + threadIdx.x;
    float v = a[g];
    int below = __syncthreads_count(v < lo);
    int above = __syncthreads_count(v > hi);
    int any_nan = __syncthreads_or(v != v);
    if (threadIdx.x == 0) {
        stats[3 * blockIdx.x + 0] = below;
        stats[3 * blockIdx.x + 1] = above;
        stats[3 * blockIdx.x + 2] = any_nan;
    }
}

extern "C" __global__ void __launch_bounds__(256) b27_vote_loop_bisect(const float *a, float *thr, int steps)
{
    float v = a[blockIdx.x * 256 + threadIdx.x];
    float lo = 0.f, hi = 1.f;
    for (int s = 0; s < steps; ++s) {
        float mid = 0.5f * (lo + hi);
        int cnt = __syncthreads_count(v < mid);
        if (cnt < 128) lo = mid; else hi = mid;
        if (__syncthreads_and(hi - lo < 1e-4f)) break;
    }
    if (threadIdx.x == 0) thr[blockIdx.x] = lo;
}
