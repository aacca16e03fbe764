// corpus: -arch=sm_75
// Warp votes: __ballot_sync, __any_sync, __all_sync, __uni_sync, __activemask, with full and partial masks.
extern "C" __global__ void warp_vote(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v < -5);
    int all = __all_sync(0xffffffffu, v != 0);
    int uni = __uni_sync(0xffffffffu, v & 1);
    out[i * 5 + 0] = b;
    out[i * 5 + 1] = any;
    out[i * 5 + 2] = all;
    out[i * 5 + 3] = uni;
    if (v & 1) {
        out[i * 5 + 4] = __activemask();
    }
}

extern "C" __global__ void warp_vote_partial(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if ((threadIdx.x & 31) < 16) {
        unsigned b = __ballot_sync(0x0000ffffu, v > 0);
        out[i] = b + __popc(b) + __any_sync(0x0000ffffu, v == 7);
    }
}
