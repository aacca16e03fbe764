// corpus: -arch=sm_75
// Hand-written block code: a shared exchange, an optional warp scan of the block, then `if (t == 0)` over a
// runtime count, with one or three global loads issued at the top and read only after the region: ptxas issues
// them first and the region's BSSY above the barriers (`LDG LDG BSSY BAR`) on every target (helper nvbar39, stop 39).
extern "C" __global__ void __launch_bounds__(128) n39_late_one(const float *in, const float *in2, float *out, int nw)
{
    __shared__ float s[128];
    __shared__ float tot;
    int t = threadIdx.x;
    float v = in[blockIdx.x * 128 + t];
    float w = in2[blockIdx.x * 128 + t];
    s[t] = v * 3.0f;
    __syncthreads();
    v = s[127 - t];
    if (t == 0) { float a = 0.f; for (int i = 0; i < nw; i++) a += s[i]; tot = a; }
    __syncthreads();
    out[blockIdx.x * 128 + t] = (v + tot) * w;
}

extern "C" __global__ void __launch_bounds__(128) n39_late_scan(const float *in, const float *in2, float *out, int nw)
{
    __shared__ float s[128];
    __shared__ float ws[4];
    __shared__ float tot;
    int t = threadIdx.x;
    float v = in[blockIdx.x * 128 + t];
    float w = in2[blockIdx.x * 128 + t];
    s[t] = v * 3.0f;
    __syncthreads();
    v = s[127 - t];
    int lane = t & 31;
    for (int o = 1; o < 32; o <<= 1) { float y = __shfl_up_sync(~0u, v, o); if (lane >= o) v += y; }
    if (lane == 31) ws[t >> 5] = v;
    __syncthreads();
    if (t == 0) { float a = 0.f; for (int i = 0; i < nw; i++) a += ws[i] * s[i]; tot = a; }
    __syncthreads();
    out[blockIdx.x * 128 + t] = (v + tot) * w;
}

extern "C" __global__ void __launch_bounds__(128) n39_late_three(const float *in, const float *in2, float *out, int nw)
{
    __shared__ float s[128];
    __shared__ float ws[4];
    __shared__ float tot;
    int t = threadIdx.x;
    float v = in[blockIdx.x * 128 + t];
    float w = in2[blockIdx.x * 128 + t], w2 = in2[blockIdx.x * 128 + t + 4096], w3 = in2[blockIdx.x * 128 + t + 8192];
    s[t] = v * 3.0f;
    __syncthreads();
    v = s[127 - t];
    int lane = t & 31;
    for (int o = 1; o < 32; o <<= 1) { float y = __shfl_up_sync(~0u, v, o); if (lane >= o) v += y; }
    if (lane == 31) ws[t >> 5] = v;
    __syncthreads();
    if (t == 0) { float a = 0.f; for (int i = 0; i < nw; i++) a += ws[i] * s[i]; tot = a; }
    __syncthreads();
    out[blockIdx.x * 128 + t] = (v + tot) * (w + w2 * w3);
}
