// corpus: -arch=sm_75
// All four shuffle modes (idx, up, down, bfly) with full and sub-warp widths (16, 8, 4), int/float/double.
extern "C" __global__ void warp_shuffle_modes(const int *in, int *out, int src)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    const unsigned full = 0xffffffffu;
    out[i * 8 + 0] = __shfl_sync(full, v, src);
    out[i * 8 + 1] = __shfl_up_sync(full, v, 1);
    out[i * 8 + 2] = __shfl_down_sync(full, v, 2);
    out[i * 8 + 3] = __shfl_xor_sync(full, v, 1);
    out[i * 8 + 4] = __shfl_sync(full, v, src, 16);
    out[i * 8 + 5] = __shfl_up_sync(full, v, 3, 8);
    out[i * 8 + 6] = __shfl_down_sync(full, v, 1, 4);
    out[i * 8 + 7] = __shfl_xor_sync(full, v, 2, 8);
}

extern "C" __global__ void warp_shuffle_types(const float *f, const double *d, float *of, double *od)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    of[i] = __shfl_down_sync(0xffffffffu, f[i], 4) + __shfl_sync(0x0000ffffu, f[i], 0, 16);
    od[i] = __shfl_xor_sync(0xffffffffu, d[i], 16) + __shfl_up_sync(0xffffffffu, d[i], 1, 16);
}
