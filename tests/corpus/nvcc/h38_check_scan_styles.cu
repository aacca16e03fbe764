// corpus: -arch=sm_80
// Check kernels (helper shfl38, written after the rule): guarded loads before warp collectives in other styles --
// cooperative-groups scans/reductions, redux, vector loads, a template row width.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

// cg::inclusive_scan over a 32-wide tile, tail lanes contribute zero
__global__ void h38_check_cg_scan(const unsigned* in, unsigned* out, unsigned n)
{
    auto blk = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(blk);
    unsigned g = blk.group_index().x * blk.size() + blk.thread_rank();
    unsigned x = 0;
    if (g < n) x = in[g];
    unsigned s = cg::inclusive_scan(warp, x);
    if (g < n) out[g] = s;
}

// histogram-style count: guarded byte load, redux add of a predicate, one writer per warp
__global__ void h38_check_redux_count(const unsigned char* __restrict__ bytes, unsigned* __restrict__ counts,
                                      long long n, unsigned char key)
{
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned hit = 0;
    if (g < n) hit = bytes[g] == key;
    unsigned c = __reduce_add_sync(0xffffffffu, hit);
    if ((threadIdx.x & 31u) == 0u) atomicAdd(counts + (blockIdx.x & 63), c);
}

// half2 pair load under a guard, converted, exclusive cg scan of the sum
__global__ void h38_check_half2_exscan(const __half2* __restrict__ v, float* __restrict__ o, int pairs)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.f;
    if (p < pairs) { float2 f = __half22float2(v[p]); a = f.x + f.y; }
    float e = cg::exclusive_scan(warp, a);
    if (p < pairs) o[p] = e + (float)warp.thread_rank();
}

// per-thread prefix with a warp-size template, lane index from %laneid style arithmetic
template <int W>
__global__ void h38_check_tpl_prefix(const int* __restrict__ x, int* __restrict__ y, int* __restrict__ tot, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int l = threadIdx.x % W;
    int acc = t < n ? __ldg(x + t) : 0;
    for (int s = 1; s < W; s += s) {
        int u = __shfl_up_sync(0xffffffffu, acc, s, W);
        acc += (l >= s) ? u : 0;
    }
    if (t < n) y[t] = acc;
    if (l == W - 1) tot[t / W] = acc;
}
template __global__ void h38_check_tpl_prefix<32>(const int*, int*, int*, int);
template __global__ void h38_check_tpl_prefix<16>(const int*, int*, int*, int);
