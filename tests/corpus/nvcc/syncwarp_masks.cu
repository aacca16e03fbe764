// corpus: -arch=sm_75
// __syncwarp with full, constant partial and computed masks between shared-memory exchanges.
extern "C" __global__ void syncwarp_masks(const int *in, int *out)
{
    __shared__ int s[32 * 4];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int *ws = s + w * 32;
    ws[lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncwarp();
    int v = ws[31 - lane];
    __syncwarp(0xffffffffu);
    if (lane < 16) {
        ws[lane] = v + ws[lane + 16];
        __syncwarp(0x0000ffffu);
        v = ws[15 - lane];
    }
    unsigned m = __ballot_sync(0xffffffffu, v & 1);
    if (v & 1) {
        ws[lane] = v * 2;
        __syncwarp(m);
        v += ws[__ffs(m) - 1];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
