// corpus: -arch=sm_80
// sm_80 warp reduce intrinsics: __reduce_add/min/max (signed & unsigned), __reduce_and/or/xor (redux.sync).
extern "C" __global__ void warp_reduce_sync(const int *in, const unsigned *uin, int *out, unsigned *uout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned u = uin[i];
    out[i * 3 + 0] = __reduce_add_sync(0xffffffffu, v);
    out[i * 3 + 1] = __reduce_min_sync(0xffffffffu, v);
    out[i * 3 + 2] = __reduce_max_sync(0xffffffffu, v);
    uout[i * 6 + 0] = __reduce_add_sync(0xffffffffu, u);
    uout[i * 6 + 1] = __reduce_min_sync(0xffffffffu, u);
    uout[i * 6 + 2] = __reduce_max_sync(0xffffffffu, u);
    uout[i * 6 + 3] = __reduce_and_sync(0xffffffffu, u);
    uout[i * 6 + 4] = __reduce_or_sync(0xffffffffu, u);
    uout[i * 6 + 5] = __reduce_xor_sync(0x0000ffffu, u);
}
