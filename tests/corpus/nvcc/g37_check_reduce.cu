// corpus: -arch=sm_75
// Check kernels for helper nvbar37 (written after the rule): block reductions and scans with guarded loads
// staged to shared memory before __syncthreads, as a kernel author would write them.

// sum of squares over a guarded load, tree over blockDim with an if in the loop body, atomic from lane 0
extern "C" __global__ void g37_check_sumsq(const float *x, float *out, int n)
{
    extern __shared__ float sh[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float v = 0.0f;
    if (i < n) v = x[i] * x[i];
    sh[t] = v;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (t < s) sh[t] += sh[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, sh[0]);
}

// argmin over a guarded load: value and index in shared memory, tree with a compare-and-swap step
extern "C" __global__ void __launch_bounds__(128) g37_check_argmin(const float *x, int *idx_out, int n)
{
    __shared__ float val[128];
    __shared__ int idx[128];
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    val[t] = i < n ? x[i] : 3.4e38f;
    idx[t] = i;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s && val[t + s] < val[t]) { val[t] = val[t + s]; idx[t] = idx[t + s]; }
        __syncthreads();
    }
    if (t == 0) idx_out[blockIdx.x] = idx[0];
}

// Hillis-Steele inclusive scan over a runtime block size, guarded load and store
extern "C" __global__ void g37_check_scan_dyn(const int *in, int *out, int n)
{
    extern __shared__ int sc[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    sc[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned o = 1; o < blockDim.x; o <<= 1) {
        int a = t >= o ? sc[t - o] : 0;
        __syncthreads();
        sc[t] += a;
        __syncthreads();
    }
    if (i < n) out[i] = sc[t];
}

// per-block min and max of a guarded double load, two arrays reduced in one loop
extern "C" __global__ void g37_check_minmax(const double *x, double *mn, double *mx, int n)
{
    extern __shared__ double sd[];
    double *lo = sd, *hi = sd + blockDim.x;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    double v = i < n ? x[i] : 0.0;
    lo[t] = i < n ? v : 1e308;
    hi[t] = i < n ? v : -1e308;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) { lo[t] = fmin(lo[t], lo[t + s]); hi[t] = fmax(hi[t], hi[t + s]); }
        __syncthreads();
    }
    if (t == 0) { mn[blockIdx.x] = lo[0]; mx[blockIdx.x] = hi[0]; }
}
