// corpus: -arch=sm_75
// Warp-aggregated atomics as written by hand: (1) filter-append in divergent code (__activemask, leader = lowest
// lane, __popc rank, one atomicAdd, __shfl_sync of the base with the active mask); (2) per-key aggregation with
// __match_any_sync (one atomicAdd per distinct key in the warp, leader via __ffs); (3) a loop where lanes drop
// out at different trip counts and re-aggregate every iteration.
extern "C" __global__ void __launch_bounds__(256)
filter_append(const int *in, int *out, int *count, int n, int threshold)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v > threshold) {
        unsigned active = __activemask();
        int lane = threadIdx.x & 31;
        int leader = __ffs(active) - 1;
        int rank = __popc(active & ((1u << lane) - 1));
        int base = 0;
        if (lane == leader) base = atomicAdd(count, __popc(active));
        base = __shfl_sync(active, base, leader);
        out[base + rank] = v;
    }
}

extern "C" __global__ void __launch_bounds__(128)
per_key_aggregate(const int *keys, const float *vals, float *sums, int *hits, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    unsigned mask = __activemask();
    unsigned peers = __match_any_sync(mask, k);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x & 31;
    float v = vals[i];
    for (unsigned rest = peers & ~(1u << leader); rest; rest &= rest - 1) {
        int src = __ffs(rest) - 1;
        float other = __shfl_sync(peers, v, src);
        if (lane == leader) v += other;
    }
    if (lane == leader) {
        atomicAdd(&sums[k], v);
        atomicAdd(&hits[k], __popc(peers));
    }
}

extern "C" __global__ void __launch_bounds__(64)
dropout_loop_aggregate(const int *trips, unsigned long long *total)
{
    int my_trips = trips[blockIdx.x * 64 + threadIdx.x];
    for (int it = 0; it < my_trips; ++it) {
        unsigned m = __activemask();
        unsigned long long contrib = (unsigned long long)(it + 1) * (threadIdx.x + 1);
        for (int o = 16; o > 0; o >>= 1) {
            unsigned long long other = __shfl_down_sync(m, contrib, o);
            if ((threadIdx.x & 31) + o < 32 && (m >> ((threadIdx.x & 31) + o)) & 1) contrib += other;
        }
        if ((threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(total, contrib);
        __syncwarp(m);
    }
}
