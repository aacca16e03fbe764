// corpus: -arch=sm_80
// Convergence-region nesting in real kernels: stencil time loops with halo ifs, a sorting network, spin locks,
// a work queue, search loops with breaks, a raking reduction (helper nvreg37, stop 37).
#include <cstdint>

// 1D Jacobi time loop, radius 1, halo ifs at both tile ends, ping-pong in shared memory.
extern "C" __global__ void q37_jacobi1d_steps(const float *in, float *out, int n, int steps)
{
    __shared__ float s[2][258];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    float v = g < n ? in[g] : 0.f;
    int cur = 0;
    for (int k = 0; k < steps; ++k) {
        s[cur][t + 1] = v;
        if (t == 0) s[cur][0] = g > 0 ? in[g - 1] : 0.f;
        if (t == blockDim.x - 1) s[cur][t + 2] = g + 1 < n ? in[g + 1] : 0.f;
        __syncthreads();
        v = 0.25f * s[cur][t] + 0.5f * s[cur][t + 1] + 0.25f * s[cur][t + 2];
        cur ^= 1;
    }
    if (g < n) out[g] = v;
}

// 2D heat step repeated in a loop; halo ifs on four sides of a 16x16 tile.
extern "C" __global__ void q37_heat2d_halo(const float *u, float *w, int nx, int ny, int steps, float a)
{
    __shared__ float s[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    bool in = x < nx && y < ny;
    float c = in ? u[y * nx + x] : 0.f;
    for (int k = 0; k < steps; ++k) {
        s[ty + 1][tx + 1] = c;
        if (tx == 0) s[ty + 1][0] = (x > 0 && y < ny) ? u[y * nx + x - 1] : c;
        if (tx == 15) s[ty + 1][17] = (x + 1 < nx && y < ny) ? u[y * nx + x + 1] : c;
        if (ty == 0) s[0][tx + 1] = (y > 0 && x < nx) ? u[(y - 1) * nx + x] : c;
        if (ty == 15) s[17][tx + 1] = (y + 1 < ny && x < nx) ? u[(y + 1) * nx + x] : c;
        __syncthreads();
        c = c + a * (s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2] - 4.f * c);
        __syncthreads();
    }
    if (in) w[y * nx + x] = c;
}

// Box blur with a radius-2 halo loaded by a strided loop, over several row tiles per block.
extern "C" __global__ void q37_blur_rows(const float *in, float *out, int n, int rows)
{
    __shared__ float s[256 + 4];
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        const float *row = in + (size_t)r * n;
        int base = blockIdx.x * blockDim.x;
        for (int i = threadIdx.x; i < blockDim.x + 4; i += blockDim.x) {
            int g = base + i - 2;
            s[i] = (g >= 0 && g < n) ? row[g] : 0.f;
        }
        __syncthreads();
        int g = base + threadIdx.x;
        if (g < n) {
            float acc = 0.f;
            for (int d = 0; d < 5; ++d) acc += s[threadIdx.x + d];
            out[(size_t)r * n + g] = acc * 0.2f;
        }
        __syncthreads();
    }
}

// Bitonic sort of 512 ints in shared memory (one block), compare-exchange under a direction if.
extern "C" __global__ void q37_bitonic512(int *data)
{
    __shared__ int s[512];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * 512 + t];
    s[t + 256] = data[blockIdx.x * 512 + t + 256];
    __syncthreads();
    for (int k = 2; k <= 512; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = t; i < 512; i += 256) {
                int p = i ^ j;
                if (p > i) {
                    int a = s[i], b = s[p];
                    bool up = (i & k) == 0;
                    if ((a > b) == up) { s[i] = b; s[p] = a; }
                }
            }
            __syncthreads();
        }
    }
    data[blockIdx.x * 512 + t] = s[t];
    data[blockIdx.x * 512 + t + 256] = s[t + 256];
}

// Per-bucket spin lock around a read-modify-write of two words (one lane per warp takes the lock).
extern "C" __global__ void q37_bucket_lock(int *locks, float *sum, int *cnt, const int *key, const float *val, int n,
                                           int nb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = key[i] % nb;
    float v = val[i];
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
            sum[b] += v;
            cnt[b] += 1;
            __threadfence();
            atomicExch(&locks[b], 0);
            done = true;
        }
    }
}

// Work queue: a warp leader grabs chunks with atomicAdd; lanes process the chunk; stop when the queue is empty.
extern "C" __global__ void q37_work_queue(int *head, const float *in, float *out, int total, int chunk)
{
    int lane = threadIdx.x & 31;
    while (true) {
        int start = 0;
        if (lane == 0) start = atomicAdd(head, chunk);
        start = __shfl_sync(0xffffffffu, start, 0);
        if (start >= total) break;
        int end = min(start + chunk, total);
        for (int i = start + lane; i < end; i += 32) out[i] = in[i] * 2.f + 1.f;
    }
}

// Search with two breaks: first element above hi or below lo in a per-thread window; a count and the position.
extern "C" __global__ void q37_window_outlier(const float *a, int *pos, int *cnt, int n, int w, float lo, float hi)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int b = t * w;
    int p = -1, c = 0;
    for (int i = b; i < b + w && i < n; ++i) {
        float v = a[i];
        if (v > hi) { p = i; break; }
        if (v < lo) { p = -i - 2; break; }
        if (v != v) continue;
        ++c;
    }
    pos[t] = p;
    cnt[t] = c;
}

// Raking reduction: warp 0 rakes 8 partial sums per lane from shared memory, then a shuffle tree.
extern "C" __global__ void q37_raking_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) v += in[i];
    s[t] = v;
    __syncthreads();
    if (t < 32) {
        float r = 0.f;
#pragma unroll
        for (int k = 0; k < 8; ++k) r += s[t * 8 + k];
        for (int o = 16; o > 0; o >>= 1) r += __shfl_down_sync(0xffffffffu, r, o);
        if (t == 0) atomicAdd(out, r);
    }
}

// Shared-memory atomics inside a halo-guarded loop: a block histogram of a stencil's gradient magnitude.
extern "C" __global__ void q37_grad_hist(const float *u, unsigned *hist, int n, int nbins, float scale)
{
    __shared__ unsigned h[64];
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (int g = blockIdx.x * blockDim.x + threadIdx.x; g < n; g += gridDim.x * blockDim.x) {
        float l = g > 0 ? u[g - 1] : u[g];
        float r = g + 1 < n ? u[g + 1] : u[g];
        int b = (int)(fabsf(r - l) * scale);
        if (b < nbins) atomicAdd(&h[b], 1u);
        else atomicAdd(&h[nbins - 1], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x)
        if (h[i]) atomicAdd(&hist[i], h[i]);
}
