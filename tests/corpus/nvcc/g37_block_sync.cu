// corpus: -arch=sm_75
// Block-wide kernels where __syncthreads meets guarded code: reductions with unrolled warp tails, guarded tile
// loads, block scans, shared histograms, double-buffered tiles, last-block reductions, written as a kernel author would.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#define TB 256

// reduce6-style: grid-stride load, tree in shared memory, unrolled warp tail, lane 0 writes the block sum
extern "C" __global__ void __launch_bounds__(TB) g37_reduce6(const float *in, float *out, unsigned n)
{
    __shared__ float s[TB];
    unsigned t = threadIdx.x, i = blockIdx.x * (TB * 2) + t, grid = TB * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) { sum += in[i]; if (i + TB < n) sum += in[i + TB]; i += grid; }
    s[t] = sum;
    __syncthreads();
    if (t < 128) s[t] = sum = sum + s[t + 128];
    __syncthreads();
    if (t < 64) s[t] = sum = sum + s[t + 64];
    __syncthreads();
    if (t < 32) {
        sum += s[t + 32];
        for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    }
    if (t == 0) out[blockIdx.x] = sum;
}

// max reduction over a guarded load, loop over blockDim, lane 0 stores
extern "C" __global__ void g37_block_max_int(const int *in, int *out, int n)
{
    extern __shared__ int sm[];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    sm[t] = g < n ? in[g] : INT_MIN;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sm[t] = max(sm[t], sm[t + s]);
        __syncthreads();
    }
    if (t == 0) atomicMax(out, sm[0]);
}

// CUB block reduce of doubles with a valid-item count
extern "C" __global__ void __launch_bounds__(128) g37_cub_sum_partial(const double *in, double *out, int n)
{
    typedef cub::BlockReduce<double, 128> R;
    __shared__ typename R::TempStorage tmp;
    int g = blockIdx.x * 128 + threadIdx.x;
    double v = g < n ? in[g] : 0.0;
    int valid = min(128, n - (int)blockIdx.x * 128);
    double r = R(tmp).Sum(v, valid);
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}

// CUB inclusive block scan of ints, tile loop, prefix carried across tiles
extern "C" __global__ void __launch_bounds__(128) g37_cub_scan_tiles(const int *in, int *out, int n)
{
    typedef cub::BlockScan<int, 128> S;
    __shared__ typename S::TempStorage tmp;
    int carry = 0;
    for (int base = 0; base < n; base += 128) {
        int i = base + threadIdx.x;
        int v = i < n ? in[i] : 0, agg;
        S(tmp).InclusiveSum(v, v, agg);
        __syncthreads();
        if (i < n) out[i] = v + carry;
        carry += agg;
    }
}

// shared histogram: zero bins, guarded grid-stride atomics, flush non-zero bins
extern "C" __global__ void __launch_bounds__(TB) g37_hist64(const unsigned char *in, unsigned *bins, int n)
{
    __shared__ unsigned h[64];
    if (threadIdx.x < 64) h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * TB + threadIdx.x; i < n; i += TB * gridDim.x) atomicAdd(&h[in[i] & 63], 1u);
    __syncthreads();
    if (threadIdx.x < 64) { unsigned c = h[threadIdx.x]; if (c) atomicAdd(&bins[threadIdx.x], c); }
}

// double-buffered tile sum over rows: load next row while summing the current one
extern "C" __global__ void __launch_bounds__(TB) g37_double_buffer(const float *in, float *out, int rows, int cols)
{
    __shared__ float buf[2][TB];
    int t = threadIdx.x, c = blockIdx.x * TB + t;
    float acc = 0.0f;
    if (c < cols && rows > 0) buf[0][t] = in[c];
    __syncthreads();
    for (int r = 0; r < rows; ++r) {
        int cur = r & 1;
        if (r + 1 < rows && c < cols) buf[cur ^ 1][t] = in[(r + 1) * cols + c];
        acc += buf[cur][t] * buf[cur][(t + 1) % TB];
        __syncthreads();
    }
    if (c < cols) out[c] = acc;
}

// last-block reduction with a threadfence and a ticket counter
__device__ unsigned g37_ticket;
extern "C" __global__ void __launch_bounds__(TB) g37_last_block(const float *in, float *partial, float *total, int n)
{
    __shared__ float s[TB];
    __shared__ bool last;
    int t = threadIdx.x, g = blockIdx.x * TB + t;
    s[t] = g < n ? in[g] : 0.0f;
    __syncthreads();
    for (int k = TB / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        last = atomicInc(&g37_ticket, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float v = 0.0f;
        for (int i = t; i < gridDim.x; i += TB) v += partial[i];
        s[t] = v;
        __syncthreads();
        for (int k = TB / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
        if (t == 0) *total = s[0];
    }
}

// 1D 5-point stencil with halo loads, early return for out-of-range blocks
extern "C" __global__ void __launch_bounds__(TB) g37_stencil5(const float *in, float *out, int n, float c0, float c1, float c2)
{
    __shared__ float s[TB + 4];
    int t = threadIdx.x, g = blockIdx.x * TB + t;
    if (blockIdx.x * TB >= n) return;
    s[t + 2] = g < n ? in[g] : 0.0f;
    if (t < 2) {
        s[t] = g >= 2 ? in[g - 2] : 0.0f;
        s[TB + 2 + t] = g + TB < n ? in[g + TB] : 0.0f;
    }
    __syncthreads();
    if (g < n) out[g] = c0 * s[t + 2] + c1 * (s[t + 1] + s[t + 3]) + c2 * (s[t] + s[t + 4]);
}

// block exclusive scan (Hillis-Steele in shared memory) then compaction of positive values
extern "C" __global__ void __launch_bounds__(TB) g37_compact(const int *in, int *out, int *count, int n)
{
    __shared__ int s[TB];
    __shared__ int base;
    int t = threadIdx.x, g = blockIdx.x * TB + t;
    int v = g < n ? in[g] : 0, f = v > 0;
    s[t] = f;
    __syncthreads();
    for (int o = 1; o < TB; o <<= 1) {
        int x = t >= o ? s[t - o] : 0;
        __syncthreads();
        s[t] += x;
        __syncthreads();
    }
    if (t == TB - 1) base = atomicAdd(count, s[t]);
    __syncthreads();
    if (f) out[base + s[t] - 1] = v;
}
