// corpus: -arch=sm_75
// Warp collectives in real control flow: a ballot-compacted stream filter with warp-aggregated atomics in a
// grid-stride loop, a per-warp early-exit top-1 search with __shfl_sync over the surviving lanes
// (__activemask), a partial-mask reduction over the valid lanes of the last tile, and a warp-level
// leader election with __match_any_sync inside a data-dependent while loop.

extern "C" __global__ void v29_stream_filter(const float* __restrict__ in, float* __restrict__ out,
                                             unsigned* __restrict__ count, int n, float lo) {
    const int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        float v = i < n ? in[i] : 0.f;
        bool keep = i < n && v > lo;
        unsigned m = __ballot_sync(0xffffffffu, keep);
        if (m == 0) continue;
        unsigned off = 0;
        if (lane == 0) off = atomicAdd(count, __popc(m));
        off = __shfl_sync(0xffffffffu, off, 0);
        if (keep) out[off + __popc(m & ((1u << lane) - 1))] = v;
    }
}

extern "C" __global__ void v29_active_top1(const float* __restrict__ score, int* __restrict__ best, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = score[i];
    if (s <= 0.f) return;
    unsigned m = __activemask();
    int idx = i;
    for (int o = 16; o > 0; o >>= 1) {
        float so = __shfl_xor_sync(m, s, o);
        int io = __shfl_xor_sync(m, idx, o);
        if ((m >> ((threadIdx.x & 31) ^ o)) & 1) {
            if (so > s || (so == s && io < idx)) { s = so; idx = io; }
        }
    }
    if ((threadIdx.x & 31) == __ffs(m) - 1) atomicMax(best, idx);
}

extern "C" __global__ void v29_tail_partial_sum(const int* __restrict__ in, int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp_base = i & ~31;
    int valid = n - warp_base;
    int v = i < n ? in[i] : 0;
    if (valid >= 32) {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    } else if (valid > 0) {
        unsigned mask = (1u << valid) - 1u;
        if ((threadIdx.x & 31) < valid) {
            for (int o = 16; o > 0; o >>= 1) {
                int t = __shfl_down_sync(mask, v, o);
                if ((threadIdx.x & 31) + o < valid) v += t;
            }
        }
    }
    if ((threadIdx.x & 31) == 0 && valid > 0) atomicAdd(out, v);
}

extern "C" __global__ void v29_bucket_leaders(const int* __restrict__ keys, int* __restrict__ buckets,
                                              int* __restrict__ counts, int n, int nb) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i] % nb;
    unsigned pending = __activemask();
    while (pending) {
        unsigned same = __match_any_sync(pending, k);
        int leader = __ffs(same) - 1;
        int lane = threadIdx.x & 31;
        int pos = 0;
        if (lane == leader) pos = atomicAdd(&counts[k], __popc(same));
        pos = __shfl_sync(same, pos, leader);
        buckets[k * n + pos + __popc(same & ((1u << lane) - 1))] = i;
        pending &= ~same;
        break;
    }
}
