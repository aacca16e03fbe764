// corpus: -arch=sm_75
// cub::BlockReduce with each algorithm on shapes a kernel author meets: RAKING_COMMUTATIVE_ONLY float sum over a
// grid-stride loop (several items per thread), RAKING arg-max over cub::KeyValuePair with a custom operator, and
// WARP_REDUCTIONS on a partial last tile (Reduce with num_valid) with a 2-D thread block.
#include <cub/block/block_reduce.cuh>
#include <cub/util_type.cuh>

extern "C" __global__ void __launch_bounds__(256)
block_reduce_commutative_sum(const float *in, float *out, int n)
{
    using BR = cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename BR::TempStorage tmp;
    float acc = 0.f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
        acc += in[i] * in[i];
    float s = BR(tmp).Sum(acc);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

struct ArgMax {
    __device__ cub::KeyValuePair<int, float> operator()(const cub::KeyValuePair<int, float> &a,
                                                        const cub::KeyValuePair<int, float> &b) const
    {
        if (b.value > a.value || (b.value == a.value && b.key < a.key)) return b;
        return a;
    }
};

extern "C" __global__ void __launch_bounds__(128)
block_reduce_raking_argmax(const float *in, int *idx_out, float *val_out, int n)
{
    using KV = cub::KeyValuePair<int, float>;
    using BR = cub::BlockReduce<KV, 128, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BR::TempStorage tmp;
    KV best(-1, -INFINITY);
    const float *row = in + (size_t)blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += 128) {
        KV kv(i, row[i]);
        best = ArgMax()(best, kv);
    }
    KV r = BR(tmp).Reduce(best, ArgMax());
    if (threadIdx.x == 0) { idx_out[blockIdx.x] = r.key; val_out[blockIdx.x] = r.value; }
}

extern "C" __global__ void __launch_bounds__(256)
block_reduce_warp_reductions_partial(const int *in, long long *out, int n)
{
    using BR = cub::BlockReduce<long long, 32, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 8>;
    __shared__ typename BR::TempStorage tmp;
    int tid = threadIdx.y * 32 + threadIdx.x;
    int base = blockIdx.x * 256;
    int valid = min(256, n - base);
    long long v = tid < valid ? (long long)in[base + tid] : 0;
    long long m = BR(tmp).Reduce(v, cuda::maximum<>{}, valid);
    if (tid == 0) out[blockIdx.x] = m;
}
