// corpus: -arch=sm_80
// Fresh kernels (helper nvnest34, stop 34): segmented / raking block reductions, CSR SpMV rows with warp
// reductions, top-k / argmax with ballots in loops, block histogram + sort.

extern "C" __global__ void n34_csr_spmv_f32_warp(int nrows, const int* __restrict__ rp, const int* __restrict__ ci,
                                                 const float* __restrict__ v, const float* __restrict__ x,
                                                 float* __restrict__ y) {
    int lane = threadIdx.x & 31;
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= nrows) return;
    float acc = 0.f;
    for (int j = rp[row] + lane; j < rp[row + 1]; j += 32) acc += v[j] * x[ci[j]];
    for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) y[row] = acc;
}

extern "C" __global__ void n34_csr_spmv_half_warp(int nrows, const int* __restrict__ rp, const int* __restrict__ ci,
                                                  const double* __restrict__ v, const double* __restrict__ x,
                                                  double* __restrict__ y) {
    int lane = threadIdx.x & 15;
    int nh = (gridDim.x * blockDim.x) >> 4;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 4; row < nrows; row += nh) {
        double acc = 0.0;
        int b = rp[row], e = rp[row + 1];
        for (int j = b + lane; j < e; j += 16) acc += v[j] * x[ci[j]];
        for (int o = 8; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o, 16);
        if (lane == 0) y[row] = acc;
    }
}

extern "C" __global__ void n34_segmented_max(const int* __restrict__ off, const float* __restrict__ x,
                                             float* __restrict__ out, int nseg) {
    int seg = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (seg >= nseg) return;
    float m = -3.4e38f;
    for (int j = off[seg] + lane; j < off[seg + 1]; j += 32) m = fmaxf(m, x[j]);
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) out[seg] = m;
}

extern "C" __global__ void n34_raking_sum(const int* __restrict__ in, int* __restrict__ out, int n) {
    __shared__ int part[256];
    int t = threadIdx.x;
    int s = 0;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) s += in[i];
    part[t] = s;
    __syncthreads();
    if (t < 32) {
        int r = 0;
        for (int k = 0; k < 8; ++k) r += part[t * 8 + k];
        r = __reduce_add_sync(0xffffffffu, r);
        if (t == 0) out[blockIdx.x] = r;
    }
}

extern "C" __global__ void n34_segmented_argmin_count(const int* __restrict__ off, const int* __restrict__ x,
                                                      int* __restrict__ idx, int nseg) {
    int seg = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (seg >= nseg) return;
    int b = off[seg], e = off[seg + 1];
    int best = 0x7fffffff, bi = -1;
    for (int j = b + lane; j < e; j += 32) { int v = x[j]; if (v < best) { best = v; bi = j; } }
    for (int o = 16; o; o >>= 1) {
        int ov = __shfl_xor_sync(0xffffffffu, best, o), oi = __shfl_xor_sync(0xffffffffu, bi, o);
        if (ov < best || (ov == best && oi < bi)) { best = ov; bi = oi; }
    }
    if (lane == 0) idx[seg] = bi;
}

extern "C" __global__ void n34_row_argmax_ballot(const float* __restrict__ x, int* __restrict__ arg, int rows,
                                                 int cols) {
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* r = x + (size_t)row * cols;
    float best = -3.4e38f; int bi = 0;
    for (int c = lane; c < cols; c += 32) { float v = r[c]; if (v > best) { best = v; bi = c; } }
    float m = best;
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    unsigned b = __ballot_sync(0xffffffffu, best == m);
    int src = __ffs(b) - 1;
    bi = __shfl_sync(0xffffffffu, bi, src);
    if (lane == 0) arg[row] = bi;
}

extern "C" __global__ void n34_topk_ballot_loop(const float* __restrict__ x, float* __restrict__ outv,
                                                int* __restrict__ outi, int cols, int k) {
    int row = blockIdx.x;
    int lane = threadIdx.x;   // one warp per row
    const float* r = x + (size_t)row * cols;
    float taken = 3.4e38f;
    for (int q = 0; q < k; ++q) {
        float best = -3.4e38f; int bi = cols;
        for (int c = lane; c < cols; c += 32) {
            float v = r[c];
            if (v < taken && (v > best || (v == best && c < bi))) { best = v; bi = c; }
        }
        float m = best;
        for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        unsigned bal = __ballot_sync(0xffffffffu, best == m);
        int w = __ffs(bal) - 1;
        int wi = __shfl_sync(0xffffffffu, bi, w);
        if (lane == 0) { outv[row * k + q] = m; outi[row * k + q] = wi; }
        taken = m;
    }
}

extern "C" __global__ void n34_hist_then_rank(const unsigned* __restrict__ keys, int* __restrict__ rank, int n) {
    __shared__ int h[64];
    __shared__ int pre[64];
    int t = threadIdx.x;
    if (t < 64) h[t] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    unsigned k = i < n ? keys[i] & 63 : 64;
    if (k < 64) atomicAdd(&h[k], 1);
    __syncthreads();
    if (t < 32) {
        int a = h[2 * t], b = h[2 * t + 1];
        int s = a + b, inc = s;
        for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffffu, inc, o); if (t >= o) inc += u; }
        pre[2 * t] = inc - s; pre[2 * t + 1] = inc - b;
    }
    __syncthreads();
    if (k < 64) rank[i] = atomicAdd(&pre[k], 1);
}
