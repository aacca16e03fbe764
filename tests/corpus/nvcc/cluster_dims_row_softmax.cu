// corpus: -arch=sm_90 -lineinfo
// Row softmax split across a 4-CTA cluster (__cluster_dims__ on the kernel): each CTA reduces its quarter of
// the row (warp shuffles + shared memory), publishes max and sum in shared memory, cluster.sync(), reads the
// peers' values through distributed shared memory (map_shared_rank -> mapa / ld.shared::cluster), and a
// second cluster.sync() before exit keeps the shared memory alive for the readers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int THREADS = 256, PER_CTA = 1024;

__device__ float warp_max(float v) { for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o)); return v; }
__device__ float warp_sum(float v) { for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o); return v; }

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(THREADS)
cluster_row_softmax(const float *x, float *y)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ float red[8];
    __shared__ float stats[2];
    unsigned rank = cluster.block_rank();
    int row = blockIdx.x / 4;
    const float *in = x + (size_t)row * PER_CTA * 4 + rank * PER_CTA;
    float v[4], m = -INFINITY;
    for (int k = 0; k < 4; ++k) { v[k] = in[k * THREADS + threadIdx.x]; m = fmaxf(m, v[k]); }
    m = warp_max(m);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) { float t = red[0]; for (int w = 1; w < 8; ++w) t = fmaxf(t, red[w]); stats[0] = t; }
    cluster.sync();
    float gm = stats[0];
    for (unsigned r = 0; r < 4; ++r) if (r != rank) gm = fmaxf(gm, *cluster.map_shared_rank(&stats[0], r));
    float s = 0.f;
    for (int k = 0; k < 4; ++k) { v[k] = __expf(v[k] - gm); s += v[k]; }
    s = warp_sum(s);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) { float t = 0.f; for (int w = 0; w < 8; ++w) t += red[w]; stats[1] = t; }
    cluster.sync();
    float gs = 0.f;
    for (unsigned r = 0; r < 4; ++r) gs += *cluster.map_shared_rank(&stats[1], r);
    float inv = 1.f / gs;
    float *out = y + (size_t)row * PER_CTA * 4 + rank * PER_CTA;
    for (int k = 0; k < 4; ++k) out[k * THREADS + threadIdx.x] = v[k] * inv;
    cluster.sync();
}
