// corpus: -arch=sm_75
// Stream compaction: ballot + popc ranks inside a warp, per-warp counts scanned in shared memory, one global
// atomicAdd per block for the output offset, broadcast through shared memory.
extern "C" __global__ void __launch_bounds__(256) stream_compaction(const float *in, int n, float *out, int *count)
{
    __shared__ int warp_cnt[8];
    __shared__ int base;
    int i = blockIdx.x * 256 + threadIdx.x;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    float v = i < n ? in[i] : 0.0f;
    bool keep = i < n && v > 0.0f;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    int rank = __popc(m & ((1u << lane) - 1));
    if (lane == 0) warp_cnt[w] = __popc(m);
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < 8; ++k) { int c = warp_cnt[k]; warp_cnt[k] = s; s += c; }
        base = atomicAdd(count, s);
    }
    __syncthreads();
    if (keep) out[base + warp_cnt[w] + rank] = v;
}
