// corpus: -arch=sm_75
// Warp-level inclusive scan with __shfl_up_sync and a segmented (width 8) broadcast of segment totals.
extern "C" __global__ void warp_shuffle_scan(const int *in, int *out, int *seg_tot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    #pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int n = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += n;
    }
    out[i] = v;
    int s = in[i];
    for (int d = 1; d < 8; d <<= 1) {
        int n = __shfl_up_sync(0xffffffffu, s, d, 8);
        if ((lane & 7) >= d) s += n;
    }
    seg_tot[i] = __shfl_sync(0xffffffffu, s, 7, 8);
}
