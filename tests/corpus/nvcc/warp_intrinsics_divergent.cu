// corpus: -arch=sm_80
// Warp intrinsics under partial masks in divergent code: __reduce_add/max/or_sync over the lanes that took a
// branch (mask from __ballot_sync before the branch), __match_all_sync to detect a warp-uniform key and take a
// fast path, __syncwarp(mask) between shared-memory stages inside the branch, __uni_sync, and a bounded
// __nanosleep exponential back-off while polling a flag.
extern "C" __global__ void __launch_bounds__(128)
warp_partial_mask_reduce(const int *v, const int *key, int *out, int *uniform_hits)
{
    __shared__ int stage[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    int x = v[i], k = key[i];
    unsigned take = __ballot_sync(0xffffffff, x >= 0);
    if (x >= 0) {
        int s = __reduce_add_sync(take, x);
        unsigned m = __reduce_max_sync(take, (unsigned)x);
        unsigned o = __reduce_or_sync(take, (unsigned)k);
        stage[threadIdx.x] = s - (int)m;
        __syncwarp(take);
        int nb = stage[(threadIdx.x & ~31) | (__ffs(take) - 1)];
        __syncwarp(take);
        out[i] = nb + (int)o;
    } else {
        int pred;
        unsigned same = __match_all_sync(~take, k, &pred);
        if (pred && (threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(uniform_hits, 1);
        out[i] = __uni_sync(~take, k == 0) ? -1 : -2;
    }
}

extern "C" __global__ void __launch_bounds__(32)
poll_with_backoff(volatile int *flag, int *out, int max_ns)
{
    unsigned ns = 8;
    while (__any_sync(0xffffffff, *flag == 0)) {
        __nanosleep(ns);
        if (ns < (unsigned)max_ns) ns <<= 1;
    }
    __syncwarp();
    out[blockIdx.x * 32 + threadIdx.x] = __activemask() == 0xffffffffu ? *flag : 0;
}
