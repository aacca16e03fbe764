// corpus: -arch=sm_75
// 256-bin byte histogram: privatised shared-memory bins (ATOMS), __syncthreads, merge with global atomics (RED).
extern "C" __global__ void histogram_shared_atomics(const unsigned char *data, size_t n, unsigned *hist)
{
    __shared__ unsigned bins[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (bins[i]) atomicAdd(&hist[i], bins[i]);
}

// Warp-aggregated variant: match.any groups equal bytes, the leader adds the group size.
extern "C" __global__ void histogram_warp_aggregated(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned bins[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned active = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        unsigned b = data[i];
        unsigned peers = __match_any_sync(active, b);
        if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&bins[b], __popc(peers));
    }
    __syncthreads();
    for (int j = threadIdx.x; j < 256; j += blockDim.x) atomicAdd(&hist[j], bins[j]);
}
