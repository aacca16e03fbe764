// corpus: -arch=sm_75
// __match_any_sync / __match_all_sync on 32- and 64-bit values (match.any / match.all).
extern "C" __global__ void warp_match(const int *in, const long long *in64, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred;
    out[i * 4 + 0] = __match_any_sync(0xffffffffu, in[i]);
    out[i * 4 + 1] = __match_all_sync(0xffffffffu, in[i], &pred) | (pred << 31);
    out[i * 4 + 2] = __match_any_sync(0xffffffffu, in64[i]);
    out[i * 4 + 3] = __match_all_sync(0xffffffffu, in64[i], &pred) + pred;
}

// Warp-aggregated atomic increment keyed by value (a common use of match.any).
extern "C" __global__ void warp_match_aggregate(const int *keys, int *counters)
{
    int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned peers = __match_any_sync(__activemask(), k);
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader)
        atomicAdd(&counters[k], __popc(peers));
}
