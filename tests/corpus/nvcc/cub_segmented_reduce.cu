// corpus: -arch=sm_75
// Segmented reductions as cub::DeviceSegmentedReduce's kernels shape them: one block per segment (begin/end
// offsets, vectorised loads of full tiles then a guarded tail, BlockReduce sum, empty segments get the
// initial value), and one warp per small segment with WarpReduce min over key/value (arg-min) pairs.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/util_type.cuh>
#include <cub/warp/warp_reduce.cuh>

extern "C" __global__ void __launch_bounds__(256)
segmented_reduce_block_per_segment(const float *in, const int *begin, const int *end, float *out)
{
    using BR = cub::BlockReduce<float, 256>;
    __shared__ typename BR::TempStorage tmp;
    int b = begin[blockIdx.x], e = end[blockIdx.x];
    if (b >= e) {
        if (threadIdx.x == 0) out[blockIdx.x] = 0.f;
        return;
    }
    float acc = 0.f;
    int i = b;
    for (; i + 1024 <= e; i += 1024) {
        float v[4];
        cub::LoadDirectStriped<256>(threadIdx.x, in + i, v);
        acc += (v[0] + v[1]) + (v[2] + v[3]);
    }
    for (int j = i + threadIdx.x; j < e; j += 256) acc += in[j];
    float s = BR(tmp).Sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(128)
segmented_argmin_warp_per_segment(const double *in, const int *offsets, int *arg, double *val, int segments)
{
    using KV = cub::KeyValuePair<int, double>;
    using WR = cub::WarpReduce<KV>;
    __shared__ typename WR::TempStorage tmp[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int seg = blockIdx.x * 4 + warp;
    if (seg >= segments) return;
    int b = offsets[seg], e = offsets[seg + 1];
    KV best(INT_MAX, __longlong_as_double(0x7ff0000000000000ll));
    for (int i = b + lane; i < e; i += 32)
        if (in[i] < best.value) best = KV(i - b, in[i]);
    KV r = WR(tmp[warp]).Reduce(best, [](const KV &a, const KV &c) {
        return (c.value < a.value || (c.value == a.value && c.key < a.key)) ? c : a;
    });
    if (lane == 0) { arg[seg] = e > b ? r.key : -1; val[seg] = r.value; }
}
