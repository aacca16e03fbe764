// corpus: -arch=sm_80
// Compaction and warp-aggregated counters as written in practice: positive-float compaction with a ballot
// prefix, a two-condition predicate, a templated element type, cooperative_groups::coalesced_threads()
// appends, per-warp counters in shared memory, and a grid-stride compaction loop.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. positive floats, full-mask ballot, lane 0 reserves, broadcast the base, guarded store
extern "C" __global__ void vt33_compact_pos(const float* __restrict__ in, float* __restrict__ out,
                                           unsigned* __restrict__ counter, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    float x = (i < n) ? in[i] : -1.0f;
    bool pred = x > 0.0f;
    unsigned ballot = __ballot_sync(0xffffffffu, pred);
    unsigned rank = __popc(ballot & ((1u << lane) - 1u));
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(counter, __popc(ballot));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (pred) out[base + rank] = x;
}

// 2. range predicate (lo < x < hi, finite), store value and its index
extern "C" __global__ void vt33_compact_range_idx(const float* __restrict__ in, float* __restrict__ vals,
                                                 int* __restrict__ idx, int* __restrict__ counter,
                                                 int n, float lo, float hi) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int lane = threadIdx.x & 31;
    float x = in[i];
    bool keep = x > lo && x < hi && isfinite(x);
    unsigned act = __activemask();
    unsigned m = __ballot_sync(act, keep);
    if (m == 0) return;
    int leader = __ffs(act) - 1;
    int base;
    if (lane == leader) base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(act, base, leader);
    if (keep) {
        int pos = base + __popc(m & ((1u << lane) - 1u));
        vals[pos] = x;
        idx[pos] = i;
    }
}

// 3. templated compaction of nonzero elements
template <typename T>
__device__ void compact_nonzero(const T* in, T* out, int* counter, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    T v = (i < n) ? in[i] : T(0);
    bool nz = v != T(0);
    unsigned m = __ballot_sync(0xffffffffu, nz);
    int base = 0;
    if (lane == 0 && m != 0) base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (nz) out[base + __popc(m & ((1u << lane) - 1))] = v;
}
extern "C" __global__ void vt33_compact_nz_i64(const long long* in, long long* out, int* c, int n) { compact_nonzero(in, out, c, n); }
extern "C" __global__ void vt33_compact_nz_u16(const unsigned short* in, unsigned short* out, int* c, int n) { compact_nonzero(in, out, c, n); }

// 4. coalesced_threads append inside a divergent branch
extern "C" __global__ void vt33_cg_append(const int* __restrict__ keys, int* __restrict__ out,
                                         int* __restrict__ counter, int n, int key) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] == key) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base;
        if (g.thread_rank() == 0) base = atomicAdd(counter, (int)g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = i;
    }
}

// 5. per-warp counters in shared memory, then one atomic per block
extern "C" __global__ void vt33_warp_counters(const float* __restrict__ in, int* __restrict__ total,
                                             int n, float thr) {
    __shared__ int warp_cnt[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    bool hit = i < n && in[i] > thr;
    unsigned m = __ballot_sync(0xffffffffu, hit);
    if (lane == 0) warp_cnt[wid] = __popc(m);
    __syncthreads();
    if (threadIdx.x < 32) {
        int nw = (blockDim.x + 31) >> 5;
        int c = threadIdx.x < nw ? warp_cnt[threadIdx.x] : 0;
        c = __reduce_add_sync(0xffffffffu, c);
        if (threadIdx.x == 0 && c) atomicAdd(total, c);
    }
}

// 6. grid-stride compaction with a per-iteration warp reservation
extern "C" __global__ void vt33_compact_gridstride(const float* __restrict__ in, float* __restrict__ out,
                                                  unsigned* __restrict__ counter, int n) {
    unsigned lane = threadIdx.x & 31;
    int stride = gridDim.x * blockDim.x;
    for (int base_i = blockIdx.x * blockDim.x; base_i < n; base_i += stride) {
        int i = base_i + threadIdx.x;
        float x = i < n ? in[i] : 0.f;
        bool p = x > 0.f;
        unsigned b = __ballot_sync(0xffffffffu, p);
        unsigned base;
        if (lane == 0) base = atomicAdd(counter, __popc(b));
        base = __shfl_sync(0xffffffffu, base, 0);
        if (p) out[base + __popc(b & ((1u << lane) - 1u))] = x;
    }
}
